# nested(int *A, int *B, int *C, int *OUT): three levels of divergent
# if/else on per-lane data, i = global id, a = A[i], b = B[i], c = C[i]:
#   if (a > 0) {
#     if (b & 1) { if (c < a) r = a + b; else r = a - c; }
#     else       { r = b * 3; if (c > 100) r += c; }
#     r ^= 0x55;
#   } else {
#     r = a * b;
#     if (b < c) { r = c - b; if ((c & 3) == 0) r <<= 1; }
#   }
#   OUT[i] = r + 1;
# Each branch is setrpc + vbranch (taken = else/skip) with the join as the
# first instruction of the immediate post-dominator, as the compiler emits.
# The else side of the outer if shares its post-dominator (.LJ1) with two
# inner branches, so one join there pops up to three entries.
    .text
    .globl nested
    .type nested, @function
nested:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)               # local size x
    csrr    t2, CSR_GIDX
    mul     t2, t2, t1
    csrr    t3, CSR_TID
    add     t2, t2, t3
    vid.v   v1
    vadd.vx v1, v1, t2
    vsll.vi v1, v1, 2                # 4 * global id
    lw      t4, 0(a0)
    vadd.vx v2, v1, t4
    vlw12.v v2, 0(v2)                # a
    lw      t4, 4(a0)
    vadd.vx v3, v1, t4
    vlw12.v v3, 0(v3)                # b
    lw      t4, 8(a0)
    vadd.vx v4, v1, t4
    vlw12.v v4, 0(v4)                # c
    vmv.v.x v5, zero                 # 0
    li      t5, 100
    vmv.v.x v6, t5                   # 100
.LV1:
    auipc   t1, 0
    setrpc  zero, t1, .LJ1 - .LV1
    vbge    v5, v2, .LELSE1          # a <= 0: else
    vand.vi v7, v3, 1
.LV2:
    auipc   t1, 0
    setrpc  zero, t1, .LJ2 - .LV2
    vbeq    v7, v5, .LELSE2          # (b & 1) == 0: else
.LV3:
    auipc   t1, 0
    setrpc  zero, t1, .LJ3 - .LV3
    vbge    v4, v2, .LELSE3          # c >= a: else
    vadd.vv v8, v2, v3               # r = a + b
    j       .LJ3
.LELSE3:
    vsub.vv v8, v2, v4               # r = a - c
.LJ3:
    join    zero, zero, 0
    j       .LJ2
.LELSE2:
    li      t5, 3
    vmul.vx v8, v3, t5               # r = b * 3
.LV4:
    auipc   t1, 0
    setrpc  zero, t1, .LJ4 - .LV4
    vbge    v6, v4, .LJ4             # c <= 100: skip
    vadd.vv v8, v8, v4               # r += c
.LJ4:
    join    zero, zero, 0
.LJ2:
    join    zero, zero, 0
    li      t5, 0x55
    vxor.vx v8, v8, t5
    j       .LJ1
.LELSE1:
    vmul.vv v8, v2, v3               # r = a * b
.LV5:
    auipc   t1, 0
    setrpc  zero, t1, .LJ1 - .LV5
    vbge    v3, v4, .LJ1             # b >= c: skip
    vsub.vv v8, v4, v3               # r = c - b
    vand.vi v9, v4, 3
.LV6:
    auipc   t1, 0
    setrpc  zero, t1, .LJ1 - .LV6
    vbne    v9, v5, .LJ1             # (c & 3) != 0: skip
    vsll.vi v8, v8, 1                # r <<= 1
.LJ1:
    join    zero, zero, 0
    vadd.vi v8, v8, 1
    lw      t4, 12(a0)
    vadd.vx v10, v1, t4
    vsw12.v v8, 0(v10)               # OUT[i]
    ret
    .size nested, . - nested
