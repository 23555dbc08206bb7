# signature.s - a kernel with its arguments declared in .vt.kernel_args
# (tests/unit/test_runtime_signature.c). Link with examples/kernels/crt0.s.
# sum(out, factor, big, tmp): out[0] = factor + the low word of big
    .vt_kernel_arg sum, global, 4, out, "int*"
    .vt_kernel_arg sum, value, 4, factor, "int"
    .vt_kernel_arg sum, value, 8, big, "long"
    .vt_kernel_arg sum, local, 4, tmp, "int*"
    .text
    .globl sum
    .type sum, @function
sum:
    lw      t0, 0(a0)                # out
    lw      t1, 4(a0)                # factor
    lw      t2, 8(a0)                # big, low word (8-byte aligned)
    add     t1, t1, t2
    sw      t1, 0(t0)
    ret
    .size sum, . - sum
