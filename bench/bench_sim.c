/* bench_sim: functional-simulator speed on a steady-state kernel (8 warps x
 * 32 threads per workgroup, 2 SMs): an inner loop of vector integer and FP
 * work with flat loads/stores, a divergent vector branch and a barrier per
 * iteration. Prints warp- and thread-instructions per second.
 * Usage: bench_sim [ITERATIONS [WORKGROUPS]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vt/asm.h"
#include "vt/elf.h"
#include "vt/sim.h"

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

int main(int argc, char **argv) {
  uint32_t iters = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 20000;
  uint32_t nwg = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 4;
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *image = NULL;
  size_t image_size = 0;
  if (!as || vt_asm_add_source(as, "bench_sim.s", kernel, sizeof kernel - 1) != 0 ||
      vt_asm_link(as, &image, &image_size) != 0) {
    fprintf(stderr, "bench_sim: assembling the kernel failed:\n%s", as ? vt_asm_errors(as) : "");
    return 1;
  }
  vt_asm_free(as);
  char msg[256];
  vt_elf *elf;
  if (vt_elf_open_mem(image, image_size, &elf, msg, sizeof msg) != 0) {
    fprintf(stderr, "bench_sim: %s\n", msg);
    return 1;
  }
  free(image);
  vt_dev_config cfg;
  vt_dev_config_default(&cfg);
  cfg.num_sms = 2;
  cfg.warp_slots = 8;
  vt_device *dev = vt_device_new(&cfg);
  vt_error err;
  uint32_t buf = 0x90000000u, knl = 0x90100000u;
  uint32_t meta[2] = {iters, buf};
  if (!dev || vt_device_load_elf(dev, elf, &err) || vt_mem_map(dev, buf, 0x100000, &err) ||
      vt_mem_map(dev, knl, 4096, &err) || vt_mem_write(dev, knl, meta, sizeof meta, &err)) {
    fprintf(stderr, "bench_sim: setup failed\n");
    return 1;
  }
  vt_launch l = {.start_pc = 0x80000000u, .num_wg = {nwg, 1, 1}, .threads_per_warp = 32,
                 .warps_per_wg = 8, .knl_addr = knl, .lds_size = 0x1000, .pds_base = buf};
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
  vt_elf_free(elf);
  return 0;
}
