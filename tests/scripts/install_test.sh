#!/bin/sh
# `make install PREFIX=P` (it runs `cmake --install`) gives a vt that works on
# its own, checked in a fresh prefix under TMP_ROOT:
#  - the files: vt, libvt.{a,so}, headers, vt.pc, the device-side start-up
#    code and printf (P/share/vt/crt0.s, vtprintf.s), the user docs
#    (P/share/doc/vt/README.md and docs/*.md);
#  - the installed vt runs without LD_LIBRARY_PATH and assembles kernels with
#    the installed crt0.s and vtprintf.s; a kernel's printf output is checked
#    against values computed by hand;
#  - a host program (examples/vecadd.c) built with `pkg-config --cflags
#    --libs vt` links the installed shared libvt, finds it at run time through
#    the RUNPATH that vt.pc adds, and checks its kernel's results;
#  - a program linked statically through pkg-config runs;
#  - the drop-in libspike_driver.so: its exported symbols, and pocl's call
#    sequence replayed against it through dlopen (tests/unit/test_dropin_replay.c);
#  - when the OpenCL platform was built: libvtocl.so and P/etc/OpenCL/vendors/
#    vtocl.icd naming it (for the prefix /usr: /etc/OpenCL/vendors), and the
#    installed platform loads through the ICD loader (clinfo, if present).
# Usage: install_test.sh SOURCE_DIR BUILD_DIR TMP_ROOT
set -eu
SRC=$1
BUILD=$2
mkdir -p "$3"
T=$(mktemp -d "$3/install_prefix.XXXXXX")
P=$T/prefix
unset LD_LIBRARY_PATH
passed=0
failed=0
ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
finish() {
  echo "$passed passed, $failed failed"
  if [ "$failed" -eq 0 ]; then rm -rf "$T"; else echo "temporary files kept in $T"; fi
  [ "$failed" -eq 0 ]
}

cmake --install "$BUILD" --prefix "$P" >/dev/null

missing=
for f in bin/vt include/vt_runtime.h include/ventus.h include/vt/isa.h include/vt/asm.h \
  include/vt/sim.h share/vt/crt0.s share/vt/vtprintf.s share/doc/vt/README.md; do
  [ -e "$P/$f" ] || missing="$missing $f"
