#!/usr/bin/env bash
# Benchmarks of the vt toolchain. Prints figures; it is not a test (exit 0
# unless the benchmark itself cannot run).
#
#   bench/run.sh [BUILD_DIR] [LINES]
#
# BUILD_DIR defaults to build (configured as Release if missing), LINES to
# 200000. Measures:
#   (a) `vt as` on a generated LINES-line assembly file (bench/gen_asm.c),
#       in lines/s against the 1 M lines/s target; GNU as on the same mix
#       (Ventus instructions as .word) is shown for reference;
#   (b) disassembler throughput in instructions/s against the 5 M insns/s
#       target: bench_disasm on random valid words and on the text of the
#       assembled ELF, and `vt objdump -d` on that ELF;
#   (c) the functional simulator on one host thread: the steady-state kernel
#       of the speed targets (bench/steady_kernel.h) and the mixed kernel,
#       with and without memory checking, and the steady-state kernel with
#       the MMU on against off (best of 3 each, target >= 70 %); (c2) the
#       steady-state kernel on 2 SMs with --host-threads 1 and 2, and the
#       speedup, with `nproc`;
#   (d) the timing model: simulated cycles per second of host time;
#   (e) fixed costs: end-to-end time, time outside the simulation per
#       launch and peak RSS of `vt launch` on a 1 M-element vecadd (non-zero
#       inputs) and of `vt run` on the six gaussian launches, then on those
#       six ten times in one process (the cost of each further launch);
#   (f) virtual memory: the walk-heavy kernel of bench/bench_mmu.c (a page
#       per lane, more pages than the TLBs hold), MMU off against on, on the
#       timing model and the functional simulator.
# Timing uses hyperfine when installed (its minimum), else the best of 5
# runs (or always, with BENCH_NO_HYPERFINE=1). Sub-commands that still print "not implemented yet" are reported as
# "not available yet".
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build}
lines=${2:-200000}
runs=5
[[ "$lines" =~ ^[0-9]+$ ]] || { echo "usage: $0 [BUILD_DIR] [LINES]" >&2; exit 2; }

if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
if grep -q '^CMAKE_BUILD_TYPE:STRING=Debug' "$build/CMakeCache.txt" ||
   grep -q '^VT_SANITIZE:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "warning: $build is a Debug or sanitizer build; figures will be pessimistic" >&2
fi
cmake --build "$build" -j "$(nproc 2>/dev/null || echo 2)" --target vt gen_asm bench_disasm bench_sim bench_timing bench_mmu >/dev/null
vt=$build/vt
work=$build/bench-work
mkdir -p "$work"

