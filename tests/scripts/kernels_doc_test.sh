#!/bin/sh
# docs/kernels.md tells the truth, checked against a fresh install
# (`cmake --install`, what `make install PREFIX=P` runs) in its own temporary
# directory under TMP_ROOT:
#  - the block after <!-- verbatim: examples/kernels/first.s --> is that file;
#  - the block after <!-- test: run -->, run by sh with PREFIX=P next to a
#    copy of first.s, prints the block after <!-- test: output --> (lines
#    compared in sorted order, runs of blanks as one: warps may print in
#    another order);
#  - the results equal values computed here with shell arithmetic;
#  - for every mistake under "Common mistakes", made here from first.s, each
#    line vt prints (summary lines aside, the installed share/vt folder
#    written as $VTS) appears verbatim in the page, and the documented silent
#    results (no join, a missing argument) are what vt gives.
# Usage: kernels_doc_test.sh SOURCE_DIR BUILD_DIR TMP_ROOT
set -eu
SRC=$1
DOC=$SRC/docs/kernels.md
FIRST=$SRC/examples/kernels/first.s
mkdir -p "$3"
T=$(mktemp -d "$3/kernels_doc.XXXXXX")
P=$T/prefix
VTS=$P/share/vt
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

# the fenced block after the line "<!-- $1 -->"
block() {
  awk -v m="<!-- $1 -->" '$0 == m { f = 1; next }
    f == 1 && /^```/ { f = 2; next }
    f == 2 && /^```/ { exit }
    f == 2 { print }' "$DOC"
}
norm() { tr -s ' \t' '  ' | sed 's/^ //; s/ $//' | sort; }

cmake --install "$2" --prefix "$P" >/dev/null

block "verbatim: examples/kernels/first.s" >"$T/doc_first.s"
if [ -s "$T/doc_first.s" ] && cmp -s "$T/doc_first.s" "$FIRST"; then ok example_is_first_s_verbatim
else fail "example_is_first_s_verbatim: the block differs from examples/kernels/first.s"; fi

# --- the page's commands, as a reader runs them ---
mkdir "$T/run"
cp "$FIRST" "$T/run/first.s"
block "test: run" >"$T/run.sh"
if (cd "$T/run" && PREFIX=$P sh "$T/run.sh" >"$T/run.out" 2>"$T/run.err"); then
  block "test: output" | norm >"$T/want.txt"
  norm <"$T/run.out" >"$T/got.txt"
  if [ -s "$T/want.txt" ] && cmp -s "$T/want.txt" "$T/got.txt"; then ok documented_output
  else fail documented_output; diff "$T/want.txt" "$T/got.txt" || true; fi
else fail "run_block: exit status"; cat "$T/run.err"; fi

# --- the results against shell arithmetic (in[i] = i odd ? -i : i, rounds 2) ---
i=0
while [ $i -lt 16 ]; do
  x=$(( i % 2 ? -i : i ))
  y=$(( x < 0 ? -x : 2 * x ))
  y=$(( 3 * (3 * y + 1) + 1 ))
  eval "y$i=$y"
  i=$((i + 1))
done
want=
i=0
while [ $i -lt 16 ]; do
  j=$(( i / 8 * 8 + (i % 8 + 1) % 8 ))
  eval "want=\"\$want \$(( y$i + y$j ))\""
  i=$((i + 1))
done
got=$(od -An -t d4 "$T/run/results/arg1.bin" 2>/dev/null | tr -s ' \n' '  ' || true)
if [ "$(echo $got)" = "$(echo $want)" ]; then ok results_match_arithmetic
else fail "results_match_arithmetic: got '$got', want '$want'"; fi

# --- common mistakes ---
LAUNCH="--kernel first --global 16 --local 8 --threads 4 --arg in:$T/run/in.bin --arg out:64 --arg local:32"
# mistake NAME SED_EXPR: first.s changed by SED_EXPR (must change it) in $T/m_NAME
mistake() {
  mkdir "$T/m_$1"
  sed "$2" "$FIRST" >"$T/m_$1/first.s"
  if cmp -s "$FIRST" "$T/m_$1/first.s"; then fail "$1: the edit did not apply"; return 1; fi
}
# check NAME CMD...: CMD fails, and every line it prints is in the page
check() {
  name=$1
  shift
  if (cd "$T/m_$name" && "$@" >out.txt 2>&1); then fail "$name: succeeded"; return; fi
  grep -v '^vt launch: [0-9]* launch(es)' "$T/m_$name/out.txt" |
    awk -v d="$VTS/" '{ while ((k = index($0, d)) > 0) $0 = substr($0, 1, k - 1) "$VTS/" substr($0, k + length(d)); print }' \
      >"$T/m_$name/msg.txt"
  missing=0
  [ -s "$T/m_$name/msg.txt" ] || missing=1
  while IFS= read -r line; do
    grep -qxF -- "$line" "$DOC" || { echo "not in the page: $line"; missing=1; }
  done <"$T/m_$name/msg.txt"
  if [ $missing -eq 0 ]; then ok "mistake_$name"; else fail "mistake_$name"; fi
}
VT=$P/bin/vt

