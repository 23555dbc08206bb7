# cvt16.s - fp16 and bf16 conversions per lane (Ventus v2025, isa2025.md
# 3.2.4). One work-item per element; 1-D, global offset 0.
# Arguments: h (half bits, ushort*), f (float*), out_f (float*),
# out_h (ushort*), out_b (ushort*), out_fb (float*).
#   out_f[i]  = (float)h[i]                 vfcvt.f.h.v
#   out_h[i]  = (half)f[i], rounded by frm  vfcvt.h.f.v
#   out_b[i]  = (bfloat16)f[i]              vfcvt.bf16.f.v
#   out_fb[i] = (float)out_b[i]             vfcvt.f.bf16.v
    .text
    .globl cvt16
    .type cvt16, @function
cvt16:
    csrr    t0, CSR_KNL
    lw      t1, 24(t0)               # local size x
    csrr    t2, CSR_GIDX
    mul     t2, t2, t1
    csrr    t3, CSR_TID
    add     t2, t2, t3
    vid.v   v1
    vadd.vx v1, v1, t2               # global id
    vsll.vi v2, v1, 1                # 2-byte offsets
    vsll.vi v3, v1, 2                # 4-byte offsets
    lw      t4, 0(a0)
    vadd.vx v4, v2, t4
    vlhu12.v v5, 0(v4)               # h[i] in bits 15:0
    vfcvt.f.h.v v6, v5
    lw      t4, 8(a0)
    vadd.vx v4, v3, t4
    vsw12.v v6, 0(v4)                # out_f[i]
    lw      t4, 4(a0)
    vadd.vx v4, v3, t4
    vlw12.v v7, 0(v4)                # f[i]
    vfcvt.h.f.v v8, v7               # sign-extended into the lane
    lw      t4, 12(a0)
    vadd.vx v4, v2, t4
    vsh12.v v8, 0(v4)                # out_h[i]
    vfcvt.bf16.f.v v9, v7
    lw      t4, 16(a0)
    vadd.vx v4, v2, t4
    vsh12.v v9, 0(v4)                # out_b[i]
    vfcvt.f.bf16.v v10, v9
    lw      t4, 20(a0)
    vadd.vx v4, v3, t4
    vsw12.v v10, 0(v4)               # out_fb[i]
    ret
    .size cvt16, . - cvt16
