#!/usr/bin/env python3
"""Writes the shipped shape suites of suites/ (what `matcompare --suite NAME` runs).

    python3 suites/make_suites.py GEMM_PROBLEMS_H [OUT_DIR]

GEMM_PROBLEMS_H is DeepBench's code/kernels/gemm_problems.h (baidu-research/DeepBench); the transformer suites come
from the model configurations written below. Each file says where its shapes come from and how they were converted,
so a reader can check a line against its source.
"""
import os
import re
import sys

DEEPBENCH_COMMIT = "da81ba7"

DEEPBENCH_SETS = {
    "training_set": ("deepbench-training", "DeepBench's GEMM training set"),
    "inference_server_set": ("deepbench-inference-server", "DeepBench's GEMM inference set for servers"),
    "inference_device_set": ("deepbench-inference-device", "DeepBench's GEMM inference set for devices (CPU-sized)"),
}

CONVERSION = [
    "conversion: DeepBench lists column-major problems (m, n, k, a_t, b_t): C (m x n) = op(A) op(B), alpha = beta = 1.",
    "  The same memory is, row-major, C^T = op(B)^T op(A)^T: M = n, N = m, K = k, and the layout's first letter",
    "  (A's) is b_t, its second (B's) is a_t (README, \"Layouts\"). alpha and beta are the run's (--alpha, --beta).",
]

# Llama 3.1 (Meta's published configurations): hidden size, MLP size, attention heads, KV heads, vocabulary.
MODELS = {
    "llama-3.1-8b": (4096, 14336, 32, 8, 128256),
    "llama-3.1-70b": (8192, 28672, 64, 8, 128256),
}
DECODE_TOKENS = (1, 16, 64)
PREFILL_TOKENS = (2048, 8192, 16384)

# The error study (issue 31): K from 256 to 65536 in steps of 4 at one small M = N, so that every row's error against
# K fits a run of each value distribution (`--values`) on any machine.
ERROR_SWEEP_MN = 512
ERROR_SWEEP_KS = (256, 1024, 4096, 16384, 65536)


def deepbench_sets(header_text):
    sets = {}
    for name, body in re.findall(r"(\w+)\s*=\s*\{(.*?)\};", header_text, re.S):
        sets[name] = [(int(m), int(n), int(k), a == "true", b == "true")
                      for m, n, k, a, b in re.findall(r"make_tuple\((\d+),\s*(\d+),\s*(\d+),\s*(true|false),\s*(true|false)\)", body)]
    return sets


def layers(hidden, mlp, heads, kv_heads, vocab):
    head_dim = hidden // heads
    return [("qkv", hidden + 2 * kv_heads * head_dim, hidden), ("o", hidden, hidden),
            ("gate+up", 2 * mlp, hidden), ("down", hidden, mlp), ("lm-head", vocab, hidden)]


def write(path, header, lines):
    with open(path, "w", encoding="utf-8") as out:
        for line in header:
            out.write(f"# {line}\n" if line else "#\n")
        out.write("# columns: M N K LAYOUT NAME\n")
        for line in lines:
            out.write(line + "\n")


def main(header_path, out_dir):
    with open(header_path, encoding="utf-8") as handle:
        sets = deepbench_sets(handle.read())
    for set_name, (suite, title) in DEEPBENCH_SETS.items():
        problems = sets[set_name]
        lines = []
        for m, n, k, a_t, b_t in problems:
            layout = ("T" if b_t else "N") + ("T" if a_t else "N")
            lines.append(f"{n} {m} {k} {layout} deepbench m={m} n={n} k={k} a_t={int(a_t)} b_t={int(b_t)}")
        write(os.path.join(out_dir, suite + ".txt"),
              [f"{suite}: {title} ({len(problems)} problems)",
               f"source: baidu-research/DeepBench, code/kernels/gemm_problems.h, {set_name} (commit {DEEPBENCH_COMMIT},"
               " Apache-2.0)", *CONVERSION], lines)
    for model, config in MODELS.items():
        for phase, tokens in (("decode", DECODE_TOKENS), ("prefill", PREFILL_TOKENS)):
            lines = [f"{t} {out} {inp} NT {model} {layer} T={t}" for t in tokens for layer, out, inp in layers(*config)]
            hidden, mlp, heads, kv_heads, vocab = config
            write(os.path.join(out_dir, f"{model}-{phase}.txt"),
                  [f"{model}-{phase}: the linear layers of {model} at {phase} ({len(lines)} problems:"
                   f" T = {', '.join(map(str, tokens))} tokens)",
                   f"source: {model}'s published configuration: hidden {hidden}, MLP {mlp}, {heads} attention heads,"
                   f" {kv_heads} KV heads, vocabulary {vocab}",
                   "conversion: a linear layer y = x W^T, x T tokens x in, W out x in as stored: M = T, N = out,",
                   "  K = in, layout NT. qkv fuses Q, K and V (hidden + 2 x KV heads x head size), gate+up the MLP's",
                   "  two input projections (2 x MLP size), lm-head is the vocabulary projection."], lines)
    write_error_sweep(out_dir)


def write_error_sweep(out_dir):
    lines = [f"{ERROR_SWEEP_MN} {ERROR_SWEEP_MN} {k} NN K={k}" for k in ERROR_SWEEP_KS]
    write(os.path.join(out_dir, "error-vs-k.txt"),
          [f"error-vs-k: relative error against K at M = N = {ERROR_SWEEP_MN} ({len(lines)} problems: K = "
           f"{', '.join(map(str, ERROR_SWEEP_KS))})",
           "source: this project's error study (docs/accuracy.md): run it once per value distribution (--values)",
           "conversion: none; the report plots each row's relative error against K with the sqrt(K) u and K u guides"],
          lines)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else os.path.dirname(os.path.abspath(__file__)))
