/* bench_timing: speed of the timing model in simulated cycles per second of
 * host time (one thread): the steady-state kernel of bench_sim (8 warps x 32
 * threads per workgroup, 2 SMs) and, when given, official test vectors
 * (each NAME.metadata run as one launch, repeated).
 * Usage: bench_timing [-p PRESET] [ITERATIONS [WORKGROUPS]] [-c A.metadata ...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "counters_util.h"
#include "bench_kernel.h"
#include "vt/testvec.h"
#include "vt/timing.h"

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int bench_kernel(const char *preset, uint32_t iters, uint32_t nwg) {
  vt_settings cfg;
  vt_settings_default(&cfg);
  vt_launch l;
  vt_device *dev = bench_kernel_device(&cfg, iters, nwg, &l);
  if (!dev) return 1;
  vt_error err;
  vt_settings tc;
  vt_test_settings_preset(&tc, preset);
  vt_timing *t = vt_timing_new(&tc);
  double t0 = now_s();
  if (vt_timing_run(t, dev, &l, "bench", &err) != VT_OK) {
    fprintf(stderr, "bench_timing: %s\n", err.message);
    return 1;
  }
  double s = now_s() - t0;
  uint64_t cyc = vt_timing_cycles(t);
  double wi = vt_stats_value(vt_device_stats(dev), -1, -1, VT_C_insns_x) +
              vt_stats_value(vt_device_stats(dev), -1, -1, VT_C_insns_v);
  printf("steady-state kernel (%u WGs x 8 warps x 32 threads, 2 SMs, %u iterations, %s):\n"
         "  %llu cycles, %.0f warp-insns (IPC %.2f) in %.3f s: %.2f M cycles/s, %.2f M warp-insn/s\n",
         nwg, iters, preset, (unsigned long long)cyc, wi, wi / (double)cyc, s,
         (double)cyc / s / 1e6, wi / s / 1e6);
  vt_timing_free(t);
  vt_device_free(dev);
  return 0;
}

static int bench_case(const char *preset, const char *path, unsigned reps) {
  double total_s = 0;
  uint64_t total_c = 0;
  for (unsigned r = 0; r < reps; r++) {
    vt_device *dev = vt_device_new(NULL);
    vt_settings tc;
    vt_test_settings_preset(&tc, preset);
    vt_timing *t = vt_timing_new(&tc);
    vt_testvec *tv = NULL;
    vt_launch l;
    vt_error err;
    if (vt_testvec_load(path, NULL, &tv, &err) || vt_testvec_apply(dev, tv, &l, &err)) {
      fprintf(stderr, "bench_timing: %s: %s\n", path, err.message);
      return 1;
    }
    double t0 = now_s();
    if (vt_timing_run(t, dev, &l, path, &err) != VT_OK) {
      fprintf(stderr, "bench_timing: %s: %s\n", path, err.message);
      return 1;
    }
    total_s += now_s() - t0;
    total_c += vt_timing_cycles(t);
    vt_testvec_free(tv);
    vt_timing_free(t);
    vt_device_free(dev);
  }
  const char *b = strrchr(path, '/');
  printf("  %-28s %7llu cycles x %u: %.2f M cycles/s\n", b ? b + 1 : path,
         (unsigned long long)(total_c / reps), reps, (double)total_c / total_s / 1e6);
  return 0;
}

int main(int argc, char **argv) {
  const char *preset = "ventus-2025";
  uint32_t num[2] = {2000, 4};
  unsigned nn = 0;
  int i = 1;
  for (; i < argc; i++) {
    if (!strcmp(argv[i], "-p") && i + 1 < argc)
      preset = argv[++i];
    else if (!strcmp(argv[i], "-c"))
      break;
    else if (nn < 2)
      num[nn++] = (uint32_t)strtoul(argv[i], NULL, 0);
  }
  if (bench_kernel(preset, num[0], num[1])) return 1;
  if (i < argc) {
    printf("official cases (%s, each launch alone, best-effort host timing):\n", preset);
    for (i++; i < argc; i++)
      if (bench_case(preset, argv[i], 200)) return 1;
  }
  return 0;
}
