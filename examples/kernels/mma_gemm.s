# mma_gemm.s - tiled matrix multiplies on the tensor instructions of the
# Ventus v2025 ISA (isa2025.md 3.6, 3.9; docs/tensor.md): each step the
# workgroup's two warps copy the next K-slice of the A and B tiles into local
# memory with cp_dma_tensor (warp 0 the A tile, warp 1 the B tile), wait for
# their own copy (cp_dma_mbarrier), meet at a barrier, load their fragments
# from the tiles and accumulate with one MMA; a second barrier frees the
# tiles for the next copies. The tensor copy fills the part of a box past the
# end of K with zeros, so K only needs to satisfy the 16-byte row-stride
# rule of the descriptor.
#
# Both kernels: 2-D NDRange, workgroups of 64 work-items (local 64 x 1: two
# warps of 32 threads; MMA needs full 32-lane warps), workgroup (x, y)
# computes the C tile at row 16y, column TN*x. Arguments: A (M x K,
# row-major), Bt (N x K, row-major: B column-major, the layout MMA reads),
# C (M x N, row-major), M, N, K (int), As, Bs, Ds (__local, 512 bytes each:
# the A tile, the B tile, one tensor descriptor per warp).
#
#   mma_gemm_f16: fp16 A and B, fp32 C; TN = 16 (8 columns per warp);
#                 mma.m16n8k16.f16.f32 per K step of 16; K a multiple of 8
#   mma_gemm_s8:  s8 A and B, s32 C; TN = 32 (16 columns per warp);
#                 mma.m16n16k16.s8.s32 per K step of 16; K a multiple of 16
# M must be a multiple of 16 and N of TN.
    .vt_kernel_arg mma_gemm_f16, global, 4, A, "half*", const
    .vt_kernel_arg mma_gemm_f16, global, 4, Bt, "half*", const
    .vt_kernel_arg mma_gemm_f16, global, 4, C, "float*"
    .vt_kernel_arg mma_gemm_f16, value, 4, M, "int"
    .vt_kernel_arg mma_gemm_f16, value, 4, N, "int"
    .vt_kernel_arg mma_gemm_f16, value, 4, K, "int"
    .vt_kernel_arg mma_gemm_f16, local, 4, As, "half*"
    .vt_kernel_arg mma_gemm_f16, local, 4, Bs, "half*"
    .vt_kernel_arg mma_gemm_f16, local, 4, Ds, "uint*"
    .vt_kernel_arg mma_gemm_s8, global, 4, A, "char*", const
    .vt_kernel_arg mma_gemm_s8, global, 4, Bt, "char*", const
    .vt_kernel_arg mma_gemm_s8, global, 4, C, "int*"
    .vt_kernel_arg mma_gemm_s8, value, 4, M, "int"
    .vt_kernel_arg mma_gemm_s8, value, 4, N, "int"
    .vt_kernel_arg mma_gemm_s8, value, 4, K, "int"
    .vt_kernel_arg mma_gemm_s8, local, 4, As, "char*"
    .vt_kernel_arg mma_gemm_s8, local, 4, Bs, "char*"
    .vt_kernel_arg mma_gemm_s8, local, 4, Ds, "uint*"

# gemm_setup: the arguments and this warp's tensor descriptor (3.9.4).
# In: a0 = argument buffer, t5 = element type code (6 FLOAT16, 0 UINT8),
# t6 = bytes per element, a7 = TN (columns per workgroup).
# Out: s1 A, s2 Bt, s3 C, s5 N, s6 K, s7 As, s8 Bs, s10 row0, s11 col0,
# t0 = warp id, a1 = the descriptor (T at +0, U at +128), a5 = the tile this
# warp copies to, a6 = the box address of the first K slice, v1 = the
# descriptor's lane addresses, v24 = T, v2 = lane, v5 = g, v6 = q.
    .text
