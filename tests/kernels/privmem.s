# privmem(int *IN, int *IDX, int *OUT): private-memory spill and reload in
# the style of compiled code: a 64-byte private frame per work-item
# (tp += 64; regext + vmv.v.x broadcasts tp into v32), values held in
# v32..v34 through regext, stored with vsw.v and reloaded with vlw.v;
# a private array indexed by per-lane data; halfword and byte private
# accesses at unaligned offsets (vsh.v/vsb.v, vlh.v/vlhu.v/vlb.v/vlbu.v).
# i = global id, x = IN[i], idx = IDX[i] (0..7), frame words f[0..15]:
#   f[j] = x * (j + 1) + j (j = 0..7);  s1 = fold(f[0..7]) (s = s * 31 + f[j])
#   r = f[idx];  f[idx] = x ^ 0x5a5a5a5a;  s2 = fold(f[0..7])
#   f[8] = x; f[9] = 0; f[10] = 0; h = x * 7 stored as a halfword at byte 38
#   (f[9] bits 31:16), b = x * 13 stored as a byte at byte 41 (f[10] bits
#   15:8);  OUT[12 i + 0..10] = s1, r, s2, lh(38), lhu(38), lb(41), lbu(41),
#   f[9], f[10], lhu(32), lbu(35); OUT[12 i + 11] = 0x600d.
    .text
    .globl privmem
    .type privmem, @function
privmem:
    addi    tp, tp, 64               # private frame
    regext  zero, zero, 1
    vmv.v.x v0, tp                   # v32 = tp
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)
    csrr    t2, CSR_GIDX
    mul     t2, t2, t1
    csrr    t3, CSR_TID
    add     t2, t2, t3
    vid.v   v10
    vadd.vx v10, v10, t2             # i
    vsll.vi v11, v10, 2
    lw      t4, 0(a0)
    vadd.vx v1, v11, t4
    vlw12.v v1, 0(v1)                # x
    lw      t4, 4(a0)
    vadd.vx v4, v11, t4
    vlw12.v v4, 0(v4)                # idx
    # f[j] = x * (j + 1) + j, computed in v33 and spilled
    li      t5, 1
    li      t6, 0
    regext  zero, zero, 1
    vmul.vx v1, v1, t5               # v33 = x * 1
    regext  zero, zero, 65
    vadd.vx v1, v1, t6               # v33 += 0
    regext  zero, zero, 72
    vsw.v   v1, -64(v0)              # f[0] = v33
    li      t5, 2
    li      t6, 1
    regext  zero, zero, 1
    vmul.vx v1, v1, t5
    regext  zero, zero, 65
    vadd.vx v1, v1, t6
    regext  zero, zero, 72
    vsw.v   v1, -60(v0)              # f[1]
    li      t5, 3
    li      t6, 2
    regext  zero, zero, 1
    vmul.vx v1, v1, t5
    regext  zero, zero, 65
    vadd.vx v1, v1, t6
    regext  zero, zero, 72
    vsw.v   v1, -56(v0)              # f[2]
    li      t5, 4
    li      t6, 3
    regext  zero, zero, 1
    vmul.vx v1, v1, t5
    regext  zero, zero, 65
    vadd.vx v1, v1, t6
    regext  zero, zero, 72
    vsw.v   v1, -52(v0)              # f[3]
    li      t5, 5
    li      t6, 4
    regext  zero, zero, 1
    vmul.vx v1, v1, t5
    regext  zero, zero, 65
    vadd.vx v1, v1, t6
    regext  zero, zero, 72
    vsw.v   v1, -48(v0)              # f[4]
    li      t5, 6
    li      t6, 5
    regext  zero, zero, 1
    vmul.vx v1, v1, t5
    regext  zero, zero, 65
    vadd.vx v1, v1, t6
    regext  zero, zero, 72
    vsw.v   v1, -44(v0)              # f[5]
    li      t5, 7
    li      t6, 6
    regext  zero, zero, 1
    vmul.vx v1, v1, t5
    regext  zero, zero, 65
    vadd.vx v1, v1, t6
    regext  zero, zero, 72
    vsw.v   v1, -40(v0)              # f[6]
    li      t5, 8
    li      t6, 7
    regext  zero, zero, 1
    vmul.vx v1, v1, t5
    regext  zero, zero, 65
    vadd.vx v1, v1, t6
    regext  zero, zero, 72
    vsw.v   v1, -36(v0)              # f[7]
    # clobber v33, reload and fold: s1 in v3 (v34 walks the frame)
    regext  zero, zero, 1
    vmv.v.i v1, -1                   # v33 = -1
    vmv.v.x v3, zero
    li      t5, 31
    li      t6, -64
    regext  zero, zero, 65
    vadd.vx v2, v0, t6               # v34 = v32 - 64
    li      a7, 8
