#!/usr/bin/env bash
# Builds (scripts/setup.sh) and runs every test. GPU tests report "Skipped" with the reason when
# no GPU can run them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
ctest --test-dir build --output-on-failure -j2
