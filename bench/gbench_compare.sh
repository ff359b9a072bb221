#!/usr/bin/env bash
# Google Benchmark's own tools/compare.py on our `--format gbench` output, as issue 32 asks: two committed runs written
# back by `matcompare show --format gbench`, compared with each other and each with itself. compare.py is not
# shipped here (Apache-2.0, google/benchmark's tools/ folder); point at a checkout's tools/. Its numpy and scipy go
# into build/gbench-venv. Logs and exit codes to OUT.
# Usage: bench/gbench_compare.sh GBENCH_TOOLS_DIR OUT [BASE.json NEW.json]
set -euo pipefail
tools=$1 out=$2
base=${3:-report/h100_all_2048.json} new=${4:-report/h100_gpu_fastpath.json}
mkdir -p "$out"
[ -x build/gbench-venv/bin/python ] || { python3 -m venv build/gbench-venv &&
  build/gbench-venv/bin/pip install -q numpy scipy; }
build/apps/matcompare show "$base" --format gbench > "$out/base.json"
build/apps/matcompare show "$new" --format gbench > "$out/new.json"
for pair in "base base" "new new" "base new"; do
  set -- $pair
  status=0
  build/gbench-venv/bin/python "$tools/compare.py" --no-color benchmarks "$out/$1.json" "$out/$2.json" \
    > "$out/compare_$1_$2.txt" 2>&1 ||
    status=$?
  echo "compare.py benchmarks $1 $2: exit $status, $(grep -c . "$out/compare_$1_$2.txt") lines" | tee -a "$out/steps.txt"
done
