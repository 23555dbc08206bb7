/* bench_sim: functional-simulator speed on a steady-state kernel (8 warps x
 * 32 threads per workgroup, 2 SMs): an inner loop of vector integer and FP
 * work with flat loads/stores, a divergent vector branch and a barrier per
 * iteration. Prints warp- and thread-instructions per second.
 * Usage: bench_sim [ITERATIONS [WORKGROUPS]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_kernel.h"

int main(int argc, char **argv) {
  uint32_t iters = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 20000;
  uint32_t nwg = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 4;
  vt_dev_config cfg;
  vt_dev_config_default(&cfg);
  cfg.num_sms = 2;
  cfg.warp_slots = 8;
  vt_launch l;
  vt_device *dev = bench_kernel_device(&cfg, iters, nwg, &l);
  if (!dev) return 1;
  vt_error err;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  if (vt_device_run(dev, &l, &err) != VT_OK) {
    fprintf(stderr, "bench_sim: %s\n", err.message);
    return 1;
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
  vt_run_stats st;
  vt_device_stats(dev, &st);
  printf("bench_sim: %u workgroups x 8 warps x 32 threads, 2 SMs, %u iterations\n", nwg, iters);
  printf("  %llu warp-instructions in %.3f s: %.1f M warp-insn/s, %.0f M thread-insn/s\n",
         (unsigned long long)st.warp_insns, s, (double)st.warp_insns / s / 1e6,
         (double)st.thread_insns / s / 1e6);
  vt_device_free(dev);
  return 0;
}