done
for d in "$SRC"/docs/*.md; do
  [ -e "$P/share/doc/vt/docs/${d##*/}" ] || missing="$missing share/doc/vt/docs/${d##*/}"
done
ls "$P"/lib*/libvt.a "$P"/lib*/libvt.so "$P"/lib*/pkgconfig/vt.pc >/dev/null 2>&1 ||
  missing="$missing lib/libvt.a|libvt.so|pkgconfig/vt.pc"
if [ -z "$missing" ]; then ok installed_files; else fail "installed_files: missing$missing"; fi
# one copy of the start-up code in the repository, installed as it is
if cmp -s "$SRC/examples/kernels/crt0.s" "$P/share/vt/crt0.s" &&
  cmp -s "$SRC/examples/kernels/vtprintf.s" "$P/share/vt/vtprintf.s"; then
  ok startup_code_is_the_repository_copy
else fail startup_code_is_the_repository_copy; fi

# the installed vt on its own: assemble with the installed crt0/vtprintf, launch
if "$P/bin/vt" --version >/dev/null &&
  "$P/bin/vt" as "$P/share/vt/crt0.s" "$SRC/examples/kernels/hello.s" "$P/share/vt/vtprintf.s" \
    -o "$T/hello.elf" &&
  "$P/bin/vt" launch "$T/hello.elf" --kernel hello --global 8 --local 8 --threads 4 \
    --arg out:32 -q >"$T/hello.out"; then
  # gid 3: 3*3 = 9, odd, in warp 0 (lanes 0-3); gid 6: 36 = 0x24, warp 1
  if grep -qx 'gid 3: square 9 = 0x9 (odd), negated -3, warp 0' "$T/hello.out" &&
    grep -qx 'gid 6: square 36 = 0x24 (even), negated -6, warp 1' "$T/hello.out" &&
    grep -qx '\[A\] workgroup 0: 2 warp(s) x 4 threads, 100% ready' "$T/hello.out"; then
    ok installed_vt_assembles_and_launches
  else fail "installed_vt_assembles_and_launches: output"; cat "$T/hello.out"; fi
else fail installed_vt_assembles_and_launches; fi

if ! command -v pkg-config >/dev/null 2>&1; then
  echo "pkg-config is not installed (pkgconf): the pkg-config checks fail"
  fail pkg_config_present
  finish
  exit 1
fi
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(ls -d "$P"/lib*/pkgconfig)
LIBDIR=$(pkg-config --variable=libdir vt)
if [ "$(cd "$(pkg-config --variable=pkgdatadir vt)" && pwd -P)" = "$(cd "$P/share/vt" && pwd -P)" ]; then
  ok pkgdatadir_variable
else fail pkgdatadir_variable; fi

# a host program against the shared library, run without LD_LIBRARY_PATH
# shellcheck disable=SC2046  # pkg-config output is meant to be split
if "$P/bin/vt" as "$P/share/vt/crt0.s" "$SRC/examples/kernels/vecadd.s" -o "$T/vecadd.elf" &&
  cc "$SRC/examples/vecadd.c" $(pkg-config --cflags --libs vt) -o "$T/vecadd"; then
  dep=$(ldd "$T/vecadd" | grep 'libvt\.so' || true)
  want=$(cd "$LIBDIR" && pwd -P)/libvt.so.0
  got=$(echo "$dep" | sed -n 's/.*=> \([^ ]*\) .*/\1/p')
  if [ -n "$got" ] && [ "$(cd "$(dirname "$got")" && pwd -P)/$(basename "$got")" = "$want" ]; then
    ok shared_link_uses_installed_libvt
  else fail "shared_link_uses_installed_libvt: ldd says '$dep', expected $want"; fi
  if "$T/vecadd" "$T/vecadd.elf" 1024 32 4 >"$T/vecadd.out" 2>&1; then
    ok shared_program_runs
  else fail shared_program_runs; cat "$T/vecadd.out"; fi
else fail shared_program_builds; fi

# a program linked statically through pkg-config
cat >"$T/use.c" <<'C'
#include <string.h>
#include <vt/isa.h>
int main(void) {
  char b[64];
  vt_disasm(0x00500513, 0, NULL, b, sizeof b);
  return strcmp(b, "li\ta0, 5") != 0;
}
C
# shellcheck disable=SC2046
if cc "$T/use.c" $(pkg-config --cflags --libs --static vt) -static -o "$T/use" && "$T/use"; then
  ok static_program_runs
else fail static_program_runs; fi

# the compiler (built when LLVM 14 exists): the installed vt runs the
# installed vt-cc, and vt itself does not load LLVM
if [ -x "$BUILD/vt-cc" ]; then
  printf 'kernel void k(global int *o) { o[get_global_id(0)] = 7; }\n' >"$T/k.cl"
  if "$P/bin/vt" cc -o "$T/k.elf" "$T/k.cl" && [ -s "$T/k.elf" ]; then ok installed_vt_cc_compiles
  else fail installed_vt_cc_compiles; fi
fi
if ldd "$P/bin/vt" | grep -q LLVM; then fail "vt_does_not_link_llvm: $(ldd "$P/bin/vt" | grep LLVM)"
else ok vt_does_not_link_llvm; fi
# the drop-in for the official driver library, as installed
dropin=$(ls "$P"/lib*/libspike_driver.so 2>/dev/null | head -n 1)
if [ -n "$dropin" ] && sh "$SRC/tests/scripts/dropin_symbols_test.sh" "$dropin" "$T" >"$T/dropin.out" 2>&1; then
  ok installed_dropin_exports_the_official_functions
else fail installed_dropin_exports_the_official_functions; cat "$T/dropin.out" 2>/dev/null || true; fi
if [ -n "$dropin" ] && [ -x "$BUILD/tests/test_dropin_replay" ] &&
  VT_DROPIN_LIB=$dropin "$BUILD/tests/test_dropin_replay" >"$T/replay.out" 2>&1; then
  ok installed_dropin_replays_pocl
else fail installed_dropin_replays_pocl; tail -n 20 "$T/replay.out" 2>/dev/null || true; fi

# the OpenCL platform (built when the OpenCL headers exist)
if [ -e "$BUILD/src/ocl/libvtocl.so" ]; then
  icd=$P/etc/OpenCL/vendors/vtocl.icd
  lib=$(ls "$P"/lib*/libvtocl.so 2>/dev/null | head -n 1)
  if [ -f "$icd" ] && [ -n "$lib" ] && [ "$(cat "$icd")" = "$lib" ]; then
    ok icd_file_names_the_installed_library
  else fail "icd_file_names_the_installed_library: '$(cat "$icd" 2>/dev/null)' vs '$lib'"; fi
  DESTDIR=$T/staged cmake --install "$BUILD" --prefix /usr >/dev/null
  if grep -qx '/usr/lib.*/libvtocl.so' "$T/staged/etc/OpenCL/vendors/vtocl.icd" 2>/dev/null; then
    ok icd_file_for_prefix_usr_in_etc
  else fail icd_file_for_prefix_usr_in_etc; fi
  if command -v clinfo >/dev/null 2>&1; then
    if OCL_ICD_VENDORS=$icd clinfo -l 2>&1 | grep -q 'Platform #0: vt'; then
      ok installed_platform_loads
    else fail installed_platform_loads; fi
  fi
fi
finish
