li a0, 0
li a0, 00
li a0, 0777
li a0, 0b1010
li a0, 0X7FFFFFFF
li a0, -0x80000000
li a0, 4294967295
li a0, ~0
li a0, (3+4)*5-(2%3)
li a0, 1<<12|1
li a0, '\n'
li a0, '\''
addi a0, a0, -0
addi a0, a0, +5
.word 0xffffffff, -2147483648
