# session.s - kernels for tests/unit/test_session.c (run control, memory
# checking, local-memory bounds, strict checks). Link with
# examples/kernels/crt0.s. Argument 0 is a buffer pointer `out`.
    .text

# forever(out): loops without end (for the time limit and Ctrl-C)
    .globl forever
    .type forever, @function
forever:
1:  addi    t0, t0, 1
    j       1b
    .size forever, . - forever

# past_end(out, n): each work-item i stores i at out[i] for i <= n: the
# work-item n writes one word past an n-word buffer
    .globl past_end
    .type past_end, @function
past_end:
    lw      a1, 0(a0)                # out
    lw      a2, 4(a0)                # n
    csrr    t0, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t0               # local id
    csrr    t1, CSR_GIDX
    csrr    t2, CSR_NUMW
    csrr    t3, CSR_NUMT
    mul     t2, t2, t3
    mul     t1, t1, t2
    vadd.vx v1, v1, t1               # global id
    vmv.v.x v2, a2
    la      t4, 9f
    setrpc  zero, t4, 0
    vbltu   v2, v1, 9f               # i > n: skip
    vsll.vi v3, v1, 2
    vadd.vx v3, v3, a1
    vsw12.v v1, 0(v3)
9:  join    zero, zero, 0
    ret
    .size past_end, . - past_end

# no_join(out): a divergent branch whose join is never reached: the warp ends
# with a SIMT-stack entry pending
    .globl no_join
    .type no_join, @function
no_join:
    vid.v   v1
    vmv.v.i v2, 1
    la      t4, 9f
    setrpc  zero, t4, 0
    vblt    v1, v2, 9f               # lane 0 goes to 9, the others fall through
    ret
9:  ret
    .size no_join, . - no_join

# local_far(out): a store 1 MiB past the workgroup's local memory
    .globl local_far
    .type local_far, @function
local_far:
    csrr    t0, CSR_LDS
    li      t1, 0x100000
    add     t0, t0, t1
    sw      t1, 0(t0)
    ret
    .size local_far, . - local_far

# local_high(out): a load at 0x7ff00000, far below pocl's top part
    .globl local_high
    .type local_high, @function
local_high:
    li      t0, 0x7ff00000
    lw      t1, 0(t0)
    ret
    .size local_high, . - local_high
