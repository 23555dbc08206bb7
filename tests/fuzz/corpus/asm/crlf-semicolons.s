_start:
  addi a0, a0, 1 ; addi a1, a1, 2
	ret # trailing
