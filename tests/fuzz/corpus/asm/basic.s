# a complete little kernel
    .text
    .globl _start
_start:
    li      a0, 5
    li      a1, 0x12345678
    la      a2, data
    addi    sp, sp, -16
    sw      ra, 12(sp)
loop:
    addi    a0, a0, -1
    bnez    a0, loop
    lw      ra, 12(sp)
    addi    sp, sp, 16
    call    done
done:
    ret

    .data
data:
    .word   1, 2, 3, -1
    .half   0x7fff
    .byte   'a', 0xff
