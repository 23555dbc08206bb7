/* One body per integer vector operation, instantiated per element width by
 * exec_vint.c: it defines VB_W (bits), VB_T / VB_ST (unsigned / signed
 * element type), VB_WT / VB_SWT (twice as wide) and VB_NAME(x), then
 * includes this file.
 *
 * vint_body_W(op, flags, d, a, b, c, m, w) computes, for every lane i with
 * bit i of m set, d[i] = op(A = a[i], B = b[i], D = d[i], carry c[i]) and
 * leaves the other lanes of d as they were. Every lane is computed and the
 * result blended under a lane mask, so the loops are branch-free and the
 * compiler vectorises them (tests/scripts/vectorize_check.sh). Operands are
 * already at this width (widening rows run here at 2*SEW on extended
 * operands); B is never swapped here: the caller swaps for VT_F_REV. */

#define VBL VT_MAX_LANES
#define T VB_T
#define ST VB_ST
#define WT VB_WT
#define SWT VB_SWT
#define SHMASK ((unsigned)VB_W - 1u)

/* the lanes of m as all-ones / all-zeros elements */
#define LANEMASK(lm, m) \
  T lm[VBL];              \
  for (int i = 0; i < VBL; i++) lm[i] = (T)((T)0 - (T)VT_LANE_SET(m, i))

#define BLEND(EXPR)                                      \
  do {                                                   \
    for (int i = 0; i < VBL; i++) {                        \
      T A = a[i], B = b[i], D = d[i];                    \
      (void)A, (void)B, (void)D;                         \
      T R_ = (T)(EXPR);                                  \
      d[i] = (T)((R_ & lm[i]) | (D & (T)~lm[i]));        \
    }                                                    \
  } while (0)

/* lanes one by one: operations with saturation (vxsat) */
#define EACH(EXPR)                                       \
  do {                                                   \
    for (int i = 0; i < VBL; i++) {                        \
      if (!((m >> i) & 1)) continue;                     \
      T A = a[i], B = b[i], D = d[i];                    \
      (void)A, (void)B, (void)D;                         \
      d[i] = (T)(EXPR);                                  \
    }                                                    \
  } while (0)

#define T_MIN ((T)((T)1 << (VB_W - 1)))
#define T_MAX ((T)(T_MIN - 1u))

/* fixed point (RVV 1.0 3.8): rounding increment of v >> s under vxrm */
static inline T VB_NAME(rnd)(unsigned vxrm, WT v, unsigned s) {
  if (s == 0) return 0;
  WT lsb = (v >> s) & 1, half = (v >> (s - 1)) & 1;
  WT rest = s >= 2 ? (v & (((WT)1 << (s - 1)) - 1)) != 0 : 0;
  switch (vxrm & 3) {
  case 0: return (T)half;                       /* rnu */
  case 1: return (T)(half & (rest | lsb));      /* rne */
  case 2: return 0;                             /* rdn */
  default: return (T)((lsb ^ 1) & (half | rest)); /* rod */
  }
}

static T VB_NAME(sat_add)(bool sg, T A, T B, bool *sat) {
  T r = (T)(A + B);
  if (!sg) {
    if (r < A) { *sat = true; return (T)~(T)0; }
    return r;
  }
  if ((ST)((A ^ r) & (B ^ r)) < 0) { *sat = true; return (ST)A < 0 ? T_MIN : T_MAX; }
  return r;
}

static T VB_NAME(sat_sub)(bool sg, T A, T B, bool *sat) {
  T r = (T)(A - B);
  if (!sg) {
    if (B > A) { *sat = true; return 0; }
    return r;
  }
  if ((ST)((A ^ B) & (A ^ r)) < 0) { *sat = true; return (ST)A < 0 ? T_MIN : T_MAX; }
  return r;
}

/* (A + B) >> 1 or (A - B) >> 1 without overflow, rounded by vxrm */
static T VB_NAME(avg)(bool sg, bool sub, unsigned vxrm, T A, T B) {
  WT s;
  if (sg) s = sub ? (WT)((SWT)(ST)A - (SWT)(ST)B) : (WT)((SWT)(ST)A + (SWT)(ST)B);
  else s = sub ? (WT)((WT)A - (WT)B) : (WT)((WT)A + (WT)B);
  WT sh = sg ? (WT)((SWT)s >> 1) : s >> 1;
  return (T)(sh + VB_NAME(rnd)(vxrm, s, 1));
}

