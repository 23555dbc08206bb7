#!/bin/sh
# The demo: assemble the example vecadd kernel with its start-up code into
# an ELF with the official Ventus layout, then disassemble it.
set -eu
BUILD=${1:-build}
VT="$BUILD/vt"
OUT="$BUILD/demo"
mkdir -p "$OUT"
echo "== vt as examples/kernels/crt0.s examples/kernels/vecadd.s -o $OUT/vecadd.elf"
"$VT" as examples/kernels/crt0.s examples/kernels/vecadd.s -o "$OUT/vecadd.elf"
echo "== vt objdump -t $OUT/vecadd.elf"
"$VT" objdump -t "$OUT/vecadd.elf"
echo "== vt objdump -d $OUT/vecadd.elf"
"$VT" objdump -d "$OUT/vecadd.elf"
