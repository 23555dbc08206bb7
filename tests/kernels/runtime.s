# runtime.s - kernels for the runtime tests (tests/unit/test_runtime*.c,
# test_launch_cli.c). Link with examples/kernels/crt0.s (and vtprintf.s +
# hello.s for printf). Local ids assume crt0's CSR conventions.
    .text

# nop(): does nothing (argument packing tests read the buffer from the host)
    .globl nop
    .type nop, @function
nop:
    ret
    .size nop, . - nop

# argcopy(out, ...): out[0..63] = the first 256 bytes of the argument buffer
# (scalar code, once per warp: every warp writes the same words)
    .globl argcopy
    .type argcopy, @function
argcopy:
    lw      t0, 0(a0)
    li      t1, 0
    li      t2, 256
1:  add     t3, a0, t1
    lw      t4, 0(t3)
    add     t5, t0, t1
    sw      t4, 0(t5)
    addi    t1, t1, 4
    bltu    t1, t2, 1b
    ret
    .size argcopy, . - argcopy

# ids(out): one record of 12 words per work-item at out + 48 * (linear
# global index without offset): global id x y z, local id x y z, group
# x y z, work_dim, CSR numw, CSR numt. Lanes past the workgroup skip.
    .globl ids
    .type ids, @function
ids:
    lw      a1, 0(a0)
    csrr    t0, CSR_KNL
    lw      s1, 24(t0)               # lx
    lw      s2, 28(t0)               # ly
    lw      s3, 32(t0)               # lz
    mul     s4, s1, s2
    mul     s5, s4, s3               # work-items per group
    csrr    t1, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t1               # local linear id
    vmv.v.x v2, s5
    la      t1, 9f
    setrpc  zero, t1, 0
    vbgeu   v1, v2, 9f
    vremu.vx v3, v1, s1              # lid x
    vdivu.vx v4, v1, s1
    vremu.vx v4, v4, s2              # lid y
    vdivu.vx v5, v1, s4              # lid z
    csrr    t2, CSR_GIDX
    csrr    t3, CSR_GIDY
    csrr    t4, CSR_GIDZ
    mul     t5, t2, s1
    vadd.vx v6, v3, t5               # gx - offset x
    mul     t5, t3, s2
    vadd.vx v7, v4, t5
    mul     t5, t4, s3
    vadd.vx v8, v5, t5
    lw      s6, 12(t0)               # global size x
    lw      s7, 16(t0)               # global size y
    vmul.vx v9, v8, s7
    vadd.vv v9, v9, v7
    vmul.vx v9, v9, s6
    vadd.vv v9, v9, v6
    li      t5, 48
    vmul.vx v9, v9, t5
    vadd.vx v9, v9, a1               # record address
    lw      t5, 36(t0)
    vadd.vx v10, v6, t5
    vsw12.v v10, 0(v9)
    lw      t5, 40(t0)
    vadd.vx v10, v7, t5
    vsw12.v v10, 4(v9)
    lw      t5, 44(t0)
    vadd.vx v10, v8, t5
    vsw12.v v10, 8(v9)
    vsw12.v v3, 12(v9)
    vsw12.v v4, 16(v9)
    vsw12.v v5, 20(v9)
    vmv.v.x v10, t2
    vsw12.v v10, 24(v9)
    vmv.v.x v10, t3
    vsw12.v v10, 28(v9)
    vmv.v.x v10, t4
    vsw12.v v10, 32(v9)
    lw      t5, 8(t0)
    vmv.v.x v10, t5
    vsw12.v v10, 36(v9)
    csrr    t5, CSR_NUMW
    vmv.v.x v10, t5
    vsw12.v v10, 40(v9)
    csrr    t5, CSR_NUMT
    vmv.v.x v10, t5
    vsw12.v v10, 44(v9)
9:  join    zero, zero, 0
    ret
    .size ids, . - ids

