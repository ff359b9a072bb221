#!/usr/bin/env bash
# 2026-11-28 (third session): the GPU verification the last session's tree never had: the build, the whole CTest
# (cuBLAS and cuBLASLt now opened at first use, 7860cd0), memcheck on the fast rows and the vendors in every layout,
# racecheck on the 3xTF32 row's promoted big pass (842d7ec) and the TF32 row.
# Usage (device tool, .whl/ and .vendors/ carried): h100_head_verify.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_and_ctest "$commit"
sanitize memcheck 100 130 600 tensor-core,simt-tuned,cublas 90
sanitize racecheck 100 130 600 tensor-core-3xtf32,tensor-core-tf32-ws 90
