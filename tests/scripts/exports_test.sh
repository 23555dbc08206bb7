#!/bin/sh
# libvt.so and libvtcc.so export exactly their public API: the functions
# declared in the installed headers (include/*.h, include/vt/*.h; vt/cc.h
# for libvtcc), nothing else. The declared names are read here with perl (perl-base),
# independently of cmake/export_map.cmake.
# usage: exports_test.sh SOURCE_DIR BUILD_DIR TMP_ROOT
src=${1:?}; build=${2:?}; tmproot=${3:?}
tmp=$(mktemp -d "$tmproot/exports.XXXXXX") || exit 1
pass=0; fail=0
declared() { # headers... -> function names, comments removed
  cat "$@" | perl -0777 -pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g' | grep -oE '[A-Za-z_0-9*] +\**vt_[a-z0-9_]+ *\(' |
    grep -oE 'vt_[a-z0-9_]+' | sort -u
}
check() { # library expected-list name
  nm -D --defined-only "$1" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | sort -u >"$tmp/$3.got"
  if ! cmp -s "$tmp/$3.got" "$2"; then
    echo "FAIL $3: exported symbols differ from the public headers' functions"
    echo "  exported but not declared:"; comm -23 "$tmp/$3.got" "$2" | sed 's/^/    /'
    echo "  declared but not exported:"; comm -13 "$tmp/$3.got" "$2" | sed 's/^/    /'
    fail=$((fail + 1))
  else
    echo "ok   $3 ($(wc -l <"$2") symbols)"; pass=$((pass + 1))
  fi
}
declared $(ls "$src"/include/*.h "$src"/include/vt/*.h | grep -v '/cc\.h$') >"$tmp/libvt.want"
check "$build/libvt.so" "$tmp/libvt.want" libvt
if [ -f "$build/libvtcc.so" ]; then
  declared "$src/include/vt/cc.h" >"$tmp/libvtcc.want"
  check "$build/libvtcc.so" "$tmp/libvtcc.want" libvtcc
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ] && rm -rf "$tmp"
exit $((fail != 0))
