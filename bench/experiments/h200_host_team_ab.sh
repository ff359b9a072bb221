#!/usr/bin/env bash
# Issue 30's CPU goal, 2026-11-29 (thirteenth session): the worker team before and after 0a0cffa on the H200's host
# (bench/NOTES.md, "A team of another size"), the suspicion being that the team that keeps its workers disturbs the
# vendor runs beside cpu/blis. The CLI is built without CUDA at the tree carried (B) and again in /tmp/team_a with
# bench/experiments/worker_team_replacing.patch (A: the team that replaced its workers at each change of size); then
# bench/ab_libs.sh swaps the two libraries on bench/shapes/host_one_row.txt, ROUNDS rounds (4 unless given), every CPU
# vendor beside cpu/blis, and every row's median time is listed per side.
# Usage (device tool, .whl carried): h200_host_team_ab.sh OUT COMMIT [ROUNDS]
set -uo pipefail
out=$1 commit=$2 rounds=${3:-4}
source bench/device_out.sh
# The CLI and library without CUDA in build-cpu/ of the tree in the current directory, labelled LABEL.
build_cpu() {
  [ -d .vendors ] || tar -xJf .whl/vendors.tar.xz
  cmake -S . -B build-cpu -G Ninja -DMATCOMPARE_WITH_CUDA=OFF -DMATCOMPARE_BUILD_TESTS=OFF \
    -DMATCOMPARE_VENDOR_PREBUILT_DIR="$PWD/.vendors" -DMATCOMPARE_GIT_COMMIT="$1" > "$out/logs/configure_$1.log" 2>&1 &&
    cmake --build build-cpu -j"$(nproc)" --target matcompare_cli > "$out/logs/build_$1.log" 2>&1
}
build_cpu "$commit" || { log "build B failed"; exit 1; }
rm -rf /tmp/team_a && mkdir -p /tmp/team_a
tar --exclude=./build --exclude=./build-cpu -cf - . | tar -C /tmp/team_a -xf -
(cd /tmp/team_a && patch -p1 < bench/experiments/worker_team_replacing.patch > "$out/logs/patch_a.log" 2>&1 &&
  build_cpu "$commit-replacing") || { log "build A failed"; exit 1; }
log "built A (replacing) and B ($commit)"
{ lscpu; nproc; uptime; } > "$out/logs/cpu.txt"
bash bench/ab_libs.sh "$out/results" build-cpu/apps /tmp/team_a/build-cpu/src build-cpu/src "$rounds" \
  --shapes bench/shapes/host_one_row.txt --filter cpu/blis,cpu/openblas,cpu/onemkl,cpu/libblis --budget 20 \
  > "$out/logs/ab.txt" 2>&1
log "A/B done"
cat "$out/logs/ab.txt"
python3 - "$out/results" <<'PY'
import glob, json, statistics, sys
times = {}
for f in sorted(glob.glob(sys.argv[1] + "/ab_*_*.json")):
    side = f.rsplit("_", 1)[1][0]
    for r in json.load(open(f))["results"]:
        if r.get("median_ms"):
            times.setdefault((r["backend"], f"{r['m']}x{r['n']}x{r['k']}"), {"A": [], "B": []})[side].append(
                r["median_ms"] * 1000)
print("median us per round, A (replacing) | B (kept)")
for (backend, shape), sides in sorted(times.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    cells = " | ".join(" ".join(f"{t:7.1f}" for t in sides[s]) for s in "AB")
    print(f"{backend:14s} {shape:12s} {cells}")
PY