gemm_setup:
    lw      s1, 0(a0)                # A
    lw      s2, 4(a0)                # Bt
    lw      s3, 8(a0)                # C
    lw      s4, 12(a0)               # M
    lw      s5, 16(a0)               # N
    lw      s6, 20(a0)               # K
    lw      s7, 24(a0)               # As
    lw      s8, 28(a0)               # Bs
    lw      s9, 32(a0)               # Ds
    csrr    t0, CSR_WID
    csrr    t1, CSR_GIDX
    csrr    t2, CSR_GIDY
    slli    s10, t2, 4               # row0 = 16 * y
    mul     s11, t1, a7              # col0 = TN * x
    slli    t3, t0, 8
    add     a1, s9, t3               # this warp's descriptor
    vid.v   v2                       # lane
    vsll.vi v3, v2, 2
    vadd.vx v1, v3, a1               # &T[lane]
    vsrl.vi v5, v2, 2                # g = lane >> 2
    vand.vi v6, v2, 3                # q = lane & 3
    # warp 0 copies A (M rows), warp 1 copies Bt (N rows, TN of them a tile)
    mv      a2, s1
    mv      a3, s4
    mv      a4, s10
    mv      a5, s7
    li      t3, 16                   # box rows
    beqz    t0, 1f
    mv      a2, s2
    mv      a3, s5
    mv      a4, s11
    mv      a5, s8
    mv      t3, a7
1:  sw      t5, 0(a1)                # T[0] datatype
    li      t4, 2
    sw      t4, 4(a1)                # T[1] rank
    sw      a2, 8(a1)                # T[2] globalAddress
    sw      s6, 12(a1)               # T[3] globalDim1 = K
    sw      a3, 16(a1)               # T[4] globalDim2 = rows
    mul     t4, s6, t6
    sw      t4, 32(a1)               # T[8] stride of dimension 2 = K * e
    li      t1, 16
    sw      t1, 132(a1)              # U[1] boxDim1 = 16 (one K slice)
    sw      t3, 136(a1)              # U[2] boxDim2 = rows of the tile
    li      t1, 1
    sw      t1, 152(a1)              # U[6] elementStrides1
    sw      t1, 156(a1)              # U[7] elementStrides2
    mul     t1, a4, t4
    add     a6, a2, t1               # box address: row a4, column 0
    vlw12.v v24, 0(v1)               # T: the same every step
    ret

# gemm_step: copy this warp's K slice and wait until both tiles are there.
gemm_copy:
    sw      a6, 128(a1)              # U[0] BoxAddress
    vlw12.v v25, 128(v1)
    cp_dma_tensor a5, v24, v25
    cp_dma_mbarrier
    barrier x0, x0, 1
    ret

    .globl mma_gemm_f16
    .type mma_gemm_f16, @function
mma_gemm_f16:
    mv      s0, ra
    li      t5, 6                    # FLOAT16
    li      t6, 2
    li      a7, 16
    call    gemm_setup
    # fragment lane addresses (4.3): A r0 = As + 32g + 4q (rows g, g+8 at
    # +256, columns +8 at +16); B r0 = Bs + 256w + 32g + 4q (k + 8 at +16)
    vsll.vi v7, v5, 5
    vsll.vi v8, v6, 2
    vadd.vv v7, v7, v8
    vadd.vx v10, v7, s7              # A fragments
    slli    t1, t0, 8
    add     t1, t1, s8
    vadd.vx v11, v7, t1              # B fragments
    vmv.v.x v12, zero                # C/D (4 registers, fp32) = 0
    vmv.v.x v13, zero
    vmv.v.x v14, zero
    vmv.v.x v15, zero
    li      s9, 0
