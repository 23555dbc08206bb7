# divergent(int *in, int *out): one step of the Collatz map per work-item,
# out[i] = in[i] odd ? 3 * in[i] + 1 : in[i] / 2 (in[i] >= 0), then a
# barrier. The if/else diverges inside every warp whose lanes hold both odd
# and even numbers: the example of docs/debug.md.
    .text
    .globl divergent
    .type divergent, @function
divergent:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)               # local size x
    csrr    t2, CSR_GIDX
    mul     t2, t2, t1
    csrr    t3, CSR_TID
    add     t2, t2, t3
    vid.v   v1
    vadd.vx v1, v1, t2               # global id
    vsll.vi v1, v1, 2                # its byte offset
    lw      t4, 0(a0)                # in
    vadd.vx v2, v1, t4
    vlw12.v v2, 0(v2)                # x = in[i]
    vand.vi v3, v2, 1                # x & 1
    vmv.v.x v4, zero
.Lif:
    auipc   t1, 0
    setrpc  zero, t1, .Ljoin - .Lif  # the lanes meet again at .Ljoin
    vbeq    v3, v4, .Leven           # even lanes take the branch
    li      t5, 3
    vmul.vx v5, v2, t5
    vadd.vi v5, v5, 1                # odd: 3x + 1
    j       .Ljoin
.Leven:
    vsra.vi v5, v2, 1                # even: x / 2
.Ljoin:
    join    zero, zero, 0
    lw      t4, 4(a0)                # out
    vadd.vx v6, v1, t4
    vsw12.v v5, 0(v6)                # out[i]
    barrier x0, x0, 1
    ret
    .size divergent, .-divergent
