.section .rodata
.p2align 4
msg: .asciz "hello\tworld\n\\\"x\""
.string "second"
.ascii "no nul", "two"
.align 3
.zero 7
.space 3, 0xaa
.section .sdata,"aw",@progbits
small: .word msg, msg+4, msg-small
.bss
.comm buf, 64, 4
.lcomm lbuf, 16
.set SIZE, 4*8
.equ TWO, SIZE/16
.text
_start: li a0, SIZE
addi a1, a0, TWO
lui a2, %hi(msg)
addi a2, a2, %lo(msg)
auipc a3, %pcrel_hi(small)
addi a3, a3, %pcrel_lo(_start)
