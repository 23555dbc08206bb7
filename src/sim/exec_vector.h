/* The vector executors (RVV with the Ventus per-lane model, isa.md 1.4 and
 * 3): what exec_vector.c resolves once per instruction and hands to the
 * executor of the instruction's kind. Element access: vreg.h. */
#ifndef VT_SIM_EXEC_VECTOR_H
#define VT_SIM_EXEC_VECTOR_H
#include "vreg.h"

/* Largest element width (ELEN): 64 since v2025 (isa2025.md 3.2: SEW 64 on
 * register pairs). The v2.02 rules keep ELEN 32 where v2025 changes nothing:
 * fractional LMUL (3.2.1) and the standard RVV loads and stores (3.2.2). */
#define VT_ELEN 64u
#define VT_ELEN_V202 32u

/* Element widths of an element-wise instruction at the current SEW (from the
 * row's element-width rule): A = vs2, B = vs1 or the scalar, D = vd; cw is
 * the width the operation is computed at (2*SEW for widening and narrowing
 * rows, whose operands are extended first). */
typedef struct vshape {
  unsigned ea, eb, ed, cw;
} vshape;

/* The shape of 'in' at SEW sew and LMUL code lmul; NULL, or the reason it is
 * illegal there. */
const char *vt_vshape(const vt_insn *in, unsigned sew, unsigned lmul, vshape *s);
/* Whether every 64-bit operand of 'in' at shape s names an even register
 * (a pair, isa2025.md 3.2.2/3.2.3). */
bool vt_vpairs_ok(const vt_insn *in, const vshape *s);

/* "illegal instruction: MNEMONIC at SEW = N: REASON" */
int vt_villegal(vt_error *err, const vt_insn *in, unsigned sew, const char *reason);
int vt_vunimplemented(vt_error *err, const vt_insn *in, unsigned sew);
/* "illegal instruction: odd register where a pair is required" */
int vt_vodd_pair(vt_error *err);
/* FP state checks (mstatus.FS, frm); the rounding mode to use or -1 */
int vt_vfp_rm(const vt_warp *w, const vt_insn *in, vt_error *err);
void vt_vfp_flags(vt_device *dev, vt_warp *w, uint32_t flags);

/* Executors. m: the lanes to compute (SIMT mask, [vstart, vl), v0 when
 * vm = 0, or without the SIMT mask for VT_F_NOSIMT rows). */
int vt_vint(vt_device *dev, vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m,
            vt_error *err);
/* vt_vint when every operand is 32 bits wide (SEW 32, single width, no
 * mask output, no NEG/ABS modifiers): the registers' lanes in place */
int vt_vint_sew32(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, vt_error *err);
int vt_vfp(vt_device *dev, vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m,
           vt_error *err);
int vt_vred(vt_device *dev, vt_warp *w, const vt_insn *in, const vshape *s, uint32_t m,
            vt_error *err);
int vt_vperm(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, vt_error *err);
int vt_vmask(vt_device *dev, vt_warp *w, const vt_insn *in, uint32_t m, vt_error *err);
/* The integer bodies (vint_body.h) on w-bit values held in 64-bit
 * containers: d[i] = op(A = a[i], B = b[i]) for the lanes of m (the others
 * keep d[i]); false when op is not an integer element-wise operation. */
bool vt_vint_apply(unsigned width, unsigned op, uint32_t fl, uint64_t *d, const uint64_t *a,
                   const uint64_t *b, uint32_t m, vt_warp *w);
/* VOP64 (isa2025.md 3.8): exec_vop64.c */
int vt_exec_vop64(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
/* loads and stores: RVV (unit, strided, indexed, whole, mask) and the Ventus
 * per-lane families (flat, private) */
int vt_vmem(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err);
#endif