# localptrs(out, __local a, int x, __local b): out[0] = a, out[1] = b,
# out[2] = s0 (crt0's __local base), out[3] = x; then a word written
# through a and read back through b - a + b... out[4] = *a after *a = x.
    .globl localptrs
    .type localptrs, @function
localptrs:
    lw      t0, 0(a0)
    lw      t1, 4(a0)
    lw      t2, 12(a0)
    lw      t3, 8(a0)
    sw      t1, 0(t0)
    sw      t2, 4(t0)
    sw      s0, 8(t0)
    sw      t3, 12(t0)
    sw      t3, 0(t1)
    lw      t4, 0(t1)
    sw      t4, 16(t0)
    ret
    .size localptrs, . - localptrs

# lrev(in, out, __local tmp): out[g] = in[group base + L-1-lid] through
# local memory and a barrier (1-D, L a multiple of the threads per warp)
    .globl lrev
    .type lrev, @function
lrev:
    lw      s1, 0(a0)
    lw      s2, 4(a0)
    lw      s3, 8(a0)
    csrr    t0, CSR_KNL
    lw      s4, 24(t0)               # L
    csrr    t1, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t1               # lid
    csrr    t2, CSR_GIDX
    mul     t2, t2, s4
    vadd.vx v2, v1, t2
    vsll.vi v2, v2, 2                # 4 * gid
    vadd.vx v3, v2, s1
    vlw12.v v4, 0(v3)
    vsll.vi v5, v1, 2
    vadd.vx v5, v5, s3
    vsw12.v v4, 0(v5)                # tmp[lid] = in[gid]
    barrier x0, x0, 1
    addi    t3, s4, -1
    vmv.v.x v6, t3
    vsub.vv v6, v6, v1               # L-1-lid
    vsll.vi v6, v6, 2
    vadd.vx v6, v6, s3
    vlw12.v v7, 0(v6)
    vadd.vx v8, v2, s2
    vsw12.v v7, 0(v8)
    ret
    .size lrev, . - lrev

# addone(buf): buf[gid] += 1; scale(buf, int f): buf[gid] *= f (1-D)
    .globl addone
    .type addone, @function
addone:
    li      t6, 0
    lw      s1, 0(a0)           # one argument: the memory checker flags reads past it
    j       .Lelem
    .size addone, . - addone
    .globl scale
    .type scale, @function
scale:
    li      t6, 1
    lw      s1, 0(a0)
    lw      s2, 4(a0)
.Lelem:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)
    csrr    t2, CSR_GIDX
    mul     t2, t2, t1
    csrr    t3, CSR_TID
    add     t2, t2, t3
    vid.v   v1
    vadd.vx v1, v1, t2
    vsll.vi v1, v1, 2
    vadd.vx v1, v1, s1
    vlw12.v v2, 0(v1)
    bnez    t6, 1f
    vadd.vi v2, v2, 1
    j       2f
1:  vmul.vx v2, v2, s2
2:  vsw12.v v2, 0(v1)
    ret
    .size scale, . - scale

# window(): what libclc's printf does: characters at _printf_buffer
# (0xa0024000) + _printf_pos, by warp 0 of workgroup 0 only
    .globl window
    .type window, @function
window:
    csrr    t0, CSR_WID
    csrr    t1, CSR_WGID
    or      t0, t0, t1
    bnez    t0, 2f
    la      t1, _printf_buffer
    lw      t1, 0(t1)
    la      t2, _printf_pos
    lw      t3, 0(t2)
    la      t4, .Lwintext
1:  lbu     t5, 0(t4)
    beqz    t5, 2f
    add     t6, t1, t3
    sb      t5, 0(t6)
    addi    t3, t3, 1
    sw      t3, 0(t2)
    addi    t4, t4, 1
    j       1b
2:  ret
    .size window, . - window

# trap(): loads from address 0 (unmapped)
    .globl trap
    .type trap, @function
trap:
    lw      t0, 0(zero)
    ret
    .size trap, . - trap

