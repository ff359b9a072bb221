#!/usr/bin/env bash
# Issue 30, 2026-11-28 (seventh session), the session's last device seconds: the build of the head (its kernels
# 312b3a7's, the [n][k] rewrite reverted) and the 8B decode suite at --budget 30 on the fast rows and vendors.
# Usage (device tool, .whl carried): h200_decode_8b_head.sh OUT COMMIT
set -uo pipefail
out=$1 commit=$2
source bench/device_out.sh
build_only "$commit"
SUITE_MARGIN=40 suite llama-3.1-8b-decode 30
