# crt0.s - Ventus start-up code (variant C of formats-and-launch.md 7.1):
# set gp, vl = threads per warp, enable FP, per-warp scalar stack in local
# memory, clear .bss, read the kernel entry and argument buffer from the
# metadata buffer (CSR knl), call the kernel, end the warp.
    .text
    .globl _start
_start:
    .option push
    .option norelax
    la      gp, __global_pointer$
    .option pop
    li      t4, 32
    vsetvli t4, t4, e32, m1, ta, ma
    li      t4, 0x2000
    csrrs   t4, mstatus, t4          # mstatus.FS = Initial
    li      t4, 0
    csrr    t1, CSR_WID
    csrr    t2, CSR_LDS
    li      t3, 1024
    mul     t1, t1, t3
    add     sp, t1, t2               # sp = lds + 1024 * wid
    li      tp, 0                    # private stack starts at 0
    csrr    t5, CSR_NUMW
    mul     t5, t5, t3
    add     s0, t2, t5               # __local data after the warp stacks
    la      a0, _edata
    la      a2, _end
    beq     a0, a2, 2f
1:  sw      zero, 0(a0)              # clear .bss
    addi    a0, a0, 4
    bltu    a0, a2, 1b
2:  csrr    t0, CSR_KNL
    lw      t1, 0(t0)                # kernel entry
    lw      a0, 4(t0)                # argument buffer
    lw      t2, 48(t0)               # print buffer address
    lw      t3, 52(t0)               # print buffer size
    la      t4, BUFFER_ADDR
    la      t5, BUFFER_SIZE
    sw      t2, 0(t4)
    sw      t3, 0(t5)
    la      t6, spike_end
    csrw    mtvec, t6
    jalr    t1
    endprg  x0, x0, x0
    j       spike_end
spike_end:
    li      t1, 1
    la      t0, tohost
    sw      t1, 0(t0)

    .data
    .globl BUFFER_ADDR, BUFFER_SIZE
BUFFER_ADDR: .word 0
BUFFER_SIZE: .word 0
