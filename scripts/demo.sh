#!/bin/sh
# The demo: the example vecadd kernel (assembled by `vt as` with its start-up
# code) runs on the functional simulator through libvt and is checked
# against the host; then the official compiled kernels of ../shared/cases,
# when present, run through `vt run` and their outputs are checked (the demo
# says so when they are absent); last, a small sweep (examples/sweep/
# demo.sweep) on the timing model and its report (vt sweep, vt report).
set -eu
BUILD=${1:-build}
VT="$BUILD/vt"
echo "== vt as examples/kernels/crt0.s examples/kernels/vecadd.s -o $BUILD/examples/vecadd.elf"
"$VT" as examples/kernels/crt0.s examples/kernels/vecadd.s -o "$BUILD/examples/vecadd.elf"
"$VT" objdump -d "$BUILD/examples/vecadd.elf" | sed -n '/<vecadd>:/,$p'
echo
echo "== vecadd on the simulator (8192 elements, 32 threads x 4 warps per workgroup)"
"$BUILD/examples/vecadd" "$BUILD/examples/vecadd.elf" 8192 32 4
echo
echo "== printf from a kernel: vt launch with the device-side vt_printf (examples/kernels/hello.s)"
"$VT" launch "$BUILD/examples/hello.elf" --kernel hello --global 8 --local 8 --threads 4 --arg out:32
CASES=../shared/cases
if [ -d "$CASES" ]; then
  echo
  echo "== official Ventus kernel: gaussian elimination, 6 launches (vt run)"
  G=$CASES/gaussian
  OUT=$BUILD/demo
  mkdir -p "$OUT"
  "$VT" run "$G/Fan1_0.metadata" "$G/Fan2_0.metadata" "$G/Fan1_1.metadata" \
    "$G/Fan2_1.metadata" "$G/Fan1_2.metadata" "$G/Fan2_2.metadata" \
    --dump 0x90001000:16:"$OUT/b.bin" --stats-json "$OUT/gaussian-stats.json"
  got=$(od -A n -t x4 "$OUT/b.bin" | tr -s ' \n' ' ' | sed 's/^ //; s/ $//')
  want="bf59999a be828f5c 3f5f3ec1 be8042df"
  if [ "$got" = "$want" ]; then echo "b = $got: verified against the reference"; else
    echo "b = $got, expected $want"; exit 1; fi
else
  echo
  echo "== official Ventus kernel: gaussian elimination: skipped"
  echo "   ($CASES not found: the official compiled kernels are not part of the repository)"
fi
echo
echo "== a small sweep: vecadd and matmul at 1, 2 and 4 SMs with 4 and 8 warp slots,"
echo "   timing model (examples/sweep/demo.sweep, docs/sweep.md), then its report"
SWEEP=examples/sweep/demo.sweep
if [ "$BUILD" != build ]; then # the sweep file names build/: point it at $BUILD
  sed "s#build/#$BUILD/#g" examples/sweep/demo.sweep >"$BUILD/demo.sweep"
  SWEEP=$BUILD/demo.sweep
fi
rm -rf "$BUILD/sweep-demo"
"$VT" sweep -o "$BUILD/sweep-demo" "$SWEEP"
"$VT" report "$BUILD/sweep-demo"