/* vsmul: (A * B) >> (W - 1), rounded, saturated */
static T VB_NAME(smul)(unsigned vxrm, T A, T B, bool *sat) {
  if (A == T_MIN && B == T_MIN) { *sat = true; return T_MAX; }
  SWT p = (SWT)(ST)A * (SWT)(ST)B;
  return (T)((T)(p >> (VB_W - 1)) + VB_NAME(rnd)(vxrm, (WT)p, VB_W - 1));
}

/* vnclip(u): A >> B rounded, clipped to half this width (narrowing rows run
 * at 2*SEW) */
static T VB_NAME(nclip)(bool sg, unsigned vxrm, T A, T B, bool *sat) {
  unsigned s = (unsigned)(B & SHMASK), hb = VB_W / 2;
  if (!sg) {
    WT v = (WT)(A >> s) + VB_NAME(rnd)(vxrm, A, s);
    WT hi = ((WT)1 << hb) - 1;
    if (v > hi) { *sat = true; return (T)hi; }
    return (T)v;
  }
  SWT v = (SWT)((ST)A >> s) + (SWT)VB_NAME(rnd)(vxrm, (WT)(SWT)(ST)A, s);
  SWT hi = ((SWT)1 << (hb - 1)) - 1, lo = -hi - 1;
  if (v > hi) { *sat = true; v = hi; }
  if (v < lo) { *sat = true; v = lo; }
  return (T)v;
}

static T VB_NAME(mulh)(uint32_t fl, T A, T B) {
  if ((fl & VT_F_SA) && (fl & VT_F_SB)) return (T)(((SWT)(ST)A * (SWT)(ST)B) >> VB_W);
  if (fl & VT_F_SA) return (T)((WT)((SWT)(ST)A * (SWT)(WT)B) >> VB_W);
  return (T)(((WT)A * (WT)B) >> VB_W);
}

/* comparisons and min/max, signed or unsigned: 0/1 results (isa.md 3.4) */
static bool VB_NAME(cmp)(unsigned op, T d[VBL], const T a[VBL], const T b[VBL], uint32_t m, bool sg) {
  LANEMASK(lm, m);
#define CMP_CASE(SEM_, REL)                                       \
  case SEM_:                                                      \
    if (sg) BLEND((ST)A REL(ST)B); else BLEND(A REL B);           \
    return true
  switch (op) {
  case VT_SEM_EQ: BLEND(A == B); return true;
  case VT_SEM_NE: BLEND(A != B); return true;
  CMP_CASE(VT_SEM_LT, <);
  CMP_CASE(VT_SEM_LE, <=);
  CMP_CASE(VT_SEM_GT, >);
  CMP_CASE(VT_SEM_GE, >=);
  case VT_SEM_MIN:
    if (sg) BLEND((ST)A < (ST)B ? A : B); else BLEND(A < B ? A : B);
    return true;
  case VT_SEM_MAX:
    if (sg) BLEND((ST)A > (ST)B ? A : B); else BLEND(A > B ? A : B);
    return true;
  default: return false;
  }
#undef CMP_CASE
}

/* the fixed-point and saturating operations (they set vxsat) */
static bool VB_NAME(fixed)(unsigned op, uint32_t fl, T d[VBL], const T a[VBL], const T b[VBL],
                           uint32_t m, vt_warp *w) {
  bool sat = false, sg = (fl & VT_F_SA) != 0;
  unsigned rm = w->vxrm & 3;
  switch (op) {
  case VT_SEM_SADD: EACH(VB_NAME(sat_add)(sg, A, B, &sat)); break;
  case VT_SEM_SSUB: EACH(VB_NAME(sat_sub)(sg, A, B, &sat)); break;
  case VT_SEM_AADD: EACH(VB_NAME(avg)(sg, false, rm, A, B)); break;
  case VT_SEM_ASUB: EACH(VB_NAME(avg)(sg, true, rm, A, B)); break;
  case VT_SEM_SMUL: EACH(VB_NAME(smul)(rm, A, B, &sat)); break;
  case VT_SEM_SSRL: EACH((A >> (B & SHMASK)) + VB_NAME(rnd)(rm, A, B & SHMASK)); break;
  case VT_SEM_SSRA:
    EACH((T)((ST)A >> (B & SHMASK)) + VB_NAME(rnd)(rm, (WT)(SWT)(ST)A, B & SHMASK));
    break;
  case VT_SEM_NCLIP: EACH(VB_NAME(nclip)(sg, rm, A, B, &sat)); break;
  default: return false;
  }
  if (sat) w->vxsat = 1;
  return true;
}