.Lf16_k:
    call    gemm_copy
    vlw12.v v16, 0(v10)
    vlw12.v v17, 256(v10)
    vlw12.v v18, 16(v10)
    vlw12.v v19, 272(v10)
    vlw12.v v20, 0(v11)
    vlw12.v v21, 16(v11)
    mma.m16n8k16.f16.f32 v12, v16, v20
    barrier x0, x0, 1                # the tiles may be overwritten
    addi    a6, a6, 32               # next 16 columns of fp16
    addi    s9, s9, 16
    blt     s9, s6, .Lf16_k
    # C r0 (g, 2q), r1 (g, 2q+1), r2 (g+8, 2q), r3 (g+8, 2q+1), columns of
    # this warp from col0 + 8w
    slli    t1, t0, 3
    add     t1, t1, s11              # col0 + 8w
    vmul.vx v26, v5, s5
    vsll.vi v27, v6, 1
    vadd.vv v26, v26, v27
    vadd.vx v26, v26, t1             # g*N + 2q + col0 + 8w
    mul     t2, s10, s5              # row0 * N
    vadd.vx v26, v26, t2
    vsll.vi v26, v26, 2
    vadd.vx v26, v26, s3             # &C[row0 + g][col0 + 8w + 2q]
    slli    t3, s5, 5                # 8 rows of fp32
    vadd.vx v27, v26, t3
    vsw12.v v12, 0(v26)
    vsw12.v v13, 4(v26)
    vsw12.v v14, 0(v27)
    vsw12.v v15, 4(v27)
    mv      ra, s0
    ret
    .size mma_gemm_f16, . - mma_gemm_f16

    .globl mma_gemm_s8
    .type mma_gemm_s8, @function
mma_gemm_s8:
    mv      s0, ra
    li      t5, 0                    # UINT8 (the bits are copied unchanged)
    li      t6, 1
    li      a7, 32
    call    gemm_setup
    # A r0 = As + 16g + 4q (rows g + 8 at +128); B r0 = Bs + 256w + 16g + 4q
    # (columns n + 8 at +128)
    vsll.vi v7, v5, 4
    vsll.vi v4, v6, 2
    vadd.vv v7, v7, v4
    vadd.vx v10, v7, s7
    slli    t1, t0, 8
    add     t1, t1, s8
    vadd.vx v11, v7, t1
    vmv.v.x v12, zero                # C/D v12..v19 (8 registers, s32) = 0
    vmv.v.x v13, zero
    vmv.v.x v14, zero
    vmv.v.x v15, zero
    vmv.v.x v16, zero
    vmv.v.x v17, zero
    vmv.v.x v18, zero
    vmv.v.x v19, zero
    li      s9, 0
.Ls8_k:
    call    gemm_copy
    vlw12.v v20, 0(v10)
    vlw12.v v21, 128(v10)
    vlw12.v v22, 0(v11)
    vlw12.v v23, 128(v11)
    mma.m16n16k16.s8.s32 v12, v20, v22
    barrier x0, x0, 1
    addi    a6, a6, 16               # next 16 columns of bytes
    addi    s9, s9, 16
    blt     s9, s6, .Ls8_k
    # C r: (g + 8*((r/2)%2), 2q + r%2 + 8*(r/4)) from col0 + 16w
    slli    t1, t0, 4
    add     t1, t1, s11
    vmul.vx v26, v5, s5
    vsll.vi v27, v6, 1
    vadd.vv v26, v26, v27
    vadd.vx v26, v26, t1
    mul     t2, s10, s5
    vadd.vx v26, v26, t2
    vsll.vi v26, v26, 2
    vadd.vx v26, v26, s3             # &C[row0 + g][col0 + 16w + 2q]
    slli    t3, s5, 5
    vadd.vx v27, v26, t3             # 8 rows down
    vsw12.v v12, 0(v26)
    vsw12.v v13, 4(v26)
    vsw12.v v14, 0(v27)
    vsw12.v v15, 4(v27)
    vsw12.v v16, 32(v26)
    vsw12.v v17, 36(v26)
    vsw12.v v18, 32(v27)
    vsw12.v v19, 36(v27)
    mv      ra, s0
    ret
    .size mma_gemm_s8, . - mma_gemm_s8
