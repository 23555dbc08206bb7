#!/bin/sh
# libspike_driver.so exports exactly the functions of the official driver
# library (host-stack.md 1.2: the vt_* functions the official spike backend
# defines; vt_upload_kernel_bytes and vt_dump_perf are declared by the
# official header but defined by no official library), unversioned, under
# the SONAME pocl's link names; its other dependencies are the C library's.
# Usage: dropin_symbols_test.sh LIBRARY TMP_ROOT
set -eu
LIB=$1
mkdir -p "$2"
T=$(mktemp -d "$2/dropin_symbols.XXXXXX")
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

cat >"$T/expected" <<'LIST'
vt_buf_alloc
vt_buf_free
vt_copy_from_dev
vt_copy_to_dev
vt_dev_caps
vt_dev_close
vt_dev_open
vt_finish_all_kernel
vt_one_buf_free
vt_ready_wait
vt_root_mem_alloc
vt_root_mem_free
vt_start
vt_upload_kernel_file
LIST

# nm -D: the dynamic symbol table, defined symbols only
nm -D --defined-only "$LIB" | awk '{print $NF}' | LC_ALL=C sort >"$T/nm"
if cmp -s "$T/expected" "$T/nm"; then ok nm_lists_exactly_the_official_functions
else fail nm_lists_exactly_the_official_functions; diff "$T/expected" "$T/nm" || true; fi

# readelf: every one a global function; no symbol versions
readelf -W --dyn-syms "$LIB" | awk '$7 != "UND" && $8 ~ /^vt_/ {print $4, $5, $8}' |
  LC_ALL=C sort >"$T/readelf"
if [ "$(wc -l <"$T/readelf")" -eq 14 ] && ! grep -v '^FUNC GLOBAL vt_' "$T/readelf" >/dev/null &&
  ! grep -q '@' "$T/readelf"; then
  ok readelf_global_unversioned_functions
else fail readelf_global_unversioned_functions; cat "$T/readelf"; fi
if readelf -V "$LIB" | grep -q 'Version definition section'; then
  fail no_version_definitions
else ok no_version_definitions; fi

# the SONAME pocl links (-lspike_driver), and no other vt library needed
if readelf -d "$LIB" | grep -q 'Library soname: \[libspike_driver\.so\]'; then ok soname
else fail soname; fi
if readelf -d "$LIB" | grep NEEDED | grep -q 'libvt'; then fail self_contained
else ok self_contained; fi

echo "$passed passed, $failed failed"
if [ "$failed" -eq 0 ]; then rm -rf "$T"; fi
[ "$failed" -eq 0 ]
