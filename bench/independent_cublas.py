#!/usr/bin/env python3
"""An event-timed cuBLAS SGEMM that shares no code with matcompare, to check its vendor row.

PyTorch calls cuBLAS for a float32 matmul (TF32 disabled below, so it is FP32 math as in
gpu/cublas-fp32). The L2 is made cold before every sample by writing a buffer of twice its size.
Prints one JSON line per size: {"m":..,"median_ms":..,"gflops":..}.

    python3 bench/independent_cublas.py 2048 4096
"""
import json
import statistics
import sys

import torch


def main(sizes):
    torch.backends.cuda.matmul.allow_tf32 = False
    device = torch.device("cuda")
    l2_bytes = torch.cuda.get_device_properties(device).L2_cache_size
    flush = torch.empty(2 * l2_bytes // 4, dtype=torch.float32, device=device)
    for n in sizes:
        a = torch.rand(n, n, device=device) * 2 - 1
        b = torch.rand(n, n, device=device) * 2 - 1
        c = torch.empty(n, n, device=device)
        for _ in range(3):
            torch.mm(a, b, out=c)
        times = []
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        for _ in range(200):
            flush.fill_(1.0)
            start.record()
            torch.mm(a, b, out=c)
            stop.record()
            stop.synchronize()
            times.append(start.elapsed_time(stop))
        median = statistics.median(times)
        print(json.dumps({"m": n, "n": n, "k": n, "median_ms": round(median, 5),
                          "gflops": round(2.0 * n ** 3 / (median * 1e6), 1),
                          "device": torch.cuda.get_device_name(device), "torch": torch.__version__}))


if __name__ == "__main__":
    main([int(s) for s in sys.argv[1:]] or [2048, 4096])
