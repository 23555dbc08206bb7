#!/bin/sh
# Installs what building and testing vt needs on Debian 12. Runs apt-get as
# root, through sudo when started by another user.
set -eu
SUDO=
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
$SUDO apt-get update
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  cmake make gcc libc6-dev clang llvm libclang-rt-14-dev \
  binutils-riscv64-unknown-elf libmpfr-dev
