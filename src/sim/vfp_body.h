/* One body per floating-point vector operation, instantiated per format by
 * exec_vfp.c: it defines VF_W (16, 32 or 64), VF_T (the element type:
 * uint32_t, or uint64_t for binary64), VF_FN(x) (the format's functions
 * vt_f16_x / vt_f32_x / vt_f64_x, src/fp) and VF_NAME(x), then includes this
 * file.
 *
 * vfp_body_W(op, flags, rm, d, a, b, c, m, fflags): for every lane i of m,
 * d[i] = op(A = a[i] (vs2), B = b[i] (vs1 or the scalar), D = d[i]), with
 * c[i] the v0 bit of merges. Operands are already in this format (widening
 * rows run here on widened operands); REV rows arrive swapped. */

#define VFL VT_MAX_LANES
#define SIGN ((VF_T)1 << (VF_W - 1))

#define EACH(EXPR)                                       \
  do {                                                   \
    for (int i = 0; i < VFL; i++) {                        \
      if (!((m >> i) & 1)) continue;                     \
      VF_T A = a[i], B = b[i], D = d[i];                 \
      (void)A, (void)B, (void)D;                         \
      d[i] = (VF_T)(EXPR);                               \
    }                                                    \
  } while (0)

/* fused multiply-add of the vector forms: vd = +-(vs1 * vd|vs2) +- (vs2|vd) */
static VF_T VF_NAME(fma)(uint32_t fl, int rm, VF_T A, VF_T B, VF_T D, uint32_t *fx) {
  VF_T x = B, y = (fl & VT_F_MADD) ? D : A, z = (fl & VT_F_MADD) ? A : D;
  if (fl & VT_F_NEGP) x ^= SIGN;
  if (fl & VT_F_NEGC) z ^= SIGN;
  return VF_FN(fma)(x, y, z, rm, fx);
}

/* Returns false when op is not a floating-point element-wise operation. */
static bool VF_NAME(vfp_body)(unsigned op, uint32_t fl, int rm, VF_T d[VFL], const VF_T a[VFL],
                              const VF_T b[VFL], const VF_T c[VFL], uint32_t m, uint32_t *fx) {
  switch (op) {
  case VT_SEM_FADD: EACH(VF_FN(add)(A, B, rm, fx)); return true;
  case VT_SEM_FSUB: EACH(VF_FN(sub)(A, B, rm, fx)); return true;
  case VT_SEM_FMUL: EACH(VF_FN(mul)(A, B, rm, fx)); return true;
  case VT_SEM_FDIV: EACH(VF_FN(div)(A, B, rm, fx)); return true;
  case VT_SEM_FSQRT: EACH(VF_FN(sqrt)(A, rm, fx)); return true;
  case VT_SEM_FMIN: EACH(VF_FN(min)(A, B, fx)); return true;
  case VT_SEM_FMAX: EACH(VF_FN(max)(A, B, fx)); return true;
  case VT_SEM_FSGNJ: EACH(VF_FN(sgnj)(A, B)); return true;
  case VT_SEM_FSGNJN: EACH(VF_FN(sgnjn)(A, B)); return true;
  case VT_SEM_FSGNJX: EACH(VF_FN(sgnjx)(A, B)); return true;
  /* Ventus: compares write 0/1 per element (isa.md 3.4) */
  case VT_SEM_FEQ: EACH(VF_FN(eq)(A, B, fx)); return true;
  case VT_SEM_FNE: EACH(!VF_FN(eq)(A, B, fx)); return true;
  case VT_SEM_FLT: EACH(VF_FN(lt)(A, B, fx)); return true;
  case VT_SEM_FLE: EACH(VF_FN(le)(A, B, fx)); return true;
  case VT_SEM_FGT: EACH(VF_FN(lt)(B, A, fx)); return true;
  case VT_SEM_FGE: EACH(VF_FN(le)(B, A, fx)); return true;
  case VT_SEM_FCLASS: EACH(VF_FN(classify)(A)); return true;
  case VT_SEM_FREC7: EACH(VF_FN(rec7)(A, rm, fx)); return true;
  case VT_SEM_FRSQRT7: EACH(VF_FN(rsqrt7)(A, fx)); return true;
  case VT_SEM_FMA: EACH(VF_NAME(fma)(fl, rm, A, B, D, fx)); return true;
  case VT_SEM_MV: EACH(B); return true;
  case VT_SEM_MERGE: { const VF_T *cc = c; EACH(cc[i] ? B : A); return true; }
  default: return false;
  }
}

#undef VFL
#undef SIGN
#undef EACH
#undef VF_W
#undef VF_T
#undef VF_FN
#undef VF_NAME
