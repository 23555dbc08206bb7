# sum64.s - 64-bit integer sum of 32-bit unsigned inputs (Ventus v2025
# register pairs, isa2025.md 3.1 and 3.2.3). One workgroup of L work-items;
# n is a multiple of L.
# Arguments: in (uint*), partial (ulong*, L entries), out (ulong*), n.
# Each work-item adds in[lid], in[lid + L], ... into a 64-bit pair with
# vwaddu.wv at SEW 32, which adds two pairs (the accumulator v2/v3 and the
# zero-extended input v6/v7, isa2025.md D27), stores it
# with prefix_memory width=64, and after a barrier warp 0 adds the partial
# sums with pair-prefixed 64-bit adds and stores the total.
    .text
    .globl sum64
    .type sum64, @function
sum64:
    lw      s1, 0(a0)                # in
    lw      s2, 4(a0)                # partial
    lw      s3, 8(a0)                # out
    lw      s4, 12(a0)               # n
    csrr    t0, CSR_KNL
    lw      s5, 24(t0)               # L
    csrr    t1, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t1               # lid
    vmv.v.i v2, 0
    vmv.v.i v3, 0                    # the 64-bit accumulator (pair v2/v3)
    vmv.v.i v7, 0                    # the input's high word (pair v6/v7)
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, s1               # &in[lid]
    slli    s6, s5, 2                # 4 L bytes per step
    divu    s7, s4, s5               # n / L steps
.Lstep:
    beqz    s7, .Ldone
    vlw12.v v6, 0(v4)
    vwaddu.wv v2, v2, v6             # acc += zext64(in[j])
    vadd.vx v4, v4, s6
    addi    s7, s7, -1
    j       .Lstep
.Ldone:
    vsll.vi v6, v1, 3
    vadd.vx v6, v6, s2               # &partial[lid]
    prefix_memory width=64
    vsw12.v v2, 0(v6)                # partial[lid] = v2/v3
    barrier x0, x0, 1
    csrr    t3, CSR_WID
    bnez    t3, 2f
    li      a2, 0
    li      a3, 0                    # total (pair a2/a3)
    mv      t4, s2
    mv      t5, s5
1:  prefix_memory width=64
    lw      a4, 0(t4)                # a4/a5 = partial[j]
    prefix pair=1
    add     a2, a2, a4               # 64-bit add
    addi    t4, t4, 8
    addi    t5, t5, -1
    bnez    t5, 1b
    prefix_memory width=64
    sw      a2, 0(s3)                # out = a2/a3
2:  ret
    .size sum64, . - sum64
