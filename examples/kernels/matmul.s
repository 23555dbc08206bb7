# matmul.s - tiled matrix multiply with local memory: C = A * B (float,
# row-major), A is M x K, B is K x N. 2-D NDRange: x = column (N), y = row
# (M); square workgroups of TS x TS (TS = local size x = local size y), with
# M, N and K multiples of TS and TS*TS a multiple of the threads per warp.
# Arguments: A, B, C (global float *), N, K (int), As, Bs (__local float *,
# TS*TS floats each). Per tile: each work-item copies one element of A and
# one of B into the local tiles, barrier, TS multiply-adds from the tiles,
# barrier.
# Argument information for OpenCL (.vt.kernel_args, docs/opencl.md):
    .vt_kernel_arg matmul, global, 4, A, "float*", const
    .vt_kernel_arg matmul, global, 4, B, "float*", const
    .vt_kernel_arg matmul, global, 4, C, "float*"
    .vt_kernel_arg matmul, value, 4, N, "int"
    .vt_kernel_arg matmul, value, 4, K, "int"
    .vt_kernel_arg matmul, local, 4, As, "float*"
    .vt_kernel_arg matmul, local, 4, Bs, "float*"
    .text
    .globl matmul
    .type matmul, @function
matmul:
    lw      s1, 0(a0)                # A
    lw      s2, 4(a0)                # B
    lw      s3, 8(a0)                # C
    lw      s4, 12(a0)               # N
    lw      s5, 16(a0)               # K
    lw      s6, 20(a0)               # As
    lw      s7, 24(a0)               # Bs
    csrr    t0, CSR_KNL
    lw      s8, 24(t0)               # TS
    csrr    t1, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t1               # local linear id
    vremu.vx v2, v1, s8              # lx
    vdivu.vx v3, v1, s8              # ly
    csrr    t2, CSR_GIDX
    mul     t2, t2, s8
    vadd.vx v4, v2, t2               # col
    csrr    t3, CSR_GIDY
    mul     t3, t3, s8
    vadd.vx v5, v3, t3               # row
    vmul.vx v6, v3, s8
    vadd.vv v6, v6, v2
    vsll.vi v6, v6, 2                # (ly*TS + lx) * 4
    vadd.vx v7, v6, s6               # &As[ly][lx]
    vadd.vx v8, v6, s7               # &Bs[ly][lx]
    vmul.vx v9, v5, s5
    vadd.vv v9, v9, v2
    vsll.vi v9, v9, 2
    vadd.vx v9, v9, s1               # &A[row][lx] (+ TS per tile)
    vmul.vx v10, v3, s4
    vadd.vv v10, v10, v4
    vsll.vi v10, v10, 2
    vadd.vx v10, v10, s2             # &B[ly][col] (+ TS rows per tile)
    vmul.vx v11, v3, s8
    vsll.vi v11, v11, 2
    vadd.vx v11, v11, s6             # &As[ly][0]
    vsll.vi v12, v2, 2
    vadd.vx v12, v12, s7             # &Bs[0][lx]
    vmv.v.x v13, zero                # acc = 0.0f
    slli    t4, s8, 2                # TS * 4
    mul     t5, s8, s4
    slli    t5, t5, 2                # TS * N * 4
    li      s9, 0
.Ltile:
    bgeu    s9, s5, .Lstore
    vlw12.v v14, 0(v9)
    vsw12.v v14, 0(v7)
    vlw12.v v15, 0(v10)
    vsw12.v v15, 0(v8)
    barrier x0, x0, 1
    vadd.vx v16, v11, zero
    vadd.vx v17, v12, zero
    li      s10, 0
.Lk:
    bgeu    s10, s8, .Lnext
    vlw12.v v18, 0(v16)
    vlw12.v v19, 0(v17)
    vfmul.vv v20, v18, v19
    vfadd.vv v13, v13, v20
    vadd.vi v16, v16, 4
    vadd.vx v17, v17, t4
    addi    s10, s10, 1
    j       .Lk
.Lnext:
    barrier x0, x0, 1
    vadd.vx v9, v9, t4
    vadd.vx v10, v10, t5
    add     s9, s9, s8
    j       .Ltile
.Lstore:
    vmul.vx v21, v5, s4
    vadd.vv v21, v21, v4
    vsll.vi v21, v21, 2
    vadd.vx v21, v21, s3
    vsw12.v v13, 0(v21)              # C[row][col]
    ret
    .size matmul, . - matmul
