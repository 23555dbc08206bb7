/* bench_sim: functional-simulator speed, one host thread unless told.
 *   bench_sim steady [ITERATIONS [WORKGROUPS [OPTIONS [HOST_THREADS]]]]
 *     the steady-state kernel of the speed targets (steady_kernel.h):
 *     workgroups of 8 warps x 32 threads on 2 SMs, 15 warp instructions
 *     per iteration, results checked against the host (default 200000
 *     iterations, 1 workgroup);
 *   bench_sim mixed [ITERATIONS [WORKGROUPS [OPTIONS [HOST_THREADS]]]]
 *     the older mixed kernel (bench_kernel.h: FP, flat memory, barrier;
 *     default 20000 iterations, 4 workgroups).
 * OPTIONS: plain, memcheck, mmu or memcheck,mmu. memcheck: with the memory
 * checker on (docs/run.md); mmu: with Sv39 translation (docs/memory.md:
 * code and buffers at the same virtual addresses, backed by other physical
 * pages). HOST_THREADS: the setting host_threads (default 1). Prints warp-
 * and thread-instructions per second. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_kernel.h"
#include "steady_kernel.h"

int main(int argc, char **argv) {
  bool steady = argc < 2 || strcmp(argv[1], "mixed") != 0;
  uint32_t iters = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : steady ? 200000 : 20000;
  uint32_t nwg = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 0) : steady ? 1 : 4;
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.sms = 2;
  cfg.warp_slots = 8;
  cfg.memcheck = argc > 4 && strstr(argv[4], "memcheck");
  cfg.mmu = argc > 4 && strstr(argv[4], "mmu");
  cfg.host_threads = argc > 5 ? (uint32_t)strtoul(argv[5], NULL, 0) : 1;
  vt_launch l;
  vt_device *dev = steady ? steady_device(&cfg, iters, nwg, &l)
                          : bench_kernel_device(&cfg, iters, nwg, &l);
  if (!dev) return 1;
  vt_error err;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (vt_device_run(dev, &l, NULL, &err) != VT_OK) {
    fprintf(stderr, "bench_sim: %s\n", err.message);
    return 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  const vt_stats *st = vt_device_stats(dev);
  double wi = vt_stats_value(st, -1, -1, VT_C_warp_instructions);
  double ti = vt_stats_value(st, -1, -1, VT_C_thread_instructions);
  long wrong = steady ? steady_check(dev, iters, nwg) : 0;
  printf("bench_sim %s: %u workgroup(s) x 8 warps x 32 threads, 2 SMs, %u iterations, "
         "%u host thread(s)%s%s\n",
         steady ? "steady" : "mixed", nwg, iters, cfg.host_threads,
         cfg.memcheck ? ", memcheck on" : "", cfg.mmu ? ", MMU on" : "");
  printf("  %llu warp-instructions in %.3f s: %.1f M warp-insn/s, %.0f M thread-insn/s%s\n",
         (unsigned long long)wi, s, wi / s / 1e6, ti / s / 1e6,
         !steady ? "" : wrong ? "  RESULTS WRONG" : "  (results checked)");
  vt_device_free(dev);
  return wrong ? 1 : 0;
}
