_start:
vsetvli t0, a0, e32, m1, ta, ma
vsetivli t0, 8, e8, mf2, tu, mu
vle32.v v1, (a0)
vse32.v v1, (a1), v0.t
vadd.vx v2, v1, a0, v0.t
vadd.vi v3, v2, -16
vmerge.vim v4, v3, 5, v0
vfadd.vv v5, v4, v3
vmseq.vv v0, v1, v2
vfexp v1, v2
vftta.vv v1, v2, v3
barriersub x0, x0, 3
regexti zero, zero, 4095
