addi a0, a0, 1
