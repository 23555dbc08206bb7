# loop(int *TRIP, uint *DATA, uint *ACC, int *KOUT, int MAXK): a divergent
# loop with a data-dependent early exit, i = global id, n = TRIP[i],
# x = DATA + i * MAXK:
#   acc = i; k = 0;
#   if (n > 0) do {
#     acc = acc * 3 + x[k];
#     if ((acc & 15) == 7) break;
#     k++;
#   } while (k < n);
#   ACC[i] = acc; KOUT[i] = k;
# The guard, the break and the back edge are vector branches that all
# re-converge at the loop exit (.LJ), like compiled code.
    .text
    .globl loop
    .type loop, @function
loop:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)               # local size x
    csrr    t2, CSR_GIDX
    mul     t2, t2, t1
    csrr    t3, CSR_TID
    add     t2, t2, t3
    vid.v   v1
    vadd.vx v1, v1, t2               # i
    vsll.vi v9, v1, 2                # 4 * i
    lw      t4, 0(a0)
    vadd.vx v2, v9, t4
    vlw12.v v2, 0(v2)                # n
    lw      t4, 4(a0)                # DATA
    lw      t5, 16(a0)               # MAXK
    slli    t5, t5, 2
    vmul.vx v3, v1, t5
    vadd.vx v3, v3, t4               # &x[0]
    vmv.v.v v4, v1                   # acc = i
    vmv.v.x v5, zero                 # k = 0 (also the constant 0 below)
    vmv.v.x v6, zero
    li      t6, 7
    vmv.v.x v7, t6
    li      t6, 3
.LG:
    auipc   t1, 0
    setrpc  zero, t1, .LJ - .LG
    vbge    v6, v2, .LJ              # n <= 0: skip the loop
.LL:
    vlw12.v v8, 0(v3)                # x[k]
    vmul.vx v4, v4, t6
    vadd.vv v4, v4, v8               # acc = acc * 3 + x[k]
    vand.vi v10, v4, 15
.LB:
    auipc   t1, 0
    setrpc  zero, t1, .LJ - .LB
    vbeq    v10, v7, .LJ             # break
    vadd.vi v5, v5, 1                # k++
    vadd.vi v3, v3, 4
.LBE:
    auipc   t1, 0
    setrpc  zero, t1, .LJ - .LBE
    vblt    v5, v2, .LL              # k < n: again
.LJ:
    join    zero, zero, 0
    lw      t4, 8(a0)
    vadd.vx v11, v9, t4
    vsw12.v v4, 0(v11)               # ACC[i]
    lw      t4, 12(a0)
    vadd.vx v11, v9, t4
    vsw12.v v5, 0(v11)               # KOUT[i]
    ret
    .size loop, . - loop
