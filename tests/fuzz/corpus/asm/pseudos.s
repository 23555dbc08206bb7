_start:
nop
mv a0, a1
not a2, a3
neg a4, a5
seqz t0, t1
snez t2, t3
beqz a0, 1f
bgt a1, a2, 1f
ble a1, a2, 1b
1:
j 1b
jal ra, far
jr ra
tail far
li t0, -2048
li t1, 2047
li t2, 0x80000000
li t3, -1
csrw mscratch, a0
csrrsi a0, mstatus, 8
fence rw, w
fence.i
far: ecall
