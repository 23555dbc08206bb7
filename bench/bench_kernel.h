/* bench_kernel.h - the steady-state benchmark kernel shared by bench_sim
 * and bench_timing: per iteration a flat vector load and store, integer and
 * FP vector ALU work, a divergent vector branch with setrpc/join, a barrier
 * and a scalar loop branch. bench_kernel_device assembles it and returns a
 * device with the kernel loaded and its buffers mapped, and the launch (8
 * warps x 32 threads per workgroup). */
#ifndef VT_BENCH_KERNEL_H
#define VT_BENCH_KERNEL_H
#include <stdio.h>
#include <stdlib.h>

#include "bench_asm.h"
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


/* NULL on failure (message on stderr). */
static inline vt_device *bench_kernel_device(const vt_settings *cfg, uint32_t iters, uint32_t nwg,
                                             vt_launch *l) {
  vt_elf *elf = bench_assemble("bench.s", kernel, sizeof kernel - 1);
  if (!elf) return NULL;
  vt_device *dev = vt_device_new(cfg);
  vt_error err;
  uint32_t buf = 0x90000000u, knl = 0x90100000u;
  uint32_t meta[2] = {iters, buf};
  if (!dev || vt_device_load_elf(dev, elf, &err) || vt_mem_map(dev, buf, 0x100000, &err) ||
      vt_mem_map(dev, knl, 4096, &err) || vt_mem_write(dev, knl, meta, sizeof meta, &err) ||
      vt_mem_label(dev, buf, 0x100000, "the data buffer", &err) ||
      vt_mem_label(dev, knl, sizeof meta, "the metadata", &err)) {
    fprintf(stderr, "bench: setup failed\n");
    vt_device_free(dev);
    vt_elf_free(elf);
    return NULL;
  }
  vt_elf_free(elf);
  vt_launch lw = {.start_pc = 0x80000000u, .num_wg = {nwg, 1, 1}, .threads_per_warp = 32,
                  .warps_per_wg = 8, .knl_addr = knl, .lds_size = 0x1000, .pds_base = buf};
  *l = lw;
  return dev;
}
#endif