/* Returns false when op is not an integer element-wise operation. */
static bool VB_NAME(vint_body)(unsigned op, uint32_t fl, T d[VBL], const T a[VBL], const T b[VBL],
                               const T c[VBL], uint32_t m, vt_warp *w) {
  LANEMASK(lm, m);
  const bool sg = (fl & VT_F_SA) != 0;
  switch (op) {
  case VT_SEM_ADD: BLEND(A + B); return true;
  case VT_SEM_SUB: BLEND(A - B); return true;
  case VT_SEM_AND: BLEND(A & B); return true;
  case VT_SEM_OR: BLEND(A | B); return true;
  case VT_SEM_XOR: BLEND(A ^ B); return true;
  case VT_SEM_SLL: BLEND(A << (B & SHMASK)); return true;
  case VT_SEM_SRL: BLEND(A >> (B & SHMASK)); return true;
  case VT_SEM_SRA: BLEND((ST)A >> (B & SHMASK)); return true;
  case VT_SEM_MUL: BLEND(A * B); return true;
  case VT_SEM_MULH: BLEND(VB_NAME(mulh)(fl, A, B)); return true;
  /* RISC-V division: x / 0 = all ones, x % 0 = x, MIN / -1 = MIN, MIN % -1 = 0 */
  case VT_SEM_DIV:
    if (sg) BLEND(B == 0 ? (T)~(T)0 : (A == T_MIN && B == (T)~(T)0) ? A : (T)((ST)A / (ST)B));
    else BLEND(B == 0 ? (T)~(T)0 : A / B);
    return true;
  case VT_SEM_REM:
    if (sg) BLEND(B == 0 ? A : (A == T_MIN && B == (T)~(T)0) ? 0 : (T)((ST)A % (ST)B));
    else BLEND(B == 0 ? A : A % B);
    return true;
  case VT_SEM_MAC:
    switch (fl & (VT_F_NEGP | VT_F_MADD)) {
    case 0: BLEND(D + A * B); break;                       /* vmacc */
    case VT_F_NEGP: BLEND(D - A * B); break;               /* vnmsac */
    case VT_F_MADD: BLEND(B * D + A); break;               /* vmadd */
    default: BLEND(A - B * D); break;                      /* vnmsub */
    }
    return true;
  case VT_SEM_ADC: { const T *cc = c; BLEND(A + B + cc[i]); return true; }
  case VT_SEM_SBC: { const T *cc = c; BLEND(A - B - cc[i]); return true; }
  case VT_SEM_MADC: { const T *cc = c; BLEND((T)((((WT)A + B + cc[i]) >> VB_W) & 1)); return true; }
  case VT_SEM_MSBC: { const T *cc = c; BLEND((T)((((WT)A - B - cc[i]) >> VB_W) & 1)); return true; }
  case VT_SEM_MERGE: { const T *cc = c; BLEND(cc[i] ? B : A); return true; }
  case VT_SEM_MV: BLEND(B); return true;
  case VT_SEM_EXT: BLEND(A); return true;
  case VT_SEM_ID: BLEND(i); return true;
  default:
    return VB_NAME(cmp)(op, d, a, b, m, sg && (fl & VT_F_SB)) ||
           VB_NAME(fixed)(op, fl, d, a, b, m, w);
  }
}

#undef VBL
#undef T
#undef ST
#undef WT
#undef SWT
#undef SHMASK
#undef LANEMASK
#undef BLEND
#undef EACH
#undef T_MIN
#undef T_MAX
#undef VB_W
#undef VB_T
#undef VB_ST
#undef VB_WT
#undef VB_SWT
#undef VB_NAME
