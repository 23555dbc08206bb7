# first.s - the example of docs/kernels.md ("write your first kernel").
# As OpenCL C:
#   kernel void first(global const int *in, global int *out,
#                     local int *tmp, int rounds) {
#     int lid = get_local_id(0), L = get_local_size(0);
#     int gid = get_global_id(0);
#     int x = in[gid], y;
#     if (x < 0) y = -x; else y = x + x;         /* divergent if/else */
#     for (int r = 0; r < rounds; r++)           /* uniform loop */
#       y = y * 3 + 1;
#     tmp[lid] = y;
#     barrier(CLK_LOCAL_MEM_FENCE);              /* all of tmp[] written */
#     out[gid] = y + tmp[(lid + 1) % L];         /* the right neighbour */
#     if (lane == 0)                             /* one line per warp */
#       printf("group %d warp %d: out[%d] = %d\n", ...);
#   }
# Link after crt0.s and before vtprintf.s. 1-D NDRange.
    .text
    .globl first
    .type first, @function
first:
    addi    sp, sp, 16               # frame on the warp's stack (grows up)
    sw      ra, -4(sp)
    sw      s1, -8(sp)
    sw      s2, -12(sp)
    sw      s3, -16(sp)
    # --- arguments (a0 = argument buffer) and ids ---
    lw      s1, 4(a0)                # out
    lw      s2, 8(a0)                # tmp (local memory)
    lw      t6, 12(a0)               # rounds
    csrr    t0, CSR_KNL
    lw      s3, 24(t0)               # L = local size x
    lw      t1, 36(t0)               # global offset x
    csrr    t2, CSR_GIDX             # group id x
    mul     t2, t2, s3
    add     t2, t2, t1               # gid of local id 0
    csrr    t3, CSR_TID              # local id of lane 0
    vid.v   v1                       # lane number 0..T-1
    vadd.vx v1, v1, t3               # v1 = lid
    vadd.vx v2, v1, t2               # v2 = gid
    vsll.vi v2, v2, 2                # v2 = 4 * gid
    lw      t4, 0(a0)                # in
    vadd.vx v3, v2, t4
    vlw12.v v3, 0(v3)                # v3 = x = in[gid]
    # --- if (x < 0) y = -x; else y = x + x ---
    vmv.v.x v4, zero
.Lif:
    auipc   t1, 0
    setrpc  zero, t1, .Lendif - .Lif # re-converge at .Lendif
    vblt    v3, v4, .Lneg            # lanes with x < 0 branch
    vadd.vv v5, v3, v3               # y = x + x
    j       .Lendif
.Lneg:
    vrsub.vi v5, v3, 0               # y = -x
.Lendif:
    join    zero, zero, 0            # all lanes active again
    # --- for (r = 0; r < rounds; r++) y = y * 3 + 1 ---
    li      t4, 0
    li      t5, 3
.Lloop:
    bge     t4, t6, .Lloopend        # scalar: the same for every lane
    vmul.vx v5, v5, t5
    vadd.vi v5, v5, 1
    addi    t4, t4, 1
    j       .Lloop
.Lloopend:
    # --- tmp[lid] = y; barrier; out[gid] = y + tmp[(lid + 1) % L] ---
    vsll.vi v6, v1, 2
    vadd.vx v6, v6, s2
    vsw12.v v5, 0(v6)                # tmp[lid] = y
    barrier x0, x0, 1                # wait for every warp of the group
    vadd.vi v7, v1, 1
    vremu.vx v7, v7, s3
    vsll.vi v7, v7, 2
    vadd.vx v7, v7, s2
    vlw12.v v7, 0(v7)                # tmp[(lid + 1) % L]
    vadd.vv v7, v7, v5
    vadd.vx v8, v2, s1
    vsw12.v v7, 0(v8)                # out[gid]
    # --- printf, once per warp, about lane 0 ---
    add     a3, t2, t3               # gid of lane 0 (scalar registers)
    slli    t4, a3, 2
    add     t4, t4, s1
    lw      a4, 0(t4)                # out[gid of lane 0], read back
    csrr    a1, CSR_GIDX
    csrr    a2, CSR_WID
    la      a0, .Lfmt
    call    vt_printf
    lw      ra, -4(sp)
    lw      s1, -8(sp)
    lw      s2, -12(sp)
    lw      s3, -16(sp)
    addi    sp, sp, -16
    ret
    .size first, . - first

    .section .rodata
.Lfmt: .string "group %d warp %d: out[%d] = %d\n"
