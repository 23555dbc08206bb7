/* bench_sim: functional-simulator speed on a steady-state kernel (8 warps x
 * 32 threads per workgroup, 2 SMs): an inner loop of vector integer and FP
 * work with flat loads/stores, a divergent vector branch and a barrier per
 * iteration. Prints warp- and thread-instructions per second.
 * Usage: bench_sim [ITERATIONS [WORKGROUPS [memcheck]]] (memcheck: with
 * the memory checker on, docs/run.md) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_kernel.h"

int main(int argc, char **argv) {
  uint32_t iters = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 20000;
  uint32_t nwg = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 4;
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.sms = 2;
  cfg.warp_slots = 8;
  cfg.memcheck = argc > 3 && !strcmp(argv[3], "memcheck");
  vt_launch l;
  vt_device *dev = bench_kernel_device(&cfg, iters, nwg, &l);
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
  printf("bench_sim: %u workgroups x 8 warps x 32 threads, 2 SMs, %u iterations%s\n", nwg, iters,
         cfg.memcheck ? ", memcheck on" : "");
  printf("  %llu warp-instructions in %.3f s: %.1f M warp-insn/s, %.0f M thread-insn/s\n",
         (unsigned long long)wi, s, wi / s / 1e6, ti / s / 1e6);
  vt_device_free(dev);
  return 0;
}
