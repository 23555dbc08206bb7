# saxpy(float a, float *X, float *Y, float *Z):
#   Y[i] = a * X[i] + Y[i]          (vfmul.vf then vfadd.vv: two roundings)
#   Z[i] = fma(a, X[i], Z[i])       (vfmacc.vf: one rounding)
# i = global id; the scalar a is a Zfinx x register (.vf operand).
    .text
    .globl saxpy
    .type saxpy, @function
saxpy:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)               # local size x
    csrr    t3, CSR_GIDX
    mul     t3, t3, t1
    csrr    t4, CSR_TID
    add     t3, t3, t4
    vid.v   v1
    vadd.vx v1, v1, t3               # global id
    vsll.vi v1, v1, 2
    lw      a1, 0(a0)                # a (float bits)
    lw      t5, 4(a0)                # X
    vadd.vx v2, v1, t5
    vlw12.v v2, 0(v2)                # x
    lw      t5, 8(a0)                # Y
    vadd.vx v3, v1, t5
    vlw12.v v4, 0(v3)                # y
    vfmul.vf v5, v2, a1              # a * x
    vfadd.vv v5, v5, v4              # + y
    vsw12.v v5, 0(v3)
    lw      t5, 12(a0)               # Z
    vadd.vx v6, v1, t5
    vlw12.v v7, 0(v6)
    vfmacc.vf v7, a1, v2             # z += a * x (fused)
    vsw12.v v7, 0(v6)
    ret
    .size saxpy, . - saxpy
