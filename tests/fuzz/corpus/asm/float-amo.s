_start:
fadd.s a0, a1, a2
fadd.s fa0, fa1, fa2, rtz
fcvt.w.s a0, a0, rtz
fmadd.s a0, a1, a2, a3
amoadd.w.aqrl a0, a1, (a2)
lr.w a0, (a1)
sc.w a2, a3, (a1)
flw ft0, 4(sp)
