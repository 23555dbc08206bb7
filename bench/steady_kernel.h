/* steady_kernel.h - the steady-state kernel of the speed targets (issue
 * 14): workgroups of 8 warps x 32 threads; per iteration 15 warp
 * instructions: vle32.v, setrpc, a divergent vblt (lanes split
 * inside every warp), the then-path vadd.vv/vmul.vv/j, the else-path
 * vsub.vv/j, join (executed twice), vadd.vv, vse32.v, addi, bnez. Each lane i of the
 * launch (i over every workgroup) computes, from x = A[i] = (37 i) mod 256
 * and y = 0, `for (n) { y = x < 128 ? (y + x) * 3 : y - x; y += 1; }` in
 * 32-bit arithmetic and stores y to B[i] every iteration;
 * steady_expected() computes the same on the host. */
#ifndef VT_BENCH_STEADY_KERNEL_H
#define VT_BENCH_STEADY_KERNEL_H
#include <stdio.h>
#include <stdlib.h>

#include "bench_kernel.h"

#define STEADY_LANES_PER_WG 256u
#define STEADY_A 0x90000000u
#define STEADY_B 0x90100000u
#define STEADY_KNL 0x90200000u

static const char steady_kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    li t4, 32\n"
    "    vsetvli t4, t4, e32, m1, ta, ma\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a1, 0(t0)            # iterations\n"
    "    csrr t1, CSR_TID        # first lane of this warp in the workgroup\n"
    "    csrr t2, CSR_WGID\n"
    "    slli t2, t2, 8\n"
    "    add t1, t1, t2          # first lane of this warp in the launch\n"
    "    slli t1, t1, 2\n"
    "    lw a3, 4(t0)\n"
    "    add a3, a3, t1          # &A[first lane]\n"
    "    lw a4, 8(t0)\n"
    "    add a4, a4, t1          # &B[first lane]\n"
    "    vmv.v.i v3, 0           # y\n"
    "    li t3, 128\n"
    "    vmv.v.x v8, t3\n"
    "    vmv.v.i v10, 1\n"
    "    li t5, 3\n"
    "    la t6, .Lend            # the re-convergence point\n"
    "1:  vle32.v v5, (a3)        # x\n"
    "    setrpc zero, t6, 0\n"
    "    vblt v5, v8, .Lthen     # x < 128\n"
    "    vsub.vv v3, v3, v5      # else\n"
    "    j .Lend\n"
    ".Lthen:\n"
    "    vadd.vv v3, v3, v5\n"
    "    vmul.vx v3, v3, t5\n"
    "    j .Lend\n"
    ".Lend:\n"
    "    join zero, zero, 0\n"
    "    vadd.vv v3, v3, v10\n"
    "    vse32.v v3, (a4)\n"
    "    addi a1, a1, -1\n"
    "    bnez a1, 1b\n"
    "    endprg x0, x0, x0\n";

/* y of lane i after n iterations */
static inline uint32_t steady_expected(uint32_t i, uint32_t n) {
  uint32_t x = (37u * i) & 255u, y = 0;
  for (uint32_t k = 0; k < n; k++) {
    y = x < 128 ? (y + x) * 3u : y - x;
    y += 1;
  }
  return y;
}

/* A device with the kernel loaded, A filled, B zeroed, and the launch of
 * nwg workgroups; NULL on failure (message on stderr). */
static inline vt_device *steady_device(const vt_settings *cfg, uint32_t iters, uint32_t nwg,
                                       vt_launch *l) {
  vt_elf *elf = bench_assemble("steady.s", steady_kernel, sizeof steady_kernel - 1);
  if (!elf) return NULL;
  uint32_t lanes = nwg * STEADY_LANES_PER_WG;
  uint32_t *a = malloc(4u * lanes);
  vt_device *dev = a ? vt_device_new(cfg) : NULL;
  vt_error err;
  uint32_t meta[3] = {iters, STEADY_A, STEADY_B};
  for (uint32_t i = 0; a && i < lanes; i++) a[i] = (37u * i) & 255u;
  int bad = !dev || vt_device_load_elf(dev, elf, &err) ||
            vt_mem_map(dev, STEADY_A, 4u * lanes, &err) || vt_mem_map(dev, STEADY_B, 4u * lanes, &err) ||
            vt_mem_map(dev, STEADY_KNL, 4096, &err) ||
            vt_mem_write(dev, STEADY_A, a, 4u * lanes, &err) ||
            vt_mem_write(dev, STEADY_KNL, meta, sizeof meta, &err) ||
            vt_mem_label(dev, STEADY_A, 4u * lanes, "A", &err) ||
            vt_mem_label(dev, STEADY_B, 4u * lanes, "B", &err) ||
            vt_mem_label(dev, STEADY_KNL, sizeof meta, "the metadata", &err);
  free(a);
  vt_elf_free(elf);
  if (bad) {
    fprintf(stderr, "bench: setup failed\n");
    vt_device_free(dev);
    return NULL;
  }
  vt_launch lw = {.start_pc = 0x80000000u, .num_wg = {nwg, 1, 1}, .threads_per_warp = 32,
                  .warps_per_wg = 8, .knl_addr = STEADY_KNL, .lds_size = 0x1000};
  *l = lw;
  return dev;
}

/* the number of lanes whose B differs from steady_expected (-1: unreadable) */
static inline long steady_check(vt_device *dev, uint32_t iters, uint32_t nwg) {
  uint32_t lanes = nwg * STEADY_LANES_PER_WG;
  uint32_t *b = malloc(4u * lanes);
  vt_error err;
  if (!b || vt_mem_read(dev, STEADY_B, b, 4u * lanes, &err) != VT_OK) {
    free(b);
    return -1;
  }
  long wrong = 0;
  for (uint32_t i = 0; i < lanes; i++) wrong += b[i] != steady_expected(i, iters);
  free(b);
  return wrong;
}
#endif