1:  regext  zero, zero, 9
    vlw.v   v1, 0(v2)                # v33 = f[j]
    vmul.vx v3, v3, t5
    regext  zero, zero, 8
    vadd.vv v3, v3, v1               # s1 = s1 * 31 + v33
    regext  zero, zero, 65
    vadd.vi v2, v2, 4                # v34 += 4
    addi    a7, a7, -1
    bnez    a7, 1b
    # r = f[idx] through a per-lane private address, then f[idx] = x ^ K
    vsll.vi v4, v4, 2
    regext  zero, zero, 65
    vadd.vv v2, v0, v4               # v34 = v32 + 4 * idx
    regext  zero, zero, 8
    vlw.v   v5, -64(v2)              # r = f[idx]
    li      t4, 0x5a5a5a5a
    vxor.vx v6, v1, t4
    regext  zero, zero, 8
    vsw.v   v6, -64(v2)              # f[idx] = x ^ 0x5a5a5a5a
    # s2 in v7
    vmv.v.x v7, zero
    regext  zero, zero, 65
    vadd.vx v2, v0, t6               # v34 = v32 - 64
    li      a7, 8
2:  regext  zero, zero, 9
    vlw.v   v1, 0(v2)
    vmul.vx v7, v7, t5
    regext  zero, zero, 8
    vadd.vv v7, v7, v1
    regext  zero, zero, 65
    vadd.vi v2, v2, 4
    addi    a7, a7, -1
    bnez    a7, 2b
    # halfword and byte private accesses
    regext  zero, zero, 8
    vsw.v   v1, -32(v0)              # f[8] = x
    vmv.v.x v8, zero
    regext  zero, zero, 8
    vsw.v   v8, -28(v0)              # f[9] = 0
    regext  zero, zero, 8
    vsw.v   v8, -24(v0)              # f[10] = 0
    li      t5, 7
    vmul.vx v9, v1, t5
    regext  zero, zero, 8
    vsh.v   v9, -26(v0)              # halfword at byte 38
    li      t5, 13
    vmul.vx v12, v1, t5
    regext  zero, zero, 8
    vsb.v   v12, -23(v0)             # byte at byte 41
    regext  zero, zero, 8
    vlh.v   v13, -26(v0)
    regext  zero, zero, 8
    vlhu.v  v14, -26(v0)
    regext  zero, zero, 8
    vlb.v   v15, -23(v0)
    regext  zero, zero, 8
    vlbu.v  v16, -23(v0)
    regext  zero, zero, 8
    vlw.v   v17, -28(v0)             # f[9]
    regext  zero, zero, 8
    vlw.v   v18, -24(v0)             # f[10]
    regext  zero, zero, 8
    vlhu.v  v19, -32(v0)             # low half of x
    regext  zero, zero, 8
    vlbu.v  v20, -29(v0)             # top byte of x
    # OUT[12 i + ...]
    li      t5, 48
    vmul.vx v21, v10, t5
    lw      t4, 8(a0)
    vadd.vx v21, v21, t4
    vsw12.v v3, 0(v21)
    vsw12.v v5, 4(v21)
    vsw12.v v7, 8(v21)
    vsw12.v v13, 12(v21)
    vsw12.v v14, 16(v21)
    vsw12.v v15, 20(v21)
    vsw12.v v16, 24(v21)
    vsw12.v v17, 28(v21)
    vsw12.v v18, 32(v21)
    vsw12.v v19, 36(v21)
    vsw12.v v20, 40(v21)
    li      t5, 0x600d
    vmv.v.x v22, t5
    vsw12.v v22, 44(v21)
    addi    tp, tp, -64
    ret
    .size privmem, . - privmem
