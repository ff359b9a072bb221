"""Each row's median GFLOP/s over the CLI's and the library's runs of compare.sh, and library / CLI."""
import glob
import json
import statistics
import sys
from collections import defaultdict

out = sys.argv[1]
rates = defaultdict(list)  # (size, backend, side) -> GFLOP/s per round
for path in sorted(glob.glob(f"{out}/*_*_*.json")):
    side = path.rsplit("/", 1)[1].split("_")[0]
    for r in json.load(open(path))["results"]:
        if r["status"] == "ok":
            rates[(r["m"], r["backend"], side)].append(r["gflops"])
print(f"{'size':>5}  {'backend':<14} {'CLI GFLOP/s':>12} {'library':>9} {'library/CLI':>11}  rounds")
for size, backend in sorted({(k[0], k[1]) for k in rates}):
    cli, lib = rates[(size, backend, "cli")], rates[(size, backend, "library")]
    if cli and lib:
        c, l = statistics.median(cli), statistics.median(lib)
        print(f"{size:>5}  {backend:<14} {c:12.1f} {l:9.1f} {l / c:11.3f}  {len(cli)}/{len(lib)}")
