#!/bin/sh
# Checks that the compiler vectorises the simulator's lane loops: compiles
# the vector executors as the Release build does (-O3) with gcc's
# vectorisation report and counts the vectorised loops.
# Usage: vectorize_check.sh CC SOURCE_DIR BUILD_DIR
set -eu
CC=$1
SRC=$2
BUILD=$3
if ! "$CC" --version 2>/dev/null | grep -qi 'gcc\|free software'; then
  echo "SKIP: $CC is not gcc (the check reads gcc's -fopt-info-vec report)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
count() {
  "$CC" -O3 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$SRC/include" -I"$SRC/src" -I"$SRC/src/isa" \
    -I"$BUILD/generated" -fopt-info-vec-optimized -c "$SRC/src/sim/$1" -o /dev/null 2>&1 |
    grep -c 'loop vectorized' || true
}
# exec_vint.c instantiates vint_body.h once per element width: every
# branch-free integer operation gives one vectorised loop per width
v=$(count exec_vint.c)
c=$(count exec_ventus.c)
# exec_fast.c instantiates exec_fast_vec.h twice (portable, AVX2): 27
# executors per variant, each with a compute and a blend loop
f=$(count exec_fast.c)
echo "exec_vint.c: $v vectorised lane loops; exec_ventus.c: $c; exec_fast.c: $f"
fail=0
[ "$f" -ge 100 ] || { echo "exec_fast.c: expected at least 100 vectorised lane loops"; fail=1; }
[ "$v" -ge 90 ] || { echo "exec_vint.c: expected at least 90 vectorised lane loops"; fail=1; }
[ "$c" -ge 1 ] || { echo "exec_ventus.c: expected at least 1 vectorised lane loop (vadd12/vsub12)"; fail=1; }
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; exit 1; fi
