addi a0, a0
addi a0, a0, 99999999999999999999
addi x32, a0, 1
lw a0, 4(a9)
.word 0x1ffffffff
.byte 256
frobnicate a0
dup: dup:
j undefined_label
beq a0, a1, 0x80001001
.section
.align 99
li a0, 0b102
li a0, 0x
li a0, 1e3
li a0, 'ab'
li a0, --1
li a0, (1 << 31) / 0
