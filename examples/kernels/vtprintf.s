# vtprintf.s - device-side printf for the vt runtime's print buffer
# (docs/printf.md). Link it with crt0.s, which stores the print buffer's
# address and size (KNL words 48/52) in BUFFER_ADDR / BUFFER_SIZE.
#
#   vt_printf(a0 = format, a1..a7 = arguments)
#   vt_vprintf(a0 = block, a1 = block bytes)
#
# Called from a warp's scalar code: one call prints one line for the whole
# warp (per-lane values are read back from memory by the caller). Nothing is
# formatted here: the call appends a formatted record - the format's
# address and the raw argument bytes - and the host formats it with the
# OpenCL C printf rules when the launch ends.
#
# The argument bytes are laid out as an RV32 variadic call passes them,
# with the format pointer as word 0: every argument at the next multiple of
# 4 bytes, an 8-byte one (%ld, %lx, double vectors) at the next multiple of
# 8 (so in vt_printf a long goes in an even register pair a2:a3, a4:a5 or
# a6:a7, low word first), vectors as they lie in memory. vt_printf records
# a0..a7 (32 bytes); vt_vprintf records the first a1 bytes (rounded up to a
# multiple of 4; at least the format word) of a 4-byte aligned block that
# the caller filled the same way.
#
# The record: cursor = amoadd.w(&buf[0], need = 4 + payload)   # reserve
#   if 8 + cursor + need > size: amoadd.w(&buf[4], 1)          # lost record
#   else: payload at buf + 8 + cursor + 4, then the length word
#         0x80000000 | payload bytes at buf + 8 + cursor (written last),
#         then CSR_PRINT = 1.
# Clobbers a0-a7, t0-t6; keeps sp, ra and the s registers.
    .text
    .globl vt_printf
    .type vt_printf, @function
vt_printf:
    addi    sp, sp, 48               # sp grows upward: frame at sp - 48
    addi    t6, sp, -48
    sw      a0, 0(t6)
    sw      a1, 4(t6)
    sw      a2, 8(t6)
    sw      a3, 12(t6)
    sw      a4, 16(t6)
    sw      a5, 20(t6)
    sw      a6, 24(t6)
    sw      a7, 28(t6)
    sw      ra, 32(t6)
    mv      a0, t6
    li      a1, 32
    call    vt_vprintf
    lw      ra, -16(sp)
    addi    sp, sp, -48
    ret
    .size vt_printf, . - vt_printf

    .globl vt_vprintf
    .type vt_vprintf, @function
vt_vprintf:
    addi    a1, a1, 3
    andi    a1, a1, -4               # payload bytes, a multiple of 4
    beqz    a1, .Lret                # no format word: nothing to record
    la      a2, BUFFER_ADDR
    lw      a2, 0(a2)
    beqz    a2, .Lret                # no print buffer
    la      a3, BUFFER_SIZE
    lw      a3, 0(a3)
    addi    a4, a1, 4                # record size: length word + payload
    bltu    a4, a1, .Lfull           # a size near 2^32 wrapped around
    amoadd.w a5, a4, (a2)            # reserve: a5 = old cursor
    add     a6, a5, a4
    addi    a6, a6, 8                # end of the record
    bltu    a6, a5, .Lfull           # the cursor wrapped around
    bgtu    a6, a3, .Lfull
    add     a6, a2, a5
    addi    a6, a6, 8                # the record
    addi    a7, a6, 4
    mv      t0, a1
.Lcopy:
    lw      t1, 0(a0)
    sw      t1, 0(a7)
    addi    a0, a0, 4
    addi    a7, a7, 4
    addi    t0, t0, -4
    bnez    t0, .Lcopy
    li      t1, 1
    slli    t1, t1, 31
    or      t1, t1, a1
    sw      t1, 0(a6)                # the length word last: the record is complete
    csrwi   print, 1                 # tell the host there is output
    ret
.Lfull:
    addi    a4, a2, 4
    li      a5, 1
    amoadd.w zero, a5, (a4)          # count the lost record
.Lret:
    ret
    .size vt_vprintf, . - vt_vprintf
