#!/usr/bin/env bash
# Build the libFuzzer targets with clang (-DVT_FUZZ=ON) and run each one for
# SECONDS seconds, starting from its seed corpus in tests/fuzz/corpus/NAME.
#
#   tests/fuzz/run-fuzzers.sh SECONDS [BUILD_DIR]
#
# BUILD_DIR defaults to build-fuzz in the source tree. Fails (exit 1) on any
# crash, leak, timeout, out-of-memory or sanitizer report; the reproducer is
# left in BUILD_DIR/fuzz-artifacts/ and the log in BUILD_DIR/fuzz-logs/.
# Targets whose library sources are not in the tree yet (assembler, ELF
# reader) are skipped with a message. Environment: CC (default clang),
# FUZZ_JOBS (parallel build jobs, default nproc), FUZZ_ARGS (extra libFuzzer
# flags).
set -euo pipefail

usage() {
  echo "usage: $0 SECONDS [BUILD_DIR]" >&2
  exit 2
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
secs=$1
[[ "$secs" =~ ^[0-9]+$ ]] && [ "$secs" -gt 0 ] || { echo "$0: SECONDS must be a positive integer, got '$secs'" >&2; usage; }

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${2:-$root/build-fuzz}
mkdir -p "$build"
build=$(cd "$build" && pwd)
cc=${CC:-clang}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}

command -v "$cc" >/dev/null || { echo "$0: compiler '$cc' not found (libFuzzer needs clang)" >&2; exit 1; }
case "$("$cc" --version 2>/dev/null | head -n1)" in
  *clang*) ;;
  *) echo "$0: '$cc' is not clang; libFuzzer needs clang (set CC=clang)" >&2; exit 1 ;;
esac

# An existing build dir must be a clang fuzz build: reconfiguring a gcc build
# with another compiler would silently wipe its cache.
if [ -f "$build/CMakeCache.txt" ]; then
  cached=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
  case "$("$cached" --version 2>/dev/null | head -n1)" in
    *clang*) ;;
    *) echo "$0: $build was configured with '$cached', not clang; use another BUILD_DIR" >&2; exit 1 ;;
  esac
fi

echo "== configuring $build (VT_FUZZ=ON, $cc)"
cmake -S "$root" -B "$build" -DVT_FUZZ=ON -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$build/fuzz-configure.log" 2>&1 \
  || { cat "$build/fuzz-configure.log" >&2; echo "$0: cmake configure failed" >&2; exit 1; }

list=$build/fuzz-targets.txt
[ -f "$list" ] || { echo "$0: $list missing after configure" >&2; exit 1; }
mapfile -t targets < <(sed -n 's/^enabled //p' "$list")
while IFS= read -r line; do
  echo "== SKIP ${line}"
done < <(sed -n 's/^skipped //p' "$list")
[ ${#targets[@]} -gt 0 ] || { echo "$0: no fuzz targets enabled" >&2; exit 1; }

echo "== building ${targets[*]}"
cmake --build "$build" -j "$jobs" --target "${targets[@]}" \
  || { echo "$0: building the fuzzers failed" >&2; exit 1; }

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}

# A fixed seed by default makes a CI run reproducible (the same mutations from
# the same seeds); FUZZ_SEED=0 lets libFuzzer pick one for exploratory runs.
seed=${FUZZ_SEED:-20261122}
mkdir -p "$build/fuzz-artifacts" "$build/fuzz-logs"
failed=()
for t in "${targets[@]}"; do
  name=${t#fuzz_}
  seeds=$root/tests/fuzz/corpus/$name
  work=$build/fuzz-corpus/$name
  log=$build/fuzz-logs/$t.log
  mkdir -p "$work"
  [ -d "$seeds" ] || { echo "$0: seed corpus $seeds missing" >&2; exit 1; }
  case $name in
    decode) maxlen=256 ;;  # 64 words: plenty for the decoder, keeps runs fast
    elf) maxlen=16384 ;;   # the seed ELF plus room to grow
    gdb) maxlen=20000 ;;   # packets up to past the stub's PacketSize (16384)
    *) maxlen=4096 ;;
  esac
  extra=()
  [ -f "$root/tests/fuzz/$name.dict" ] && extra+=("-dict=$root/tests/fuzz/$name.dict")
  echo "== running $t for ${secs}s (log: $log)"
  # new inputs go to the first (work) directory; the seeds stay untouched
  set +e
  # shellcheck disable=SC2086
  "$build/tests/fuzz/$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -seed="$seed" \
    -max_len="$maxlen" -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" \
    "${extra[@]}" ${FUZZ_ARGS:-} "$work" "$seeds" >"$log" 2>&1
  rc=$?
  set -e
  if [ $rc -ne 0 ] || grep -qE 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|SUMMARY: |fuzz check failed' "$log"; then
    echo "!! $t FAILED (exit $rc); last lines of $log:" >&2
    tail -n 40 "$log" >&2
    ls "$build/fuzz-artifacts/$t-"* 2>/dev/null | sed 's/^/!! reproducer: /' >&2 || true
    failed+=("$t")
  else
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n1)
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n1 || true)
    echo "== $t ok: ${runs:-?} runs, ${cov:-cov: ?}, corpus $(ls "$work" | wc -l) files"
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "== FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "== all fuzzers passed (${targets[*]})"
