# vecadd.s - C[i] = A[i] + B[i] (float), one work-item per lane.
# Arguments (argument buffer at a0): A, B, C (device addresses).
# Global id = global offset x + group x * local size x + tid + lane.
# Argument information for OpenCL (.vt.kernel_args, docs/opencl.md):
    .vt_kernel_arg vecadd, global, 4, A, "float*", const
    .vt_kernel_arg vecadd, global, 4, B, "float*", const
    .vt_kernel_arg vecadd, global, 4, C, "float*"
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