# best_time CMD...: prints the best wall time in seconds of $runs runs
best_time() {
  if [ -z "${BENCH_NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null; then
    hyperfine --style none --warmup 1 --runs "$runs" --export-csv "$work/hf.csv" -- "$(printf '%q ' "$@")" >/dev/null 2>&1
    # columns: command,mean,stddev,median,user,system,min,max
    awk -F, 'NR == 2 { printf "%.4f\n", $(NF - 1) }' "$work/hf.csv"
  else
    local best="" t0 t1 t
    for _ in $(seq "$runs"); do
      t0=$(date +%s.%N)
      "$@" >/dev/null 2>&1
      t1=$(date +%s.%N)
      t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
      if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
    done
    printf '%.4f\n' "$best"
  fi
}
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.2f", n / t / 1e6 }'; }
verdict() { awk -v r="$1" -v g="$2" 'BEGIN { print (r >= g ? "met" : "NOT met") }'; }

# available SUBCOMMAND ARGS...: 0 if the sub-command runs successfully
available() {
  local out
  if out=$("$vt" "$@" 2>&1); then return 0; fi
  if grep -q 'not implemented yet' <<<"$out"; then
    echo "not available yet"
  else
    echo "failed: $(head -n 3 <<<"$out")"
  fi
  return 1
}

echo "vt benchmarks ($(date -u +%Y-%m-%d), $(uname -m), $(nproc 2>/dev/null || echo ?) cpus," \
  "$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || echo cpu ?))"
if [ -z "${BENCH_NO_HYPERFINE:-}" ] && command -v hyperfine >/dev/null; then
  timer="hyperfine, min of $runs runs"
else
  timer="best of $runs runs (date +%s.%N)"
fi
echo "timing: $timer"
echo

"$build/bench/gen_asm" -n "$lines" >"$work/bench.s"
"$build/bench/gen_asm" -n "$lines" --gnu >"$work/bench-gnu.s"
echo "(a) assembler: $work/bench.s, $(wc -l <"$work/bench.s") lines"
printf '\t.text\n\t.globl _start\n_start:\n\taddi a0, a0, 1\n\tendprg x0, x0, x0\n' >"$work/probe.s"
elf=""
if msg=$(available as -o "$work/probe.elf" "$work/probe.s"); then
  if "$vt" as -o "$work/bench.elf" "$work/bench.s" >"$work/as.log" 2>&1; then
    t=$(best_time "$vt" as -o "$work/bench.elf" "$work/bench.s")
    r=$(rate "$lines" "$t")
    echo "  vt as            ${t}s  ${r} M lines/s   (target 1 M lines/s: $(verdict "$r" 1))"
    elf=$work/bench.elf
  else
    echo "  vt as            failed on the benchmark file:"
    head -n 5 "$work/as.log" | sed 's/^/    /'
  fi
else
  echo "  vt as            $msg"
fi
gas=${CROSS:-riscv64-unknown-elf-}
if command -v "${gas}as" >/dev/null; then
  t=$(best_time "${gas}as" -march=rv32imv_zicsr -mabi=ilp32 -o "$work/bench-gnu.o" "$work/bench-gnu.s")
  echo "  GNU as (ref.)    ${t}s  $(rate "$lines" "$t") M lines/s   (object file only, no link)"
  "${gas}as" -march=rv32imv_zicsr -mabi=ilp32 -o "$work/bench-gnu.o" "$work/bench-gnu.s"
  "${gas}ld" -m elf32lriscv -Ttext=0x80000000 --no-relax -o "$work/bench-gnu.elf" "$work/bench-gnu.o"
fi
echo

echo "(b) disassembler"
elfs=()
[ -n "$elf" ] && elfs+=("$elf")
[ -f "$work/bench-gnu.elf" ] && elfs+=("$work/bench-gnu.elf")
"$build/bench/bench_disasm" -r "$runs" "${elfs[@]}" | sed 's/  \[chk [0-9a-f]*\]//; s/^/  /'
dis_elf=${elf:-$work/bench-gnu.elf}
if [ -f "$dis_elf" ]; then
  if msg=$(available objdump -d "$dis_elf"); then
    n=$("$vt" objdump -d "$dis_elf" | grep -cE '^ *[0-9a-f]+:')
    t=$(best_time "$vt" objdump -d "$dis_elf")
    r=$(rate "$n" "$t")
    echo "  vt objdump -d    ${t}s  $n insns  ${r} M insns/s   (target 5 M insns/s: $(verdict "$r" 5))"
  else
    echo "  vt objdump -d    $msg"
  fi
  if command -v llvm-objdump >/dev/null; then
    n=$(llvm-objdump -d --mattr=+m,+v "$dis_elf" 2>/dev/null | grep -cE '^ *[0-9a-f]+:' || true)
    t=$(best_time llvm-objdump -d --mattr=+m,+v "$dis_elf")
    echo "  llvm-objdump (ref.) ${t}s  $n insns  $(rate "$n" "$t") M insns/s"
  fi
fi

echo
echo "(c) functional simulator, one host thread (target: 130 M warp-insn/s on the steady-state kernel)"
"$build/bench/bench_sim" steady | sed 's/^/  /'
"$build/bench/bench_sim" steady 200000 1 memcheck | sed 's/^/  /'
"$build/bench/bench_sim" mixed | sed 's/^/  /'
"$build/bench/bench_sim" mixed 20000 4 memcheck | sed 's/^/  /'
# best M warp-insn/s of 3 runs of bench_sim steady with option $1 (none, mmu)
best_steady() {
  local best=0 r
  for _ in 1 2 3; do
    r=$("$build/bench/bench_sim" steady 200000 1 $1 | sed -n 's/.* s: \([0-9.]*\) M warp-insn.*/\1/p')
    best=$(awk -v a="$best" -v b="${r:-0}" 'BEGIN { print (b > a ? b : a) }')
  done
  echo "$best"
}
off=$(best_steady none)
on=$(best_steady mmu)
awk -v a="$off" -v b="$on" 'BEGIN {
  r = (a > 0) ? 100 * b / a : 0; v = (r >= 70) ? "met" : "NOT met"
  printf "  steady-state kernel, best of 3: MMU off %.1f, MMU on %.1f M warp-insn/s: %.0f %% (target >= 70 %%: %s)\n", a, b, r, v }'

# host threads: the best of 3 runs of each, interleaved (the machine may be shared)
cpus=$(nproc 2>/dev/null || echo 1)
echo
echo "(c2) functional simulator on host threads ($cpus cpus): steady-state kernel, 4 workgroups on 2 SMs"
echo "     (target: >= 1.6x with 2 host threads over 1 on 2 cores)"
declare -A best_rate=()
for _ in 1 2 3; do
  for t in 1 2; do
    out=$("$build/bench/bench_sim" steady 100000 4 plain "$t")
    r=$(sed -n 's/.*: \([0-9.]*\) M warp-insn\/s.*/\1/p' <<<"$out")
    if [ -z "${best_rate[$t]:-}" ] || awk -v a="$r" -v b="${best_rate[$t]}" 'BEGIN { exit !(a > b) }'; then
      best_rate[$t]=$r
    fi
  done
