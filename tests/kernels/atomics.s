# atomics(int *CNT, int *OLD, int *LOCALOUT): scalar RV32A atomics executed
# once per warp (spec README decision 7), w = CSR_WGID * CSR_NUMW + CSR_WID:
#   OLD[4 w + 0] = amoadd.w(&CNT[0], 1)         CNT[0] -> number of warps
#   amomax.w(&CNT[1], w)                         CNT[1] -> warps - 1
#   OLD[4 w + 1] = amoswap.w(&CNT[2], w + 1)
#   lr.w/sc.w retry loop: CNT[3] += w + 1        CNT[3] -> W (W + 1) / 2
#   amoor.w(&CNT[4], 1 << (w & 31)); amoand.w(&CNT[5], ~(1 << (w & 31)))
#   amoxor.w(&CNT[6], w * 0x9e3779b9); amomin.w(&CNT[7], -w)
#   amominu.w(&CNT[8], w + 100); amomaxu.w(&CNT[9], 0x80000000 + w)
#   OLD[4 w + 2] = lr/sc success code of the last attempt (0)
#   OLD[4 w + 3] = amoadd.w on a local-memory counter at s0 (per workgroup)
#   barrier; warp 0 of each workgroup: LOCALOUT[group] = local counter
#   (= warps per workgroup), read with lw after the barrier.
    .text
    .globl atomics
    .type atomics, @function
atomics:
    lw      a1, 0(a0)                # CNT
    lw      a2, 4(a0)                # OLD
    csrr    t0, CSR_WGID
    csrr    t1, CSR_NUMW
    mul     t0, t0, t1
    csrr    t1, CSR_WID
    add     t0, t0, t1               # w
    slli    t1, t0, 4
    add     a2, a2, t1               # &OLD[4 w]
    li      t2, 1
    amoadd.w t3, t2, (a1)
    sw      t3, 0(a2)
    addi    t4, a1, 4
    amomax.w zero, t0, (t4)
    addi    t4, a1, 8
    addi    t2, t0, 1
    amoswap.w t3, t2, (t4)
    sw      t3, 4(a2)
    addi    t4, a1, 12
1:  lr.w    t3, (t4)
    add     t3, t3, t2
    sc.w    t5, t3, (t4)
    bnez    t5, 1b
    sw      t5, 8(a2)
    li      t2, 1
    sll     t2, t2, t0               # 1 << (w & 31)
    addi    t4, a1, 16
    amoor.w zero, t2, (t4)
    not     t2, t2
    addi    t4, a1, 20
    amoand.w zero, t2, (t4)
    li      t2, 0x9e3779b9
    mul     t2, t2, t0
    addi    t4, a1, 24
    amoxor.w zero, t2, (t4)
    neg     t2, t0
    addi    t4, a1, 28
    amomin.w zero, t2, (t4)
    addi    t2, t0, 100
    addi    t4, a1, 32
    amominu.w zero, t2, (t4)
    li      t2, 0x80000000
    add     t2, t2, t0
    addi    t4, a1, 36
    amomaxu.w zero, t2, (t4)
    # local-memory counter (zero at workgroup start)
    li      t2, 1
    amoadd.w t3, t2, (s0)
    sw      t3, 12(a2)
    barrier x0, x0, 1
    csrr    t1, CSR_WID
    bnez    t1, 2f
    lw      t3, 0(s0)
    lw      t4, 8(a0)                # LOCALOUT
    csrr    t1, CSR_WGID
    slli    t1, t1, 2
    add     t4, t4, t1
    sw      t3, 0(t4)
2:  ret
    .size atomics, . - atomics
