# bytes(char *B8, short *H16, int *OUT, char *OB, short *OH, int *SOUT,
#       char *SB, short *SH): byte and halfword loads and stores with sign and
# zero extension, vector (vlb12/vlbu12/vlh12/vlhu12/vsb12/vsh12) and scalar
# (lb/lbu/lh/lhu/sb/sh). Vector part, i = global id, p = B8 + 1 + i,
# q = H16 + 2 + 2 i (so element i is at an odd byte address):
#   OUT[8 i + 0..7] = lb(p), lbu(p), lbu(p - 1), lb(p + 1),
#                     lh(q), lhu(q), lhu(q - 2), lh(q + 2)
#   OB[i] = (char)(lb(p) + lh(q));  OH[i] = (short)(3 * lbu(p) + lhu(q))
# Scalar part, once per warp, w = CSR_WGID * CSR_NUMW + CSR_WID,
# p = B8 + 1 + 3 w, q = H16 + 2 + 6 w:
#   SOUT[8 w + 0..7] = lb(p), lbu(p), lbu(p + 1), lb(p - 1),
#                      lh(q), lhu(q), lh(q + 2), lhu(q - 2)
#   SB[w] = (char)(lb(p) + lhu(q));  SH[w] = (short)(5 * lbu(p) + lh(q))
    .text
    .globl bytes
    .type bytes, @function
bytes:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)
    csrr    t2, CSR_GIDX
    mul     t2, t2, t1
    csrr    t3, CSR_TID
    add     t2, t2, t3
    vid.v   v1
    vadd.vx v1, v1, t2               # i
    lw      a1, 0(a0)                # B8
    lw      a2, 4(a0)                # H16
    addi    t4, a1, 1
    vadd.vx v2, v1, t4               # p
    vsll.vi v3, v1, 1
    addi    t4, a2, 2
    vadd.vx v3, v3, t4               # q
    vlb12.v  v4, 0(v2)
    vlbu12.v v5, 0(v2)
    vlbu12.v v6, -1(v2)
    vlb12.v  v7, 1(v2)
    vlh12.v  v8, 0(v3)
    vlhu12.v v9, 0(v3)
    vlhu12.v v10, -2(v3)
    vlh12.v  v11, 2(v3)
    lw      t4, 8(a0)                # OUT
    vsll.vi v12, v1, 5
    vadd.vx v12, v12, t4
    vsw12.v v4, 0(v12)
    vsw12.v v5, 4(v12)
    vsw12.v v6, 8(v12)
    vsw12.v v7, 12(v12)
    vsw12.v v8, 16(v12)
    vsw12.v v9, 20(v12)
    vsw12.v v10, 24(v12)
    vsw12.v v11, 28(v12)
    vadd.vv v13, v4, v8
    lw      t4, 12(a0)               # OB
    addi    t4, t4, 5
    vadd.vx v14, v1, t4              # OB + i + 5
    vsb12.v v13, -5(v14)             # OB[i]
    li      t5, 3
    vmul.vx v15, v5, t5
    vadd.vv v15, v15, v9
    lw      t4, 16(a0)               # OH
    addi    t4, t4, 2
    vsll.vi v16, v1, 1
    vadd.vx v16, v16, t4             # OH + 2 i + 2
    vsh12.v v15, -2(v16)             # OH[i]
    # scalar part
    csrr    t0, CSR_WGID
    csrr    t1, CSR_NUMW
    mul     t0, t0, t1
    csrr    t1, CSR_WID
    add     t0, t0, t1               # w
    li      t1, 3
    mul     t2, t0, t1
    add     t2, t2, a1
    addi    t2, t2, 1                # p
    slli    t3, t2, 1
    sub     t3, t3, a1
    sub     t3, t3, a1
    add     t3, t3, a2               # q = H16 + 2 + 6 w = 2 p - 2 B8 + H16
    lw      t4, 20(a0)               # SOUT
    slli    t5, t0, 5
    add     t4, t4, t5
    lb      t5, 0(t2)
    sw      t5, 0(t4)
    mv      a3, t5                   # lb(p)
    lbu     t5, 0(t2)
    sw      t5, 4(t4)
    mv      a4, t5                   # lbu(p)
    lbu     t5, 1(t2)
    sw      t5, 8(t4)
    lb      t5, -1(t2)
    sw      t5, 12(t4)
    lh      t5, 0(t3)
    sw      t5, 16(t4)
    mv      a5, t5                   # lh(q)
    lhu     t5, 0(t3)
    sw      t5, 20(t4)
    mv      a6, t5                   # lhu(q)
    lh      t5, 2(t3)
    sw      t5, 24(t4)
    lhu     t5, -2(t3)
    sw      t5, 28(t4)
    add     t5, a3, a6
    lw      t4, 24(a0)               # SB
    add     t4, t4, t0
    sb      t5, 0(t4)
    li      t5, 5
    mul     t5, t5, a4
    add     t5, t5, a5
    lw      t4, 28(a0)               # SH
    slli    t6, t0, 1
    add     t4, t4, t6
    sh      t5, 0(t4)
    ret
    .size bytes, . - bytes
