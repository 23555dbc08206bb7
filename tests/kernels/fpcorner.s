# fpcorner(case *CASES, int NCASES, run *RUNS, int NRUNS, uint *SOUT,
#          uint *VOUT, uint *VFLAGS, uint *MISC): floating-point corner
# cases, scalar (Zfinx on x registers) and vector. A case is 8 words
# {op, frm, a, b, c, 0, 0, 0}; the op numbers are the stub order below (the
# test's FP_* enum). Every warp w = CSR_WGID * CSR_NUMW + CSR_WID runs all of
# it and writes its own slice:
#   scalar: for each case: frm = case.frm; fflags = 0; r = op(a, b, c);
#           SOUT[w][2 i] = r, SOUT[w][2 i + 1] = fflags
#   vector: a run is 4 words {op, frm, start, count} (cases start..start+count-1
#           with one op and frm); per run: frm = run.frm; fflags = 0; the
#           lanes take consecutive cases, numt at a time, lanes past the end
#           skipped by a divergent vbgeu; VOUT[w][case] = r;
#           VFLAGS[w][run] = fflags (OR over the run's cases)
#   MISC[w][0] = fcsr after frm = 3, fflags = 0x15; MISC[w][1] = frm after
#           fsrm returned the old value into MISC[w][2]
# Scalar stubs are 8 bytes (op; j back), vector stubs 16 bytes (padded with
# nops); ops 19.. have static rounding modes and no vector form.
    .text
    .globl fpcorner
    .type fpcorner, @function
fpcorner:
    csrr    t0, CSR_WGID
    csrr    t1, CSR_NUMW
    mul     t0, t0, t1
    csrr    t1, CSR_WID
    add     s1, t0, t1               # w (s1 saved below)
    addi    sp, sp, 16
    sw      s1, -4(sp)
    sw      s2, -8(sp)
    sw      s3, -12(sp)
    # ---- scalar cases ----
    lw      t0, 0(a0)                # CASES
    lw      t1, 4(a0)                # NCASES
    lw      t2, 16(a0)               # SOUT
    slli    t3, t1, 3
    mul     t3, t3, s1
    add     t2, t2, t3               # this warp's slice
    la      s2, .Lsstubs
.Lscase:
    lw      a3, 0(t0)                # op
    lw      a4, 4(t0)                # frm
    lw      a5, 8(t0)
    lw      a6, 12(t0)
    lw      a7, 16(t0)
    fsrm    a4
    fsflags zero
    slli    t3, a3, 3
    add     t3, t3, s2
    jr      t3
.Lsdone:
    frflags t6
    sw      t5, 0(t2)
    sw      t6, 4(t2)
    addi    t0, t0, 32
    addi    t2, t2, 8
    addi    t1, t1, -1
    bnez    t1, .Lscase
    # ---- vector runs ----
    lw      t0, 8(a0)                # RUNS
    lw      a2, 12(a0)               # NRUNS (counts down)
    lw      t2, 24(a0)               # VFLAGS
    slli    t3, a2, 2
    mul     t3, t3, s1
    add     t2, t2, t3               # VFLAGS slice
    lw      t3, 4(a0)                # NCASES
    slli    t3, t3, 2
    mul     t3, t3, s1
    lw      s3, 20(a0)
    add     s3, s3, t3               # VOUT slice
    la      s2, .Lvstubs
    csrr    a1, CSR_NUMT
    vid.v   v10
.Lrun:
    lw      a3, 0(t0)                # op
    lw      a4, 4(t0)                # frm
    lw      a5, 8(t0)                # start
    lw      a6, 12(t0)               # count
    fsrm    a4
    fsflags zero
    vmv.v.x v11, a6                  # count
    li      a7, 0                    # c
.Lchunk:
    vadd.vx v12, v10, a7             # c + lane
.Lpcv:
    auipc   t1, 0
    setrpc  zero, t1, .Lvj - .Lpcv
    vbgeu   v12, v11, .Lvj           # past the run: skip
    vadd.vx v13, v12, a5             # case index
    vsll.vi v14, v13, 5
    lw      t3, 0(a0)
    vadd.vx v14, v14, t3             # &CASES[idx]
    vlw12.v v1, 8(v14)
    vlw12.v v2, 12(v14)
    vlw12.v v3, 16(v14)
    slli    t3, a3, 4
    add     t3, t3, s2
    jr      t3
.Lvdone:
    vsll.vi v15, v13, 2
    vadd.vx v15, v15, s3
    vsw12.v v4, 0(v15)               # VOUT[idx]
.Lvj:
    join    zero, zero, 0
    add     a7, a7, a1
    blt     a7, a6, .Lchunk
    frflags t6
    sw      t6, 0(t2)
    addi    t2, t2, 4
    addi    t0, t0, 16
    addi    a2, a2, -1
    bnez    a2, .Lrun
    # ---- fcsr composition ----
    li      t3, 3
    fsrm    t3
    li      t3, 0x15
    fsflags t3
    csrr    t4, fcsr
    lw      t5, 28(a0)               # MISC
    slli    t6, s1, 4
    add     t5, t5, t6
    sw      t4, 0(t5)
    li      t3, 1
    fsrm    t4, t3                   # t4 = old frm (3), frm = 1
    frrm    t3
    sw      t3, 4(t5)
    sw      t4, 8(t5)
    lw      s1, -4(sp)
    lw      s2, -8(sp)
    lw      s3, -12(sp)
    addi    sp, sp, -16
    ret

    .balign 8
