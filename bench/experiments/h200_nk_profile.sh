#!/usr/bin/env bash
# Issue 30, 2026-11-28 (seventh session): why the [n][k] tile read at constant offsets ran 25% slower than the one it
# replaced at 64x57344x8192 NT (bench/NOTES.md, "B's [n][k] tile read at constant offsets", runs 2-3) although its
# SASS loop matches NN's. The build, then Nsight Compute on the table's choice in NN and NT with the memory tables
# (shared stores of the cp.async copies included) and the source counters.
# Usage (device tool, .whl carried): h200_nk_profile.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum,smsp__inst_executed_op_ldgsts.sum,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,smsp__inst_executed.sum
for layout in NN NT; do
  timeout 150 ncu --kernel-name-base function -k "regex:simt_(tuned|cut_round|split_k)_kernel" --launch-count 1 \
    --import-source no --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis \
    --section MemoryWorkloadAnalysis_Tables --section SourceCounters --metrics "$metrics" \
    -o "$out/results/simt_$layout" \
    $cli --m 64 --n 57344 --k 8192 --layout $layout --filter simt-tuned --repetitions 1 --min-time 0 --no-flush \
    > "$out/logs/ncu_$layout.log" 2>&1
  log "ncu $layout exit $?"
  ncu --import "$out/results/simt_$layout.ncu-rep" --page details > "$out/logs/details_$layout.txt" 2>&1
  ncu --import "$out/results/simt_$layout.ncu-rep" --page source --csv --print-source sass \
    > "$out/logs/sass_$layout.csv" 2>&1
  python3 bench/ncu_stalls.py "$out/logs/sass_$layout.csv" > "$out/logs/stalls_$layout.txt" 2>&1
done
grep -hE "simt_|Duration|wavefronts|bank_conflicts|ldgsts|Shared|dram__bytes|Warp Cycles Per Issued" \
  "$out/logs/details_NN.txt" "$out/logs/details_NT.txt" | cut -c1-150
head -24 "$out/logs/stalls_NN.txt" "$out/logs/stalls_NT.txt"
