/* bench_timing: speed of the timing model in simulated cycles per second of
 * host time (one thread): the steady-state kernel of bench_sim (8 warps x 32
 * threads per workgroup, 2 SMs) and, when given, official test vectors
 * (each NAME.metadata run as one launch, repeated).
 * Usage: bench_timing [-p PRESET] [ITERATIONS [WORKGROUPS]] [-c A.metadata ...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vt/asm.h"
#include "vt/elf.h"
#include "vt/sim.h"
#include "vt/testvec.h"
#include "vt/timing.h"

static const char kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    li t4, 32\n"
    "    vsetvli t4, t4, e32, m1, ta, ma\n"
    "    li t4, 0x2000\n"
    "    csrs mstatus, t4\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a1, 0(t0)            # iterations\n"
    "    lw a2, 4(t0)            # buffer\n"
    "    csrr t1, CSR_TID\n"
    "    csrr t2, CSR_WGID\n"
    "    slli t2, t2, 8\n"
    "    add t1, t1, t2\n"
    "    vid.v v1\n"
    "    vadd.vx v1, v1, t1\n"
    "    vsll.vi v2, v1, 2\n"
    "    vadd.vx v2, v2, a2      # per-lane address\n"
    "    vmv.v.i v3, 0\n"
    "    li t3, 0x3f800000\n"
    "    vmv.v.x v4, t3          # 1.0f\n"
    "    vmv.v.x v7, t3\n"
    "    li t5, 1\n"
    "1:  vlw12.v v5, 0(v2)\n"
    "    vadd.vv v3, v3, v5\n"
    "    vxor.vv v6, v3, v1\n"
    "    vand.vi v6, v6, 1\n"
    "    vmul.vx v5, v5, t5\n"
    "    vfmul.vv v7, v7, v4\n"
    "    vfadd.vv v7, v7, v4\n"
    "    auipc t6, 0\n"
    "    setrpc zero, t6, 20\n"
    "    vbeq v6, v0, 2f\n"
    "    vadd.vi v3, v3, 3\n"
    "2:  join zero, zero, 0\n"
    "    vsw12.v v3, 0(v2)\n"
    "    barrier x0, x0, 1\n"
    "    addi a1, a1, -1\n"
    "    bnez a1, 1b\n"
    "    endprg x0, x0, x0\n";

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int bench_kernel(const char *preset, uint32_t iters, uint32_t nwg) {
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *image = NULL;
  size_t image_size = 0;
  if (!as || vt_asm_add_source(as, "bench.s", kernel, sizeof kernel - 1) != 0 ||
      vt_asm_link(as, &image, &image_size) != 0) {
    fprintf(stderr, "bench_timing: assembling failed\n");
    return 1;
  }
  vt_asm_free(as);
  char msg[256];
  vt_elf *elf;
  if (vt_elf_open_mem(image, image_size, &elf, msg, sizeof msg) != 0) return 1;
  free(image);
  vt_dev_config cfg;
  vt_dev_config_default(&cfg);
  vt_device *dev = vt_device_new(&cfg);
  vt_error err;
  uint32_t buf = 0x90000000u, knl = 0x90100000u;
  uint32_t meta[2] = {iters, buf};
  if (!dev || vt_device_load_elf(dev, elf, &err) || vt_mem_map(dev, buf, 0x100000, &err) ||
      vt_mem_map(dev, knl, 4096, &err) || vt_mem_write(dev, knl, meta, sizeof meta, &err))
    return 1;
  vt_elf_free(elf);
  vt_launch l = {.start_pc = 0x80000000u, .num_wg = {nwg, 1, 1}, .threads_per_warp = 32,
                 .warps_per_wg = 8, .knl_addr = knl, .lds_size = 0x1000, .pds_base = buf};
  vt_timing_config tc;
  vt_timing_config_preset(&tc, preset);
  vt_timing *t = vt_timing_new(&tc);
  double t0 = now_s();
  if (vt_timing_run(t, dev, &l, "bench", &err) != VT_OK) {
    fprintf(stderr, "bench_timing: %s\n", err.message);
    return 1;
  }
  double s = now_s() - t0;
  uint64_t cyc = vt_timing_cycles(t);
  double wi = vt_timing_counter_value(t, -1, -1, VT_TC_insns_x) +
              vt_timing_counter_value(t, -1, -1, VT_TC_insns_v);
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
    vt_timing_config tc;
    vt_timing_config_preset(&tc, preset);
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
