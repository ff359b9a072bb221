#!/usr/bin/env bash
# Two builds of the library compared on one machine, in alternation (A B A B ...): one set of binaries, the
# library swapped by LD_LIBRARY_PATH, so that both meet the same drift, heat and neighbours. Each run pairs every
# row with its vendor in that run (the harness's paired ratio; for a TF32 row, the same-precision vendor's) and with
# the best vendor of its precision; the table lists each build's GFLOP/s and both ratios side by side.
#   bench/ab_libs.sh OUT_DIR BIN_DIR LIB_DIR_A LIB_DIR_B ROUNDS [matcompare options...]
# BIN_DIR holds a matcompare binary built beside either library (e.g. copied from build/apps); each LIB_DIR holds a
# libmatcompare.so.0. The runs go to OUT_DIR/ab_<round>_<A|B>.json.
set -uo pipefail
out=$1 bin=$2 lib_a=$3 lib_b=$4 rounds=$5
shift 5
libs=/usr/local/cuda/lib64
for round in $(seq 1 "$rounds"); do
  for side in A B; do
    lib=$lib_a
    [ "$side" = B ] && lib=$lib_b
    LD_LIBRARY_PATH=$lib:$libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$bin/matcompare" "$@" --format json \
      --out "$out/ab_${round}_$side.json" 2>> "$out/ab_errors.log" || echo "round $round $side exit $?"
  done
done
python3 - "$out" "$rounds" <<'PY'
import json, pathlib, sys
out, rounds = pathlib.Path(sys.argv[1]), int(sys.argv[2])
table = {}
for r in range(1, rounds + 1):
    for side in "AB":
        f = out / f"ab_{r}_{side}.json"
        if not f.exists():
            continue
        for row in json.load(open(f))["results"]:
            if row["vendor"]:
                continue
            key = (row["backend"], f"{row['m']}x{row['n']}x{row['k']}")
            ratio = row["vs_precision_vendor"] or row["vs_vendor"] or 0
            best = row.get("vs_best_vendor") or 0
            table.setdefault(key, {"A": [], "B": []})[side].append((row["gflops"] or 0, ratio, best))
for (backend, shape), sides in table.items():
    cells = "  ".join(f"{s}: " + " ".join(f"{g:8.0f} x{x:.3f} best x{b:.3f}" for g, x, b in sides[s]) for s in "AB")
    print(f"{backend:26s} {shape:15s} {cells}")
PY
