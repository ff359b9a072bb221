#!/usr/bin/env bash
# Issue 30, 2026-11-28 (sixth session): why a 64-row product still runs 50-70% longer with B stored N×K than K×N
# after B's tile was kept [n][k] (bench/NOTES.md, "A short C with 64x256 tiles, and B stored N×K kept [n][k]"). The
# build; test_gpu_backends' every-variant case (two variants with k tiles of 32 added); the tuner's probe of 64x57344x8192
# in NT and NN and 64x28672x4096 NT; Nsight Compute on the table's choice at 64x57344x8192, NN and NT, same variant.
# Usage (device tool, .whl/ and .vendors/ carried): h200_nt_profile.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
every_variant_test
$tune --m 64 --n 57344,28672 --k 8192,4096 --layout NT --min-time 0.05 > "$out/logs/probe_nt.log" 2>&1
log "probe NT exit $?"
$tune --m 64 --n 57344 --k 8192 --layout NN --min-time 0.05 > "$out/logs/probe_nn.log" 2>&1
log "probe NN exit $?"
grep -A6 "ranked" "$out/logs/probe_nt.log" "$out/logs/probe_nn.log"
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,lts__t_sector_hit_rate.pct,dram__bytes_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
for layout in NN NT; do
  timeout 120 ncu --kernel-name-base mangled -k "regex:simt_tuned_kernel" --launch-count 1 \
    --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --metrics "$metrics" \
    -o "$out/results/simt_$layout" \
    $cli --m 64 --n 57344 --k 8192 --layout $layout --filter simt-tuned --repetitions 1 --min-time 0 --no-flush \
    > "$out/logs/ncu_$layout.log" 2>&1
  log "ncu $layout exit $?"
  ncu --import "$out/results/simt_$layout.ncu-rep" --page details > "$out/logs/details_$layout.txt" 2>&1
done
