#!/usr/bin/env bash
# Issue 30, 2026-11-28 (seventh session), the first call: the last session's head (312b3a7), never built on the GPU,
# checked, then the profile that session's filter missed. The build and the whole CTest; racecheck on a 64-row product
# with B kept [n][k] and copied from one pointer (never under racecheck), memcheck on an odd one; Nsight Compute on the
# table's choice at 64x57344x8192 in NN and NT (the cut-round kernel, with its source counters: where NT's extra 24%
# goes); last, the [n][k] copy written without the swizzle its reads use (the every-variant test must fail). No restore
# build: nothing runs after it.
# Usage (device tool, .whl/ and .vendors/ carried): h200_head_nt_profile.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
sanitize racecheck 64 520 200 simt-tuned 120
sanitize memcheck 33 777 130 simt-tuned 40
for layout in NN NT; do ncu_simt $layout 64 57344 8192; done
grep -E "simt_|Duration|Registers Per|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|Issue Slots|Warp Cycles Per Issued|Bank|bank" \
  "$out/logs/details_NN.txt" "$out/logs/details_NT.txt" | head -60
head -30 "$out/logs/stalls_NN.txt" "$out/logs/stalls_NT.txt"
file=src/gpu/simt/simt_tuned.cuh
sed -i 's|4 \* b_nk_piece<C>(nk_col + l \* kBColStep, nk_k / 4)|4 * ((nk_col + l * kBColStep) * C::kBQuads + nk_k / 4)|' $file
grep -c "kBQuads + nk_k / 4)" $file
cmake --build build -j"$(nproc)" > "$out/logs/mutation_build.log" 2>&1
log "mutation build exit $?"
build/tests/test_gpu_backends --test-case="*every variant*" > "$out/logs/mutation_test.log" 2>&1
log "mutation ([n][k] copy unswizzled): test_gpu_backends every variant exit $? (must be non-zero):" \
  "$(grep -cE 'ERROR' "$out/logs/mutation_test.log") errors"