.Lsstubs:
    fadd.s t5, a5, a6             # FADD
    j       .Lsdone
    fsub.s t5, a5, a6             # FSUB
    j       .Lsdone
    fmul.s t5, a5, a6             # FMUL
    j       .Lsdone
    fdiv.s t5, a5, a6             # FDIV
    j       .Lsdone
    fsqrt.s t5, a5                # FSQRT
    j       .Lsdone
    fmin.s t5, a5, a6             # FMIN
    j       .Lsdone
    fmax.s t5, a5, a6             # FMAX
    j       .Lsdone
    fmadd.s t5, a5, a6, a7        # FMADD
    j       .Lsdone
    fnmadd.s t5, a5, a6, a7       # FNMADD
    j       .Lsdone
    fcvt.w.s t5, a5, dyn          # FCVT_W_S
    j       .Lsdone
    fcvt.wu.s t5, a5, dyn         # FCVT_WU_S
    j       .Lsdone
    fcvt.w.s t5, a5, rtz          # FCVT_W_S_RTZ
    j       .Lsdone
    fcvt.s.w t5, a5, dyn          # FCVT_S_W
    j       .Lsdone
    fcvt.s.wu t5, a5, dyn         # FCVT_S_WU
    j       .Lsdone
    feq.s t5, a5, a6              # FEQ
    j       .Lsdone
    flt.s t5, a5, a6              # FLT
    j       .Lsdone
    fle.s t5, a5, a6              # FLE
    j       .Lsdone
    fclass.s t5, a5               # FCLASS
    j       .Lsdone
    fsgnjn.s t5, a5, a6           # FSGNJN
    j       .Lsdone
    fadd.s t5, a5, a6, rtz        # FADD_RTZ
    j       .Lsdone
    fadd.s t5, a5, a6, rdn        # FADD_RDN
    j       .Lsdone
    fadd.s t5, a5, a6, rup        # FADD_RUP
    j       .Lsdone
    fadd.s t5, a5, a6, rmm        # FADD_RMM
    j       .Lsdone
    fcvt.w.s t5, a5, rne          # FCVT_W_RNE
    j       .Lsdone
    fcvt.w.s t5, a5, rmm          # FCVT_W_RMM
    j       .Lsdone
    fdiv.s t5, a5, a6, rup        # FDIV_RUP
    j       .Lsdone
.Lvstubs:
    vfadd.vv v4, v1, v2           # FADD
    j       .Lvdone
    nop
    nop
    vfsub.vv v4, v1, v2           # FSUB
    j       .Lvdone
    nop
    nop
    vfmul.vv v4, v1, v2           # FMUL
    j       .Lvdone
    nop
    nop
    vfdiv.vv v4, v1, v2           # FDIV
    j       .Lvdone
    nop
    nop
    vfsqrt.v v4, v1               # FSQRT
    j       .Lvdone
    nop
    nop
    vfmin.vv v4, v1, v2           # FMIN
    j       .Lvdone
    nop
    nop
    vfmax.vv v4, v1, v2           # FMAX
    j       .Lvdone
    nop
    nop
    vmv.v.v v4, v1                # FMADD
    vfmadd.vv v4, v2, v3
    j       .Lvdone
    nop
    vmv.v.v v4, v1                # FNMADD
    vfnmadd.vv v4, v2, v3
    j       .Lvdone
    nop
    vfcvt.x.f.v v4, v1            # FCVT_W_S
    j       .Lvdone
    nop
    nop
    vfcvt.xu.f.v v4, v1           # FCVT_WU_S
    j       .Lvdone
    nop
    nop
    vfcvt.rtz.x.f.v v4, v1        # FCVT_W_S_RTZ
    j       .Lvdone
    nop
    nop
    vfcvt.f.x.v v4, v1            # FCVT_S_W
    j       .Lvdone
    nop
    nop
    vfcvt.f.xu.v v4, v1           # FCVT_S_WU
    j       .Lvdone
    nop
    nop
    vmfeq.vv v4, v1, v2           # FEQ
    j       .Lvdone
    nop
    nop
    vmflt.vv v4, v1, v2           # FLT
    j       .Lvdone
    nop
    nop
    vmfle.vv v4, v1, v2           # FLE
    j       .Lvdone
    nop
    nop
    vfclass.v v4, v1              # FCLASS
    j       .Lvdone
    nop
    nop
    vfsgnjn.vv v4, v1, v2         # FSGNJN
    j       .Lvdone
    nop
    nop
    nop                           # FADD_RTZ: no vector form
    j       .Lvdone
    nop
    nop
    nop                           # FADD_RDN: no vector form
    j       .Lvdone
    nop
    nop
    nop                           # FADD_RUP: no vector form
    j       .Lvdone
    nop
    nop
    nop                           # FADD_RMM: no vector form
    j       .Lvdone
    nop
    nop
    nop                           # FCVT_W_RNE: no vector form
    j       .Lvdone
    nop
    nop
    nop                           # FCVT_W_RMM: no vector form
    j       .Lvdone
    nop
    nop
    nop                           # FDIV_RUP: no vector form
    j       .Lvdone
    nop
    nop
    .size fpcorner, . - fpcorner