mkdir "$T/m_nocrt0"
cp "$FIRST" "$T/m_nocrt0/first.s"
check nocrt0 "$VT" as first.s "$VTS/vtprintf.s" -o k.elf
mkdir "$T/m_vecadd"
check vecadd sh -c "'$VT' as '$SRC/examples/kernels/vecadd.s' -o vecadd.elf &&
  '$VT' launch vecadd.elf --global 16 --arg out:64 --arg out:64 --arg out:64"
mkdir "$T/m_noprintf"
cp "$FIRST" "$T/m_noprintf/first.s"
check noprintf "$VT" as "$VTS/crt0.s" first.s -o k.elf
# shellcheck disable=SC2086  # LAUNCH is a list of words
build_and_launch() { "$VT" as "$VTS/crt0.s" first.s "$VTS/vtprintf.s" -o first.elf && "$VT" launch first.elf $LAUNCH "$@"; }
mkdir "$T/m_nokernel"
cp "$FIRST" "$T/m_nokernel/first.s"
check nokernel sh -c "'$VT' as '$VTS/crt0.s' first.s '$VTS/vtprintf.s' -o first.elf &&
  '$VT' launch first.elf --global 16 --local 8 --threads 4 --arg out:64"
mkdir "$T/m_nonuniform"
cp "$FIRST" "$T/m_nonuniform/first.s"
check nonuniform sh -c "'$VT' as '$VTS/crt0.s' first.s '$VTS/vtprintf.s' -o first.elf &&
  '$VT' launch first.elf --kernel first --global 12 --local 8 --threads 4 --arg out:64"
# the epilogue's "addi sp, sp, -16" first, then the prologue's "addi sp, sp, 16  # ..."
if mistake stackdown 's/^    addi    sp, sp, -16$/    addi    sp, sp, 16/; s/^    addi    sp, sp, 16 .*/    addi    sp, sp, -16/; s/sw      ra, -4(sp)/sw      ra, 12(sp)/'; then
  check stackdown build_and_launch --arg i32:2
fi
if mistake endless '/^    addi    t4, t4, 1$/d'; then
  check endless build_and_launch --arg i32:2 --max-insns 100000
fi
if mistake scalarbase 's/vlw12.v v3, 0(v3) /vlw12.v v3, 0(t4) /'; then
  check scalarbase build_and_launch --arg i32:2
fi
if mistake nolidcsr 's/csrr    t3, CSR_TID /csrr    t3, CSR_LID /'; then
  check nolidcsr build_and_launch --arg i32:2
fi
if mistake nojoin '/^    join    zero, zero, 0/d'; then
  if (cd "$T/m_nojoin" && build_and_launch --arg i32:2 --save r -q >/dev/null 2>&1); then
    if [ "$(od -An -t d4 "$T/m_nojoin/r/arg1.bin" | norm)" = "$(block "test: nojoin" | norm)" ]; then
      ok mistake_nojoin
    else fail "mistake_nojoin: results differ from the page"; fi
  else fail "mistake_nojoin: launch failed"; fi
fi
mkdir "$T/m_noarg"
cp "$FIRST" "$T/m_noarg/first.s"
check noarg build_and_launch
if (cd "$T/m_noarg" && build_and_launch --no-memcheck --save r -q >/dev/null 2>&1) &&
  [ "$(od -An -t d4 -N 4 "$T/m_noarg/r/arg1.bin" | tr -d ' ')" = 1 ] &&
  grep -q '`out\[0\]` is 1 instead of 17' "$DOC"; then ok mistake_noarg_unchecked
else fail mistake_noarg_unchecked; fi

echo "$passed passed, $failed failed"
if [ "$failed" -eq 0 ]; then rm -rf "$T"; else echo "temporary files kept in $T"; exit 1; fi
