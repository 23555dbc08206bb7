# hello.s - printf example: out[i] = gid * gid for every work-item; warp 0
# of each workgroup prints a header line, then every warp prints one line per
# lane through vt_printf (vtprintf.s), reading its lanes' results back.
# Arguments (argument buffer at a0): out (int *). 1-D; the local size must be
# a multiple of the threads per warp.
# Argument information for OpenCL (.vt.kernel_args, docs/opencl.md):
    .vt_kernel_arg hello, global, 4, out, "int*"
    .text
    .globl hello
    .type hello, @function
hello:
    addi    sp, sp, 32
    sw      ra, -4(sp)
    sw      s1, -8(sp)
    sw      s2, -12(sp)
    sw      s3, -16(sp)
    sw      s4, -20(sp)
    sw      s5, -24(sp)
    sw      s6, -28(sp)
    lw      s1, 0(a0)                # out
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)               # local size x
    lw      s6, 36(t0)               # global offset x
    csrr    s2, CSR_GIDX
    mul     t3, s2, t1
    csrr    t4, CSR_TID
    add     s3, t3, t4               # index (global id - offset) of lane 0
    vid.v   v1
    vadd.vx v1, v1, s3
    vadd.vx v2, v1, s6               # global id
    vmul.vv v3, v2, v2
    vsll.vi v1, v1, 2
    vadd.vx v1, v1, s1
    vsw12.v v3, 0(v1)                # out[index] = gid * gid
    csrr    t5, CSR_WID
    bnez    t5, 1f
    la      a0, .Lhead
    addi    a1, s2, 'A'
    mv      a2, s2
    csrr    a3, CSR_NUMW
    csrr    a4, CSR_NUMT
    call    vt_printf
1:  csrr    s4, CSR_NUMT
    li      s5, 0
2:  bgeu    s5, s4, 3f
    add     t1, s3, s5
    add     a1, t1, s6               # gid
    slli    t1, t1, 2
    add     t1, t1, s1
    lw      a2, 0(t1)                # out[index], written by this lane above
    mv      a3, a2
    la      a4, .Leven
    andi    t2, a1, 1
    beqz    t2, 4f
    la      a4, .Lodd
4:  neg     a5, a1
    csrr    a6, CSR_WID
    la      a0, .Lline
    call    vt_printf
    addi    s5, s5, 1
    j       2b
3:  lw      ra, -4(sp)
    lw      s1, -8(sp)
    lw      s2, -12(sp)
    lw      s3, -16(sp)
    lw      s4, -20(sp)
    lw      s5, -24(sp)
    lw      s6, -28(sp)
    addi    sp, sp, -32
    ret
    .size hello, . - hello

    .section .rodata
.Lhead: .string "[%c] workgroup %d: %d warp(s) x %d threads, 100%% ready\n"
.Lline: .string "gid %d: square %u = 0x%x (%s), negated %d, warp %d\n"
.Leven: .string "even"
.Lodd:  .string "odd"
