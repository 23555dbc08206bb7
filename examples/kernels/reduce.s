# reduce.s - sum reduction with barriers: partial[group] = sum of the
# group's in[] elements (int, wrapping). 1-D; the local size L is a power of
# two and a multiple of the threads per warp.
# Arguments: in, partial (global int *), scratch (__local int *, 2*L ints).
# Tree in local memory, branch-free: at step s every work-item reads
# scratch[lid] and scratch[lid + s], all warps meet at a barrier, then each
# writes the sum to scratch[lid] and all meet again. Slots >= s are never
# read again, so the extra writes are harmless, and the barrier between the
# reads and the writes keeps the warps from racing.
# Argument information for OpenCL (.vt.kernel_args, docs/opencl.md):
    .vt_kernel_arg reduce, global, 4, in, "int*", const
    .vt_kernel_arg reduce, global, 4, partial, "int*"
    .vt_kernel_arg reduce, local, 4, scratch, "int*"
    .text
    .globl reduce
    .type reduce, @function
reduce:
    lw      s1, 0(a0)                # in
    lw      s2, 4(a0)                # partial
    lw      s3, 8(a0)                # scratch
    csrr    t0, CSR_KNL
    lw      s4, 24(t0)               # L
    csrr    t1, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t1               # lid
    csrr    s5, CSR_GIDX
    mul     t2, s5, s4
    vadd.vx v2, v1, t2
    vsll.vi v2, v2, 2
    vadd.vx v2, v2, s1
    vlw12.v v3, 0(v2)                # in[gid]
    vsll.vi v4, v1, 2
    vadd.vx v4, v4, s3               # &scratch[lid]
    vsw12.v v3, 0(v4)
    barrier x0, x0, 1
    srli    s6, s4, 1                # s = L / 2
.Lstep:
    beqz    s6, .Ldone
    slli    t3, s6, 2
    vadd.vx v5, v4, t3               # &scratch[lid + s]
    vlw12.v v6, 0(v4)
    vlw12.v v7, 0(v5)
    barrier x0, x0, 1
    vadd.vv v6, v6, v7
    vsw12.v v6, 0(v4)
    barrier x0, x0, 1
    srli    s6, s6, 1
    j       .Lstep
.Ldone:
    csrr    t4, CSR_WID
    bnez    t4, 1f
    lw      t5, 0(s3)                # scratch[0]: the group's sum
    slli    t6, s5, 2
    add     t6, t6, s2
    sw      t5, 0(t6)                # partial[group] (scalar: once per warp 0)
1:  ret
    .size reduce, . - reduce