done
for t in 1 2; do echo "  --host-threads $t   ${best_rate[$t]} M warp-insn/s (best of 3)"; done
sp=$(awk -v a="${best_rate[2]}" -v b="${best_rate[1]}" 'BEGIN { printf "%.2f", a / b }')
echo "  speedup ${sp}x on $cpus cpus   (target 1.6x on 2 cores: $(verdict "$sp" 1.6))"

echo
echo "(d) timing model (vt run --timing): simulated cycles per second of host time, one thread"
cases=()
if [ -d "$root/../shared/cases" ]; then
  c=$root/../shared/cases
  cases=(-c "$c/vecadd_4x16/vecadd.metadata" "$c/vecadd4x4/vecadd4x4.metadata"
         "$c/matadd/matadd.metadata" "$c/gaussian/Fan1_0.metadata")
fi
"$build/bench/bench_timing" 2000 4 "${cases[@]}" | sed 's/^/  /'

echo
echo "(e) fixed costs: end-to-end time, time outside the simulation per launch, peak RSS"
# run_e2e LABEL LAUNCHES CMD...: over $runs runs, the best wall time, the
# best (wall - simulated host seconds of that run) / launches, and the peak
# RSS (GNU time, when installed)
run_e2e() {
  local label=$1 launches=$2
  shift 2
  local best="" over="" rss="" t0 t1 t sim o
  for _ in $(seq "$runs"); do
    t0=$(date +%s.%N)
    sim=$("$@" 2>&1 >/dev/null | sed -n 's/.* \([0-9.]*\) s host.*/\1/p' | tail -n 1)
    t1=$(date +%s.%N)
    t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
    o=$(awk -v t="$t" -v s="${sim:-0}" -v n="$launches" 'BEGIN { print (t - s) / n }')
    if [ -z "$best" ] || awk -v t="$t" -v b="$best" 'BEGIN { exit !(t < b) }'; then best=$t; fi
    if [ -z "$over" ] || awk -v t="$o" -v b="$over" 'BEGIN { exit !(t < b) }'; then over=$o; fi
  done
  if [ -x /usr/bin/time ]; then
    rss=$( { /usr/bin/time -f 'RSS %M' "$@" >/dev/null; } 2>&1 | sed -n 's/^RSS //p')
  fi
  awk -v l="$label" -v t="$best" -v o="$over" -v r="$rss" 'BEGIN {
    printf "  %-28s %.4f s end to end, %.0f us per launch outside the simulation%s\n",
           l, t, o * 1e6, r != "" ? sprintf(", peak RSS %.1f MiB", r / 1024) : "" }'
  e2e_best=$best
}
"$vt" as -o "$work/vecadd.elf" "$root/examples/kernels/crt0.s" "$root/examples/kernels/vecadd.s"
# inputs that are not zeros (a buffer of zeros needs no simulated pages)
head -c 4194304 <(yes 'vt bench') >"$work/a.bin"
head -c 4194304 <(yes 'b') >"$work/b.bin"
run_e2e "vt launch vecadd 1 M" 1 "$vt" launch "$work/vecadd.elf" --kernel vecadd \
  --global 1048576 --arg in:"$work/a.bin" --arg in:"$work/b.bin" --arg out:4194304
if [ -d "$root/../shared/cases/gaussian" ]; then
  g=$root/../shared/cases/gaussian
  six=("$g/Fan1_0.metadata" "$g/Fan2_0.metadata" "$g/Fan1_1.metadata" "$g/Fan2_1.metadata"
       "$g/Fan1_2.metadata" "$g/Fan2_2.metadata")
  run_e2e "vt run gaussian (6 launches)" 6 "$vt" run "${six[@]}"
  t6=$e2e_best
  sixty=()
  for _ in $(seq 10); do sixty+=("${six[@]}"); done
  run_e2e "vt run gaussian x10 (60)" 60 "$vt" run "${sixty[@]}"
  # the cost of a launch inside one process: what 54 more launches add
  awk -v a="$t6" -v b="$e2e_best" 'BEGIN {
    printf "  %-28s %.0f us per launch in one process ((60 launches - 6) / 54)\n", "", (b - a) / 54 * 1e6 }'
else
  echo "  vt run gaussian: skipped (../shared/cases is absent)"
fi

echo
echo "(f) virtual memory: the walk-heavy kernel (bench/bench_mmu.c), MMU off against on"
"$build/bench/bench_mmu" | sed 's/^/  /'
"$build/bench/bench_mmu" 256 | sed 's/^/  /'
