#!/bin/sh
# Installs what building and testing vt needs on Debian 12 (run as root).
set -eu
apt-get update
apt-get install -y --no-install-recommends \
  cmake make gcc clang llvm libclang-rt-14-dev \
  binutils-riscv64-unknown-elf libmpfr-dev ca-certificates
