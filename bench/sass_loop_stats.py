#!/usr/bin/env python3
"""The main loop of each kernel in a SASS listing, as the instruction stream one warp issues.

    cuobjdump -sass build/src/CMakeFiles/matcompare.dir/gpu/simt/simt_variants_col_a.cu.o > col_a.sass
    python3 bench/sass_loop_stats.py col_a.sass [more.sass ...]

For each function: its longest backward branch with the most FFMAs (the k loop), that loop's instructions, its
FFMAs, and the cycles their encoded stall counts add up to. FFMAs per cycle is an upper bound of what one warp
can issue; stalls a second warp on the scheduler cannot fill show up as the gap to 1. On sm_90 the control bits
are the top of the second 64-bit word: stall count (4 bits from bit 41), yield, write and read barriers, the
wait mask and the operand reuse flags. cuBLAS's own kernels can be listed the same way from libcublasLt.so
(`cuobjdump -sass -arch sm_90 -fun NAME`). cuobjdump comes with the CUDA toolkit (the GPU machine), or from the
nvidia-cuda-cuobjdump wheel.
"""
import collections
import re
import sys

INSTRUCTION = re.compile(r'/\*([0-9a-f]{4,})\*/\s+(.*?);\s*/\*\s*(0x[0-9a-f]+)\s*\*/')
SECOND_WORD = re.compile(r'/\*\s*(0x[0-9a-f]+)\s*\*/')


def instructions(lines):
    out, i = [], 0
    while i < len(lines):
        first = INSTRUCTION.search(lines[i])
        second = SECOND_WORD.search(lines[i + 1]) if first and i + 1 < len(lines) else None
        if first and second:
            control = int(second.group(1), 16) >> 41
            out.append({"addr": int(first.group(1), 16), "text": first.group(2).strip(), "stall": control & 0xF})
            i += 2
        else:
            i += 1
    return out


def functions(text):
    parts = re.split(r'\n\s*Function : (\S+)\n', text)
    return [(parts[k], instructions(parts[k + 1].splitlines())) for k in range(1, len(parts), 2)]


def opcode(text):
    words = text.split()
    return words[1] if words[0].startswith('@') and len(words) > 1 else words[0]


def main_loop(insts):
    at = {t["addr"]: k for k, t in enumerate(insts)}
    best = None
    for k, t in enumerate(insts):
        branch = re.search(r'BRA.*?0x([0-9a-f]+)', t["text"])
        if branch and int(branch.group(1), 16) < t["addr"] and int(branch.group(1), 16) in at:
            start = at[int(branch.group(1), 16)]
            ffma = sum(1 for x in insts[start:k + 1] if opcode(x["text"]) == "FFMA")
            if best is None or ffma > best[2]:
                best = (start, k, ffma)
    return best


def main(paths):
    for path in paths:
        for name, insts in functions(open(path).read()):
            loop = main_loop(insts)
            if not loop or loop[2] == 0:
                continue
            body = insts[loop[0]:loop[1] + 1]
            cycles = sum(t["stall"] for t in body)
            extra = collections.Counter()
            for t in body:
                if t["stall"] > 1:
                    extra[opcode(t["text"])] += t["stall"] - 1
            print(f"{name}\n  loop: {len(body)} instructions, {loop[2]} FFMA, {cycles} cycles, "
                  f"{loop[2] / cycles:.3f} FFMA per cycle; cycles past one per instruction: "
                  f"{', '.join(f'{op} {n}' for op, n in extra.most_common(5))}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: sass_loop_stats.py LISTING.sass ...")
    main(sys.argv[1:])
