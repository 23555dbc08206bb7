# matmul(float *A, float *B, float *C, int K, int N): C = A * B with
# A M x K, B K x N, C M x N (row major), M = groups y * TS, N = groups x * TS.
# 2-D launch with square workgroups TS x TS (TS = local size x = local size y,
# KNL words 6/7); K a multiple of TS. Each workgroup loops over the K/TS tile
# pairs: every work-item loads one element of the A tile and one of the B
# tile into __local memory (As at s0, Bs at s0 + TS*TS*4) with vsw12.v,
# barrier, accumulates TS products from local memory with vfmacc.vv (fused,
# k in increasing order), barrier, next tile.
    .text
    .globl matmul
    .type matmul, @function
matmul:
    csrr    t0, CSR_KNL
    lw      a1, 24(t0)               # TS = local size x (= local size y)
    lw      a2, 0(a0)                # A
    lw      a3, 4(a0)                # B
    lw      a4, 8(a0)                # C
    lw      a5, 12(a0)               # K
    lw      a6, 16(a0)               # N
    csrr    t1, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t1               # lid = local linear id
    vremu.vx v2, v1, a1              # lx
    vdivu.vx v3, v1, a1              # ly
    csrr    t1, CSR_GIDY
    mul     t1, t1, a1
    vadd.vx v4, v3, t1               # row = gidy * TS + ly
    csrr    t1, CSR_GIDX
    mul     t1, t1, a1
    vadd.vx v5, v2, t1               # col = gidx * TS + lx
    # local store addresses: As[lid], Bs[lid]
    vsll.vi v6, v1, 2
    vadd.vx v6, v6, s0               # &As[ly*TS + lx]
    mul     t2, a1, a1
    slli    t2, t2, 2
    add     a7, s0, t2               # Bs = s0 + TS*TS*4
    vsll.vi v7, v1, 2
    vadd.vx v7, v7, a7               # &Bs[ly*TS + lx]
    # global load addresses for tile 0
    vmul.vx v8, v4, a5               # row * K
    vadd.vv v8, v8, v2               # + lx
    vsll.vi v8, v8, 2
    vadd.vx v8, v8, a2               # &A[row][lx]
    vmul.vx v9, v3, a6               # ly * N
    vadd.vv v9, v9, v5               # + col
    vsll.vi v9, v9, 2
    vadd.vx v9, v9, a3               # &B[ly][col]
    slli    t1, a1, 2                # TS*4: A step per tile, Bs step per k
    mul     t2, t1, a6               # TS*N*4: B step per tile
    divu    t3, a5, a1               # tiles
    vmv.v.x v10, zero                # acc = +0.0
    # per-lane compute pointers into the tiles
    vmul.vx v15, v3, a1
    vsll.vi v15, v15, 2
    vadd.vx v15, v15, s0             # &As[ly*TS]
    vsll.vi v16, v2, 2
    vadd.vx v16, v16, a7             # &Bs[lx]
.Ltile:
    vlw12.v v13, 0(v8)
    vsw12.v v13, 0(v6)               # As[ly][lx] = A[row][t*TS + lx]
    vlw12.v v14, 0(v9)
    vsw12.v v14, 0(v7)               # Bs[ly][lx] = B[t*TS + ly][col]
    barrier x0, x0, 1
    vmv.v.v v11, v15
    vmv.v.v v12, v16
    mv      t4, a1
.Lk:
    vlw12.v v13, 0(v11)              # As[ly][k]
    vlw12.v v14, 0(v12)              # Bs[k][lx]
    vfmacc.vv v10, v13, v14
    vadd.vi v11, v11, 4
    vadd.vx v12, v12, t1
    addi    t4, t4, -1
    bnez    t4, .Lk
    barrier x0, x0, 1
    vadd.vx v8, v8, t1
    vadd.vx v9, v9, t2
    addi    t3, t3, -1
    bnez    t3, .Ltile
    vmul.vx v17, v4, a6
    vadd.vv v17, v17, v5
    vsll.vi v17, v17, 2
    vadd.vx v17, v17, a4
    vsw12.v v10, 0(v17)              # C[row][col]
    ret
    .size matmul, . - matmul
