#!/bin/sh
# Installs vt into a temporary prefix with `cmake --install` (what
# `make install PREFIX=...` runs) and builds a program against it through
# pkg-config. Usage: install_test.sh BUILD_DIR
set -eu
BUILD=$1
PREFIX=$(mktemp -d)
trap 'rm -rf "$PREFIX"' EXIT
cmake --install "$BUILD" --prefix "$PREFIX" >/dev/null
for f in bin/vt include/vt/isa.h include/vt/asm.h include/vt/elf.h include/vt/sim.h; do
  test -e "$PREFIX/$f" || { echo "missing $PREFIX/$f"; exit 1; }
done
ls "$PREFIX"/lib*/libvt.a "$PREFIX"/lib*/libvt.so >/dev/null
PC=$(ls -d "$PREFIX"/lib*/pkgconfig)
if ! command -v pkg-config >/dev/null 2>&1; then echo "SKIP: pkg-config not installed"; exit 0; fi
cat > "$PREFIX/use.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <vt/isa.h>
int main(void) {
  char b[64];
  vt_disasm(0x00500513, 0, NULL, b, sizeof b);
  return strcmp(b, "li\ta0, 5") != 0;
}
C
cc "$PREFIX/use.c" $(PKG_CONFIG_PATH=$PC pkg-config --cflags --libs vt) -static -o "$PREFIX/use"
"$PREFIX/use"
"$PREFIX/bin/vt" --version
echo "1 passed, 0 failed"
