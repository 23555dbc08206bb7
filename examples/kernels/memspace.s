# memspace.s - the Ventus v2025 memory families (isa2025.md 3.3, 3.4) with
# their range CSRs. 1-D; the local size L is the workgroup size.
# Arguments: in (int*), out (int*), n (ints in in[]), scratch (__local int*,
# L ints).
#   global:  gds = in, gds_limit = the last byte of in[n]; vlw_global.v
#            reads in[gid] at offset 4 gid
#   local:   lds_limit = the last byte of scratch[L]; vsw_local.v stores
#            2 in[gid] at offset (scratch - CSR_LDS) + 4 lid
#   private: vsw_private.v stores in[gid] at private offset 0, the v2.02
#            vlw.v reads the same bytes back
#   64-bit:  vsw12d.v stores out[gid] = scratch[(lid + 1) % L] + in[gid]
#            through the pair base (out + 4 gid, 0)
    .text
    .globl memspace
    .type memspace, @function
memspace:
    lw      s1, 0(a0)                # in
    lw      s2, 4(a0)                # out
    lw      s3, 8(a0)                # n
    lw      s6, 12(a0)               # scratch
    csrr    t0, CSR_KNL
    lw      s4, 24(t0)               # L
    csrr    t1, CSR_GIDX
    mul     s5, t1, s4
    csrr    t2, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t2               # lid
    vadd.vx v2, v1, s5               # gid
    vsll.vi v3, v2, 2                # 4 gid
    csrw    gds, s1
    slli    t3, s3, 2
    add     t3, t3, s1
    addi    t3, t3, -1
    csrw    gds_limit, t3
    vlw_global.v v4, 0(v3)           # in[gid]
    slli    t5, s4, 2
    add     t5, t5, s6
    addi    t5, t5, -1
    csrw    lds_limit, t5
    csrr    t4, CSR_LDS
    sub     s7, s6, t4               # scratch as a local offset
    vsll.vi v5, v1, 2
    vadd.vx v5, v5, s7
    vadd.vv v6, v4, v4
    vsw_local.v v6, 0(v5)            # scratch[lid] = 2 in[gid]
    vmv.v.i v7, 0
    vsw_private.v v4, 0(v7)
    vlw.v   v8, 0(v7)                # in[gid] again (one private mapping)
    barrier x0, x0, 1
    vadd.vi v9, v1, 1
    vremu.vx v9, v9, s4
    vsll.vi v9, v9, 2
    vadd.vx v9, v9, s7
    vlw_local.v v10, 0(v9)           # scratch[(lid + 1) % L]
    vadd.vv v10, v10, v8
    vadd.vx v12, v3, s2
    vmv.v.i v13, 0                   # pair base v12/v13 = out + 4 gid
    vsw12d.v v10, 0(v12)
    ret
    .size memspace, . - memspace
