/* The SEW-32 vector executors of exec_fast.c, instantiated once per
 * instruction-set variant: the includer defines VF_NAME(x) (the variant's
 * names) and VF_TARGET (its function attribute) and has vt_alu32, vec32_ready
 * and vec32_lanes. Defines VF_NAME(vec_ops)[op][form], form 0 .vv, 1 .vx,
 * 2 .vi; undefines VF_NAME and VF_TARGET. */

/* d = op(vs2, B) in the lanes of m, B a register (.vv) or a scalar: the
 * results first (vd may be a source), then vd; all of it when every lane
 * computes */
static inline __attribute__((always_inline)) int VF_NAME(vec32_run)(vt_device *dev, vt_warp *w,
                                                                    const vt_insn *in,
                                                                    vt_error *err, unsigned op,
                                                                    int form) {
  if (!vec32_ready(w)) return vt_exec_vector(dev, w, in, err);
  const uint32_t m = vec32_lanes(w, in);
  const uint32_t *a = w->v[in->rs2], *b = w->v[in->rs1];
  const uint32_t s = form == 1 ? w->x[in->rs1] : (uint32_t)in->vimm;
  uint32_t r[VT_MAX_LANES];
  for (int i = 0; i < VT_MAX_LANES; i++) r[i] = vt_alu32(op, a[i], form == 0 ? b[i] : s);
  uint32_t *d = w->v[in->rd];
  if (m == 0xffffffffu) {
    memcpy(d, r, sizeof r);
  } else {
    for (int i = 0; i < VT_MAX_LANES; i++) {
      uint32_t lm = 0u - VT_LANE_SET(m, i);
      d[i] = (r[i] & lm) | (d[i] & ~lm);
    }
  }
  w->vstart = 0;
  trace_v(dev, w, in->rd, m);
  return VT_OK;
}

#define VF_OP(NAME, OP)                                                                      \
  VF_TARGET static int VF_NAME(vv_##NAME)(vt_device *dev, vt_warp *w, const vt_insn *in,    \
                                          vt_error *err) {                                  \
    return VF_NAME(vec32_run)(dev, w, in, err, OP, 0);                                      \
  }                                                                                          \
  VF_TARGET static int VF_NAME(vx_##NAME)(vt_device *dev, vt_warp *w, const vt_insn *in,    \
                                          vt_error *err) {                                  \
    return VF_NAME(vec32_run)(dev, w, in, err, OP, 1);                                      \
  }                                                                                          \
  VF_TARGET static int VF_NAME(vi_##NAME)(vt_device *dev, vt_warp *w, const vt_insn *in,    \
                                          vt_error *err) {                                  \
    return VF_NAME(vec32_run)(dev, w, in, err, OP, 2);                                      \
  }
VF_OP(add, VT_SEM_ADD)
VF_OP(sub, VT_SEM_SUB)
VF_OP(and, VT_SEM_AND)
VF_OP(or, VT_SEM_OR)
VF_OP(xor, VT_SEM_XOR)
VF_OP(sll, VT_SEM_SLL)
VF_OP(srl, VT_SEM_SRL)
VF_OP(sra, VT_SEM_SRA)
VF_OP(mul, VT_SEM_MUL)
#undef VF_OP

#define VF_ROW(NAME) {VF_NAME(vv_##NAME), VF_NAME(vx_##NAME), VF_NAME(vi_##NAME)}
static const vt_exec_fn VF_NAME(vec_ops)[][3] = {
    [OP_ADD] = VF_ROW(add), [OP_SUB] = VF_ROW(sub), [OP_AND] = VF_ROW(and),
    [OP_OR] = VF_ROW(or),   [OP_XOR] = VF_ROW(xor), [OP_SLL] = VF_ROW(sll),
    [OP_SRL] = VF_ROW(srl), [OP_SRA] = VF_ROW(sra), [OP_MUL] = VF_ROW(mul),
};
#undef VF_ROW
#undef VF_NAME
#undef VF_TARGET
