# reduce(float *IN, float *OUT): OUT[group] = sum of the group's IN elements,
# a tree in local memory: S[lid] = IN[gid]; barrier; for (stride = L/2;
# stride > 0; stride >>= 1) { if (lid < stride) S[lid] += S[lid + stride];
# barrier; } if (lid == 0) OUT[group] = S[0]. L = local size x (a power of
# two). The ifs are divergent vector branches (setrpc + vbranch + join).
    .text
    .globl reduce
    .type reduce, @function
reduce:
    csrr    t0, CSR_KNL
    lw      a1, 24(t0)               # L
    lw      a2, 0(a0)                # IN
    lw      a3, 4(a0)                # OUT
    csrr    t1, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t1               # lid
    csrr    t2, CSR_GIDX
    mul     t3, t2, a1
    vadd.vx v2, v1, t3               # gid
    vsll.vi v2, v2, 2
    vadd.vx v2, v2, a2
    vlw12.v v3, 0(v2)                # IN[gid]
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, s0               # &S[lid]
    vsw12.v v3, 0(v4)
    barrier x0, x0, 1
    srli    t4, a1, 1                # stride
    beqz    t4, .Ldone
.Lstep:
    vmv.v.x v5, t4
.Lpc0:
    auipc   t1, 0
    setrpc  zero, t1, .Lj0 - .Lpc0
    vbgeu   v1, v5, .Lj0             # lanes with lid >= stride skip
    slli    t5, t4, 2
    vlw12.v v6, 0(v4)                # S[lid]
    vadd.vx v7, v4, t5
    vlw12.v v7, 0(v7)                # S[lid + stride]
    vfadd.vv v6, v6, v7
    vsw12.v v6, 0(v4)
.Lj0:
    join    zero, zero, 0
    barrier x0, x0, 1
    srli    t4, t4, 1
    bnez    t4, .Lstep
.Ldone:
    vmv.v.x v9, zero
.Lpc1:
    auipc   t1, 0
    setrpc  zero, t1, .Lj1 - .Lpc1
    vbne    v1, v9, .Lj1             # lid != 0 skips
    vlw12.v v6, 0(v4)                # S[0]
    slli    t5, t2, 2
    add     t5, t5, a3
    vmv.v.x v8, t5
    vsw12.v v6, 0(v8)                # OUT[group]
.Lj1:
    join    zero, zero, 0
    ret
    .size reduce, . - reduce
