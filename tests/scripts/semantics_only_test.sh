#!/bin/sh
# The simulator, the timing model and the runtime act on the instruction
# table's semantic columns only (docs/isa-table.md): no instruction ids
# (VT_INSN_*, except VT_INSN_INVALID / VT_INSN_COUNT) and no comparisons of
# mnemonics. A new instruction is a table row, never a special case there.
# usage: semantics_only_test.sh SOURCE_DIR
src=${1:?source dir}
fail=0
for d in src/sim src/timing src/runtime; do
  hits=$(grep -rnE 'VT_INSN_[A-Z0-9_]+' "$src/$d" | grep -vE 'VT_INSN_(INVALID|COUNT)\b')
  if [ -n "$hits" ]; then
    echo "$d names instruction ids:"; echo "$hits"; fail=1
  fi
  hits=$(grep -rnE '(str(n)?cmp|strstr|memcmp)\([^;]*mnemonic' "$src/$d")
  if [ -n "$hits" ]; then
    echo "$d compares mnemonics:"; echo "$hits"; fail=1
  fi
done
# the timing model drives the functional core through src/sim/step.h only
hits=$(grep -rnE '#include "(sim/|\.\./sim/)' "$src/src/timing" | grep -vE '"(sim/|\.\./sim/)step\.h"')
if [ -n "$hits" ]; then
  echo "src/timing includes simulator internals (use src/sim/step.h):"; echo "$hits"; fail=1
fi
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
