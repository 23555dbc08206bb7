# vtprintf.s - device-side printf for the vt runtime's print buffer
# (docs/printf.md). Link it with crt0.s, which stores the print buffer's
# address and size (KNL words 48/52) in BUFFER_ADDR / BUFFER_SIZE.
#
#   vt_printf(a0 = format, a1..a7 = up to 7 scalar arguments)
#
# Called from a warp's scalar code: it prints one line for the whole warp
# (per-lane values are read back from memory by the caller). Conversions:
# %d %u %x %c %s %%; anything else is copied as is. At most 240 characters
# per call. The text is formatted into a frame on the warp's stack (sp grows
# upward, 288 bytes), then appended to the print buffer as one record:
#   cursor = amoadd.w(&buf[0], 4 + round4(len))      # reserve
#   if 8 + cursor + need > size: amoadd.w(&buf[4], 1) # lost record
#   else: text at buf + 8 + cursor + 4, then the length word at
#         buf + 8 + cursor (written last), then CSR_PRINT = 1.
# Clobbers a0-a7, t0-t6; keeps sp, ra and the s registers.
    .text
    .globl vt_printf
    .type vt_printf, @function
vt_printf:
    addi    sp, sp, 288
    addi    t6, sp, -288             # frame: args at 0..27, text at 32..271, digits to 288
    sw      a1, 0(t6)
    sw      a2, 4(t6)
    sw      a3, 8(t6)
    sw      a4, 12(t6)
    sw      a5, 16(t6)
    sw      a6, 20(t6)
    sw      a7, 24(t6)
    mv      t0, a0                   # format
    addi    t1, t6, 32               # output
    addi    t2, t6, 272              # output limit
    mv      t3, t6                   # next argument
.Lloop:
    lbu     t4, 0(t0)
    beqz    t4, .Ldone
    addi    t0, t0, 1
    li      t5, '%'
    beq     t4, t5, .Lspec
.Lput:
    bgeu    t1, t2, .Lloop           # full: drop the character
    sb      t4, 0(t1)
    addi    t1, t1, 1
    j       .Lloop
.Lspec:
    lbu     t4, 0(t0)
    beqz    t4, .Ldone
    addi    t0, t0, 1
    li      t5, '%'
    beq     t4, t5, .Lput
    li      t5, 'c'
    beq     t4, t5, .Lchar
    li      t5, 's'
    beq     t4, t5, .Lstr
    li      t5, 'd'
    beq     t4, t5, .Ldec
    li      t5, 'u'
    beq     t4, t5, .Luns
    li      t5, 'x'
    beq     t4, t5, .Lhex
    j       .Lput                    # unknown conversion: the character itself
.Lchar:
    lw      t4, 0(t3)
    addi    t3, t3, 4
    andi    t4, t4, 255
    j       .Lput
.Lstr:
    lw      a0, 0(t3)
    addi    t3, t3, 4
.Lstr1:
    lbu     t4, 0(a0)
    beqz    t4, .Lloop
    bgeu    t1, t2, .Lloop
    sb      t4, 0(t1)
    addi    t1, t1, 1
    addi    a0, a0, 1
    j       .Lstr1
.Ldec:
    lw      a0, 0(t3)
    addi    t3, t3, 4
    bgez    a0, .Lconv10
    neg     a0, a0
    bgeu    t1, t2, .Lconv10
    li      t4, '-'
    sb      t4, 0(t1)
    addi    t1, t1, 1
    j       .Lconv10
.Luns:
    lw      a0, 0(t3)
    addi    t3, t3, 4
.Lconv10:
    addi    a1, t6, 288              # digits are built backwards from the frame's end
    li      a2, 10
.Ld10:
    remu    a3, a0, a2
    divu    a0, a0, a2
    addi    a3, a3, '0'
    addi    a1, a1, -1
    sb      a3, 0(a1)
    bnez    a0, .Ld10
    j       .Lcopy
.Lhex:
    lw      a0, 0(t3)
    addi    t3, t3, 4
    addi    a1, t6, 288
    li      a4, 10
.Ld16:
    andi    a3, a0, 15
    srli    a0, a0, 4
    blt     a3, a4, 1f
    addi    a3, a3, 'a' - 10
    j       2f
1:  addi    a3, a3, '0'
2:  addi    a1, a1, -1
    sb      a3, 0(a1)
    bnez    a0, .Ld16
.Lcopy:
    addi    a2, t6, 288
.Lcopy1:
    bgeu    a1, a2, .Lloop
    lbu     t4, 0(a1)
    addi    a1, a1, 1
    bgeu    t1, t2, .Lcopy1
    sb      t4, 0(t1)
    addi    t1, t1, 1
    j       .Lcopy1
.Ldone:
    addi    a0, t6, 32
    sub     a1, t1, a0               # length
    beqz    a1, .Lret
    la      a2, BUFFER_ADDR
    lw      a2, 0(a2)
    beqz    a2, .Lret                # no print buffer
    la      a3, BUFFER_SIZE
    lw      a3, 0(a3)
    addi    a4, a1, 7
    andi    a4, a4, -4               # record size: 4 + round4(length)
    amoadd.w a5, a4, (a2)            # reserve: a5 = old cursor
    add     a6, a5, a4
    addi    a6, a6, 8
    bgtu    a6, a3, .Lfull
    add     a6, a2, a5
    addi    a6, a6, 8                # the record
    addi    a7, a6, 4
    mv      t4, a1
.Lcp:
    lbu     t5, 0(a0)
    sb      t5, 0(a7)
    addi    a0, a0, 1
    addi    a7, a7, 1
    addi    t4, t4, -1
    bnez    t4, .Lcp
    sw      a1, 0(a6)                # the length word last: the record is complete
    csrwi   print, 1                 # tell the host there is output
    j       .Lret
.Lfull:
    addi    a4, a2, 4
    li      a5, 1
    amoadd.w zero, a5, (a4)          # count the lost record
.Lret:
    addi    sp, sp, -288
    ret
    .size vt_printf, . - vt_printf
