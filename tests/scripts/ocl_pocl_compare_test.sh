#!/bin/sh
# The same computation on two OpenCL platforms: examples/opencl/ocl_matmul
# (2-D NDRange, two __local tiles, barriers) on vt with the kernel
# assembled by `vt as` (examples/kernels/matmul.s) and on Debian's CPU
# OpenCL (PoCL) with the same kernel in OpenCL C
# (examples/opencl/kernels/matmul.cl); both check their result bit for bit
# against the host, and their printed matrices must be identical.
# Usage: ocl_pocl_compare_test.sh OCL_MATMUL MATMUL_ELF MATMUL_CL ICD_FILE TMP_ROOT
#   (exit 77 when PoCL's ICD file is not installed)
set -eu
PROG=$1
ELF=$2
CLSRC=$3
ICD=$4
mkdir -p "$5"
POCL=/etc/OpenCL/vendors/pocl.icd
if [ ! -f "$POCL" ]; then
  echo "SKIP: $POCL not found (pocl-opencl-icd: sh scripts/install-deps.sh opencl)"
  exit 77
fi
T=$(mktemp -d "$5/ocl_pocl.XXXXXX")
# PoCL's compiler caches into HOME; keep it inside the test's directory
export HOME="$T" POCL_CACHE_DIR="$T/pocl-cache"
status=0
for shape in "32 24 40 8" "64 64 32 16"; do
  # shellcheck disable=SC2086  # the shape is four arguments
  if ! OCL_ICD_VENDORS=$ICD "$PROG" --platform vt "$ELF" $shape --dump >"$T/vt.out" ||
    ! OCL_ICD_VENDORS=$POCL ASAN_OPTIONS=detect_leaks=0 "$PROG" --platform Portable "$CLSRC" \
      $shape --dump >"$T/pocl.out"; then
    echo "FAIL $shape: a run failed"
    status=1
  elif ! cmp -s "$T/vt.out" "$T/pocl.out"; then
    echo "FAIL $shape: vt and PoCL differ"
    diff "$T/vt.out" "$T/pocl.out" | head -5
    status=1
  else
    echo "ok   $shape: $(tail -n 1 "$T/vt.out")"
  fi
done
if [ $status -eq 0 ]; then echo "2 passed, 0 failed"; rm -rf "$T"; else echo "kept $T"; fi
exit $status
