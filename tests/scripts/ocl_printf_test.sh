#!/bin/sh
# Device printf through the OpenCL platform: examples/opencl/ocl_printf runs
# the hello kernel (examples/kernels/hello.s) with 32 work-items in
# workgroups of 16, 2 warps of 8 threads (VT_THREADS=8); its output must be
# exactly the lines computed here (any order: warps interleave) and end
# with the program's own line.
# Usage: ocl_printf_test.sh OCL_PRINTF HELLO_ELF ICD_FILE TMP_ROOT
set -eu
PROG=$1
ELF=$2
export OCL_ICD_VENDORS=$3
mkdir -p "$4"
T=$(mktemp -d "$4/ocl_printf.XXXXXX")
export VT_THREADS=8
"$PROG" "$ELF" 32 16 >"$T/out"
# expected: per workgroup g a header, per work-item i its line (warp = (i % 16) / 8)
i=0
: >"$T/want"
for g in 0 1; do
  c=$(printf "\\$(printf '%03o' $((65 + g)))")
  echo "[$c] workgroup $g: 2 warp(s) x 8 threads, 100% ready" >>"$T/want"
done
while [ $i -lt 32 ]; do
  sq=$((i * i))
  if [ $((i % 2)) -eq 0 ]; then par=even; else par=odd; fi
  printf 'gid %d: square %d = 0x%x (%s), negated %d, warp %d\n' $i $sq $sq $par $((-i)) \
    $(((i % 16) / 8)) >>"$T/want"
  i=$((i + 1))
done
echo "ocl_printf: 32 work-items in workgroups of 16: results verified" >"$T/last"
status=0
if ! head -n -1 "$T/out" | sort | diff - "$(sort "$T/want" >"$T/want.sorted"; echo "$T/want.sorted")"; then
  echo "FAIL the kernel's lines differ"
  status=1
fi
if ! tail -n 1 "$T/out" | diff - "$T/last"; then
  echo "FAIL the last line"
  status=1
fi
if [ $status -eq 0 ]; then echo "1 passed, 0 failed"; rm -rf "$T"; else echo "kept $T"; fi
exit $status
