#!/usr/bin/env bash
# Builds (scripts/setup.sh) and runs every test, then the sanitizer leg (scripts/sanitize.sh). GPU
# tests report "Skipped" with the reason when no GPU can run them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
ctest --test-dir build --output-on-failure -j2
scripts/sanitize.sh
