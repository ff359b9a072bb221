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
for layout in NN NT; do ncu_simt $layout 64 57344 8192; done
grep -hE "simt_|Duration|wavefronts|bank_conflicts|ldgsts|Shared|dram__bytes|Warp Cycles Per Issued" \
  "$out/logs/details_NN.txt" "$out/logs/details_NT.txt" | cut -c1-150
head -24 "$out/logs/stalls_NN.txt" "$out/logs/stalls_NT.txt"