# ptable(table, count): one vt_vprintf call per entry of a table the host
# built: entry = {u32 n, u32 0, n bytes of record payload (format address,
# arguments)}, the next entry at the next multiple of 8. Warp 0 of
# workgroup 0 only.
    .globl ptable
    .type ptable, @function
ptable:
    csrr    t0, CSR_WID
    csrr    t1, CSR_WGID
    or      t0, t0, t1
    bnez    t0, 2f
    addi    sp, sp, 16
    sw      ra, -4(sp)
    sw      s1, -8(sp)
    sw      s2, -12(sp)
    lw      s1, 0(a0)                # table
    lw      s2, 4(a0)                # count
1:  beqz    s2, 3f
    lw      a1, 0(s1)
    addi    a0, s1, 8
    call    vt_vprintf
    lw      t0, 0(s1)
    addi    t0, t0, 15
    andi    t0, t0, -8
    add     s1, s1, t0               # next entry: 8 + round8(n)
    addi    s2, s2, -1
    j       1b
3:  lw      ra, -4(sp)
    lw      s1, -8(sp)
    lw      s2, -12(sp)
    addi    sp, sp, -16
2:  ret
    .size ptable, . - ptable

# plong(out, int x, long v): v is at argument offset 8 (a long is 8-byte
# aligned, formats-and-launch.md 4). out[0..1] = v, out[2..3] = v + 1 (64-bit
# add with carry), out[4] = x; then
# vt_printf("x=%d v=%ld v+1=%ld hex=%#lx\n", x, v, v + 1, v): the longs in
# the register pairs a2:a3, a4:a5, a6:a7. Warp 0 of workgroup 0 only.
    .globl plong
    .type plong, @function
plong:
    csrr    t0, CSR_WID
    csrr    t1, CSR_WGID
    or      t0, t0, t1
    bnez    t0, 1f
    addi    sp, sp, 16
    sw      ra, -4(sp)
    lw      t0, 0(a0)                # out
    lw      a1, 4(a0)                # x
    lw      a2, 8(a0)                # v low
    lw      a3, 12(a0)               # v high
    addi    a4, a2, 1
    sltu    t1, a4, a2               # carry
    add     a5, a3, t1
    sw      a2, 0(t0)
    sw      a3, 4(t0)
    sw      a4, 8(t0)
    sw      a5, 12(t0)
    sw      a1, 16(t0)
    mv      a6, a2
    mv      a7, a3
    la      a0, .Llongfmt
    call    vt_printf
    lw      ra, -4(sp)
    addi    sp, sp, -16
1:  ret
    .size plong, . - plong

# textrec(): appends the text record "raw text\n" (length 9) to the print
# buffer by itself, as docs/printf.md describes. Warp 0 of workgroup 0 only.
    .globl textrec
    .type textrec, @function
textrec:
    csrr    t0, CSR_WID
    csrr    t1, CSR_WGID
    or      t0, t0, t1
    bnez    t0, 1f
    la      t0, BUFFER_ADDR
    lw      t0, 0(t0)
    beqz    t0, 1f
    li      t1, 16                   # 4 + round4(9)
    amoadd.w t2, t1, (t0)
    add     t3, t0, t2
    addi    t3, t3, 8                # the record
    la      t4, .Lrawtext
    lw      t5, 0(t4)
    sw      t5, 4(t3)
    lw      t5, 4(t4)
    sw      t5, 8(t3)
    lw      t5, 8(t4)
    sw      t5, 12(t3)
    li      t5, 9
    sw      t5, 0(t3)
    csrwi   print, 1
1:  ret
    .size textrec, . - textrec

    .section .rodata
.Lwintext: .string "hello from the printf window\n"
.Llongfmt: .string "x=%d v=%ld v+1=%ld hex=%#lx\n"
    .p2align 2
.Lrawtext: .string "raw text\n"
    .zero 2
    .data
    .globl _printf_buffer
_printf_buffer: .word 0xa0024000
_printf_pos: .word 0
