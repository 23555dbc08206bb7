#!/bin/sh
# Installs what vt needs on Debian 12, with apt-get as root (through sudo
# when started by another user). CI (.ci/run) installs through this script
# too, with the profile `all`, so these lists are the ones CI proves.
#
#   sh scripts/install-deps.sh [PROFILE...]   build and test essentials, plus
#                                             the packages of each PROFILE
#   sh scripts/install-deps.sh --list [PROFILE...]   print the packages only
#
# Profiles, for optional parts of vt (`all` is every one of them).
# `compiler` builds vt cc (docs/cc.md), `opencl` libvtocl's tests
# (docs/opencl.md), `debug` vt debug's line editing and its GDB tests
# (docs/debug.md), `cluster` and `browser` the tests of vt sweep and
# vt report (docs/sweep.md, docs/report.md), `tools` is used by bench/run.sh
# (hyperfine, GNU time). The essentials include libjs-chart.js: vt report
# copies Chart.js into its pages (docs/report.md).
#   compiler  vt cc: clang/LLVM 14 development files, libclc
#   opencl    OpenCL platform: ICD loader, headers, clinfo, PoCL, PyOpenCL
#   debug     vt debug: gdb-multiarch (tests), libedit (line editing)
#   cluster   vt sweep --slurm and its test on a one-node Slurm: Slurm, munge
#   browser   the browser test of vt report: chromium
#   tools     gnuplot, hyperfine, valgrind (plots, benchmarks, memory checks)
set -eu

ESSENTIALS="cmake make gcc libc6-dev clang llvm libclang-rt-14-dev
  binutils-riscv64-unknown-elf libmpfr-dev pkgconf libjs-chart.js"
PROFILES="compiler opencl debug cluster browser tools"

profile_packages() {
  case $1 in
    compiler) echo "clang-14 llvm-14-dev libclang-14-dev libclc-14" ;;
    opencl) echo "ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers clinfo pocl-opencl-icd python3-pyopencl" ;;
    debug) echo "gdb-multiarch libedit-dev" ;;
    cluster) echo "slurm-wlm munge python3" ;;
    browser) echo "chromium python3" ;;
    tools) echo "gnuplot hyperfine valgrind time" ;;
    *) return 1 ;;
  esac
}

list_only=false
if [ "${1:-}" = --list ]; then
  list_only=true
  shift
fi
packages=$ESSENTIALS
for p in "$@"; do
  if [ "$p" = all ]; then
    for q in $PROFILES; do packages="$packages $(profile_packages "$q")"; done
  elif ! packages="$packages $(profile_packages "$p")"; then
    echo "install-deps.sh: unknown profile '$p' (profiles: $PROFILES all)" >&2
    exit 2
  fi
done

if $list_only; then
  # shellcheck disable=SC2086  # one package per word
  printf '%s\n' $packages
  exit 0
fi
SUDO=
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
$SUDO apt-get update
# shellcheck disable=SC2086
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $packages
