# vop64.s - VOP64 on fp16 halves and int8 bytes of 32-bit lanes (Ventus
# v2025, isa2025.md 3.8). 1-D, one work-item per element.
# Arguments: a, b (uint*), out1, out2, out3 (uint*), s (uint).
#   out1[i]: a[i] with its low half replaced by 2 * (high half of a[i]) *
#            (low half of b[i]) in binary16, one rounding (e16, opsel=2,
#            omod=1)
#   out2[i]: a[i] with byte 2 replaced by byte 2 of a[i] - |byte 0 of b[i]|
#            (e8, opsel=6, abs=1)
#   out3[i]: a[i] with byte 0 replaced by max(byte 0 of a[i], -(byte 0 of
#            s)), signed (e8, .vx, neg=1)
    .text
    .globl vop64
    .type vop64, @function
vop64:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)
    csrr    t2, CSR_GIDX
    mul     t2, t2, t1
    csrr    t3, CSR_TID
    add     t2, t2, t3
    vid.v   v1
    vadd.vx v1, v1, t2
    vsll.vi v2, v1, 2
    lw      t4, 0(a0)
    vadd.vx v10, v2, t4
    vlw12.v v3, 0(v10)               # a[i]
    lw      t4, 4(a0)
    vadd.vx v10, v2, t4
    vlw12.v v4, 0(v10)               # b[i]
    vadd.vi v5, v3, 0
    vadd.vi v6, v3, 0
    vadd.vi v7, v3, 0
    lw      s1, 20(a0)               # s
    vsetvli t0, zero, e16, m1, ta, ma
    vop64.vfmul.vv v5, v3, v4, opsel=2, omod=1
    vsetvli t0, zero, e8, m1, ta, ma
    vop64.vsub.vv v6, v3, v4, abs=1, opsel=6
    vop64.vmax.vx v7, v3, s1, neg=1
    vsetvli t0, zero, e32, m1, ta, ma
    lw      t4, 8(a0)
    vadd.vx v10, v2, t4
    vsw12.v v5, 0(v10)
    lw      t4, 12(a0)
    vadd.vx v10, v2, t4
    vsw12.v v6, 0(v10)
    lw      t4, 16(a0)
    vadd.vx v10, v2, t4
    vsw12.v v7, 0(v10)
    ret
    .size vop64, . - vop64
