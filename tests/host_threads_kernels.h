/* Kernels shared by the host-thread tests with the MMU off
 * (test_host_threads.c) and on (test_mmu_host_threads.c). */
#ifndef VT_TEST_HOST_THREADS_KERNELS_H
#define VT_TEST_HOST_THREADS_KERNELS_H

static const char ht_vector_holes_kernel[] =
    "  .globl _start\n"
    "_start:\n"
    "  li t0, 4\n"
    "  vsetvli t0, t0, e32, m1, ta, ma\n"
    "  csrr t1, CSR_WGID\n"
    "  andi t3, t1, 1\n"
    "  srli t4, t1, 1\n"
    "  slli a2, t4, 2\n"
    "  slli t4, t4, 4\n"
    "  lui a1, 0x90000\n"
    "  add a1, a1, t4\n"
    "  vid.v v1\n"
    "  vand.vi v5, v1, 1\n"
    "  vmv.v.x v4, t3\n"
    "  addi a2, a2, 100\n"
    "  vadd.vx v2, v1, a2\n"
    "  la t6, 2f\n"
    "  setrpc zero, t6, 0\n"
    "  vbne v5, v4, 1f\n"
    "  vse32.v v2, (a1)\n"
    "  vse32.v v2, (a1)\n"
    "  j 2f\n"
    "1:\n"
    "  j 2f\n"
    "2:\n"
    "  join zero, zero, 0\n"
    "  endprg x0, x0, x0\n";

static const char ht_lrsc_kernel[] =
    "  .globl _start\n"
    "_start:\n"
    "  lui a1, 0x90000\n"
    "  csrr t0, CSR_WID\n"
    "  addi t0, t0, 1\n"
    "1:\n"
    "  lr.w t1, (a1)\n"
    "  add t1, t1, t0\n"
    "  sc.w t2, t1, (a1)\n"
    "  bnez t2, 1b\n"
    "  li t3, 1\n"
    "  addi t4, a1, 4\n"
    "  amoadd.w zero, t3, (t4)\n"
    "  endprg x0, x0, x0\n";
#endif
