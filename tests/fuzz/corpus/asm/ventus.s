	.text
	.globl	_start
	.type	_start,@function
_start:
	csrr	t1, CSR_TID
	vsetvli	t4, t4, e32, m1, ta, ma
	vid.v	v1
	vlw12.v	v2, 0(v1)
	vadd12.vi	v6, v6, 1096
	vsub12.vi	v8, v6, 68
	regext	zero, zero, 72
	vadd.vv	v3, v2, v1
	vsw12.v	v3, 4(v1)
	vlw.v	v1, -4(v0)
	vsw.v	v1, -4(v0)
	vbeq	v1, v0, .Lskip
	setrpc	zero, t1, 76
	vmv.v.x	v4, a0
.Lskip:
	join	zero, zero, 0
	barrier	x0, x0, 1
	endprg	x0, x0, x0
.Lfunc_end0:
	.size	_start, .Lfunc_end0-_start
