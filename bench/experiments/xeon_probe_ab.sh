#!/usr/bin/env bash
# Run from the repo root on the device, with .exp/bin/blis_probe and .exp/lib_<label>/libmatcompare.so.0 carried.
# One thread: the probe's `parts` and `pairs` (cpu/blis against OpenBLAS, paired) with each library in turn, ROUNDS
# times, so that the host's spells hit every library alike. Usage: xeon_probe_ab.sh OUT ROUNDS LABEL...
set -uo pipefail
out=$1 rounds=$2
shift 2
mkdir -p $out
{ lscpu; uptime; } > $out/cpu.txt
for round in $(seq 1 $rounds); do
  for label in "$@"; do
    log=$out/${label}_$round.txt
    export LD_LIBRARY_PATH=.exp/lib_$label:/usr/local/cuda/lib64
    { timeout 60 .exp/bin/blis_probe parts 3; timeout 60 .exp/bin/blis_probe pairs 2048 8 default;
      timeout 90 .exp/bin/blis_probe pairs 4096 3 default; } > $log 2>&1
    echo "round $round $label: kernel L1 $(awk '/kernel kc 64/ {print $(NF-4)}' $log), macro $(awk '/macro kc 768 mc 336 jr/ {print $(NF-4)}' $log), vs OpenBLAS 2048 / 4096: $(awk '/^  default/ {print $(NF-1)}' $log | tr '\n' ' ')"
  done
done
