#!/bin/sh
# docs/debug.md shows real sessions. Each fenced block after the line
# <!-- test: session --> starts with "$ vt debug ARGS"; its lines starting
# with "(vt) " are the commands. Run with those commands (-x) in a folder
# holding crt0.s and examples/kernels/divergent.s assembled with -g and
# in.bin = the words 1..8, vt debug must print the rest of the block
# exactly (its summary line on stderr is not shown).
# Usage: debug_doc_test.sh SOURCE_DIR BUILD_DIR TMP_ROOT
set -eu
SRC=$1
VT=$2/vt
DOC=$SRC/docs/debug.md
mkdir -p "$3"
T=$(mktemp -d "$3/debug_doc.XXXXXX")
passed=0
failed=0

cp "$SRC/examples/kernels/crt0.s" "$SRC/examples/kernels/divergent.s" "$T/"
printf '\001\000\000\000\002\000\000\000\003\000\000\000\004\000\000\000' >"$T/in.bin"
printf '\005\000\000\000\006\000\000\000\007\000\000\000\010\000\000\000' >>"$T/in.bin"
(cd "$T" && "$VT" as -g crt0.s divergent.s -o divergent.elf)

# the n-th fenced block after a "<!-- test: session -->" line
block() {
  awk -v n="$1" '$0 == "<!-- test: session -->" { k++; if (k == n) f = 1; next }
    f == 1 && /^```/ { f = 2; next }
    f == 2 && /^```/ { exit }
    f == 2 { print }' "$DOC"
}

n=1
while block $n | grep -q .; do
  block $n >"$T/want.txt"
  args=$(head -n 1 "$T/want.txt" | sed -n 's/^\$ vt debug //p')
  sed -n 's/^(vt) //p' "$T/want.txt" >"$T/cmds.txt"
  tail -n +2 "$T/want.txt" >"$T/want_out.txt"
  # shellcheck disable=SC2086  # the documented arguments, word by word
  (cd "$T" && "$VT" debug $args -x cmds.txt >got.txt 2>/dev/null) || true
  if [ -n "$args" ] && cmp -s "$T/want_out.txt" "$T/got.txt"; then
    passed=$((passed + 1))
    echo "ok   session $n"
  else
    failed=$((failed + 1))
    echo "FAIL session $n: docs/debug.md differs from the real output:"
    diff "$T/want_out.txt" "$T/got.txt" || true
  fi
  n=$((n + 1))
done
[ $n -gt 1 ] || { echo "FAIL no <!-- test: session --> block in docs/debug.md"; failed=1; }
echo "$passed passed, $failed failed"
if [ $failed -eq 0 ]; then rm -rf "$T"; fi
[ $failed -eq 0 ]
