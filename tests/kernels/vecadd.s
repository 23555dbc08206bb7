# vecadd(float *A, float *B, float *C): C[i] = A[i] + B[i], i = global id.
# One work-item per lane, no bounds test (global size = number of elements),
# so no vector branch at all.
    .text
    .globl vecadd
    .type vecadd, @function
vecadd:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)               # local size x
    lw      t2, 36(t0)               # global offset x
    csrr    t3, CSR_GIDX
    mul     t3, t3, t1
    add     t3, t3, t2
    csrr    t4, CSR_TID
    add     t3, t3, t4
    vid.v   v1
    vadd.vx v1, v1, t3               # v1 = global id
    vsll.vi v1, v1, 2                # byte offset
    lw      t5, 0(a0)                # A
    vadd.vx v2, v1, t5
    vlw12.v v2, 0(v2)
    lw      t5, 4(a0)                # B
    vadd.vx v3, v1, t5
    vlw12.v v3, 0(v3)
    vfadd.vv v2, v2, v3
    lw      t5, 8(a0)                # C
    vadd.vx v4, v1, t5
    vsw12.v v2, 0(v4)
    ret
    .size vecadd, . - vecadd
