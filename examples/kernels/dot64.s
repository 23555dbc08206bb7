# dot64.s - binary64 dot products (Ventus v2025 SEW 64 on register pairs,
# isa2025.md 3.2.2). One workgroup of L work-items; n is a multiple of L.
# Arguments: x, y (double*), partial (double*, L entries), n.
# Work-item lid computes acc = fma(x[j], y[j], acc) for j = lid, lid + L,
# ... in that order (vfmacc.vv at e64, fused, rounded by frm) and stores it
# to partial[lid]. 64-bit data moves with prefix_memory width=64; the
# Ventus memory instructions work on 32-bit lanes at any SEW, the address
# arithmetic runs at e32.
    .text
    .globl dot64
    .type dot64, @function
dot64:
    lw      s1, 0(a0)                # x
    lw      s2, 4(a0)                # y
    lw      s3, 8(a0)                # partial
    lw      s4, 12(a0)               # n
    csrr    t0, CSR_KNL
    lw      s5, 24(t0)               # L
    csrr    t1, CSR_TID
    vid.v   v1
    vadd.vx v1, v1, t1               # lid
    vsll.vi v4, v1, 3
    vadd.vx v6, v4, s3               # &partial[lid]
    vadd.vx v5, v4, s2               # &y[lid]
    vadd.vx v4, v4, s1               # &x[lid]
    slli    s6, s5, 3                # 8 L bytes per step
    divu    s7, s4, s5
    vsetvli t0, zero, e64, m1, ta, ma
    vmv.v.i v2, 0                    # acc = +0.0 (pair v2/v3)
.Lstep:
    beqz    s7, .Ldone
    prefix_memory width=64
    vlw12.v v10, 0(v4)               # v10/v11 = x[j]
    prefix_memory width=64
    vlw12.v v12, 0(v5)               # v12/v13 = y[j]
    vfmacc.vv v2, v10, v12           # acc = x[j] * y[j] + acc
    vsetvli t0, zero, e32, m1, ta, ma
    vadd.vx v4, v4, s6
    vadd.vx v5, v5, s6
    vsetvli t0, zero, e64, m1, ta, ma
    addi    s7, s7, -1
    j       .Lstep
.Ldone:
    prefix_memory width=64
    vsw12.v v2, 0(v6)
    ret
    .size dot64, . - dot64
