#!/usr/bin/env python3
"""Writes the input and expected output files of examples/sweep/demo.sweep
into data/ (run from this folder; the files are committed, this script only
documents how they were made). Small integers as float32, so every sum and
product is exact and the expected results do not depend on the order of
the additions."""
import struct

def floats(path, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % len(values), *values))

n = 1024
a = [float((i * 7) % 101 - 50) for i in range(n)]
b = [float((i * 13) % 67) / 2 for i in range(n)]
floats("data/vecadd_a.bin", a)
floats("data/vecadd_b.bin", b)
floats("data/vecadd_c.bin", [x + y for x, y in zip(a, b)])

m = 32  # M = N = K
A = [float((r * 3 + c) % 9 - 4) for r in range(m) for c in range(m)]
B = [float((r + c * 5) % 7 - 3) for r in range(m) for c in range(m)]
C = [sum(A[r * m + k] * B[k * m + c] for k in range(m)) for r in range(m) for c in range(m)]
floats("data/matmul_a.bin", A)
floats("data/matmul_b.bin", B)
floats("data/matmul_c.bin", C)
