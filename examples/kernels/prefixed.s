# prefixed.s - PREFIX, PREFIXI and PREFIX_MEMORY sequences (Ventus v2025,
# isa2025.md 3.5). 1-D, one work-item per element.
# Arguments: a, b (int*), x, y, z (float*), out1 (int*), out2 (float*),
# out3 (ulong*), out4 (int*), lo, hi (the 64-bit value hi:lo).
#   out1[i] = |a[i]| - b[i]          prefix abs=2; vsub.vv (src2 = vs2 = a)
#   out2[i] = fma(-x[i], y[i], z[i]) prefix neg=2; vfmacc.vv (src2 = vs2 = x)
#   out3    = 2^32 - (hi:lo)         prefix pair=1, neg=1; add (64-bit)
#   out4[i] = a[i] - 5               prefixi neg=1; vadd.vi, stored through
#                                    prefix_memory space=global with gds = out4
    .text
    .globl prefixed
    .type prefixed, @function
prefixed:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)
    csrr    t2, CSR_GIDX
    mul     t2, t2, t1
    csrr    t3, CSR_TID
    add     t2, t2, t3
    vid.v   v1
    vadd.vx v1, v1, t2
    vsll.vi v2, v1, 2                # 4 gid
    lw      t4, 0(a0)
    vadd.vx v10, v2, t4
    vlw12.v v3, 0(v10)               # a[i]
    lw      t4, 4(a0)
    vadd.vx v10, v2, t4
    vlw12.v v4, 0(v10)               # b[i]
    prefix abs=2
    vsub.vv v5, v3, v4
    lw      t4, 20(a0)
    vadd.vx v10, v2, t4
    vsw12.v v5, 0(v10)               # out1
    lw      t4, 8(a0)
    vadd.vx v10, v2, t4
    vlw12.v v6, 0(v10)               # x[i]
    lw      t4, 12(a0)
    vadd.vx v10, v2, t4
    vlw12.v v7, 0(v10)               # y[i]
    lw      t4, 16(a0)
    vadd.vx v10, v2, t4
    vlw12.v v8, 0(v10)               # z[i]
    prefix neg=2
    vfmacc.vv v8, v7, v6             # z + y * (-x)
    lw      t4, 24(a0)
    vadd.vx v10, v2, t4
    vsw12.v v8, 0(v10)               # out2
    lw      a4, 36(a0)               # lo
    lw      a5, 40(a0)               # hi
    li      a2, 0
    li      a3, 1                    # a2/a3 = 2^32
    prefix pair=1, neg=1
    add     a2, a4, a2               # -(hi:lo) + 2^32
    lw      t4, 28(a0)
    prefix_memory width=64
    sw      a2, 0(t4)                # out3 (every warp stores the same value)
    prefixi neg=1
    vadd.vi v9, v3, 5                # -5 + a[i]
    lw      t4, 32(a0)
    csrw    gds, t4
    prefix_memory space=global
    vsw12.v v9, 0(v2)                # out4[i] at gds + 4 gid
    ret
    .size prefixed, . - prefixed
