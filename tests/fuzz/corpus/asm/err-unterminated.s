label:
.ascii "unterminated
  addi a0
