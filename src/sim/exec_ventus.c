/* Ventus custom instructions (isa.md 2): vector branches and join with the
 * SIMT stack, setrpc, vadd12/vsub12, regext/regexti, endprg, barrier,
 * vfexp, vftta, the flat vl*12/vs*12 and private vl*.v/vs*.v families. */
#include <stdlib.h>

#include "exec_util.h"
#include "fp/fp32.h"

static uint32_t range_lanes(const vt_warp *w) {
  uint32_t hi = w->vl >= 32 ? 0xffffffffu : ((1u << w->vl) - 1u);
  uint32_t lo = w->vstart >= 32 ? 0xffffffffu : ((1u << w->vstart) - 1u);
  return hi & ~lo & w->lane_limit;
}

static int push(vt_device *dev, vt_warp *w, uint32_t r_pc, uint32_t else_pc, uint32_t else_mask,
                vt_error *err) {
  unsigned limit = dev->cfg.simt_depth ? dev->cfg.simt_depth : VT_SIMT_MAX_DEPTH;
  if (w->depth >= limit) {
    vt_err_set(err, VT_ERR_SIMT_OVERFLOW, "SIMT stack overflow (depth %u)", w->depth);
    return VT_ERR_SIMT_OVERFLOW;
  }
  if (w->depth == w->cap) {
    unsigned cap = w->cap ? 2 * w->cap : 16;
    vt_simt_entry *s = realloc(w->stack, cap * sizeof *s);
    if (!s) {
      vt_err_set(err, VT_ERR_NOMEM, "out of host memory (SIMT stack)");
      return VT_ERR_NOMEM;
    }
    w->stack = s;
    w->cap = cap;
  }
  w->stack[w->depth++] = (vt_simt_entry){r_pc, else_pc, else_mask};
  return VT_OK;
}

/* isa.md 2.1 exactly (spec README decision 4) */
static int vbranch(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  if (w->vill) {
    vt_err_set(err, VT_ERR_VILL, "vector branch while vtype is illegal (no vsetvli executed)");
    return VT_ERR_VILL;
  }
  const uint32_t *a = w->v[in->rs2], *b = w->v[in->rs1];
  uint32_t r_mask = w->mask, active = r_mask & range_lanes(w), else_mask = 0;
  for (int i = 0; i < VT_MAX_LANES; i++) {
    if (!((active >> i) & 1)) continue;
    bool t;
    switch (in->id) {
    case VT_INSN_VBEQ: t = a[i] == b[i]; break;
    case VT_INSN_VBNE: t = a[i] != b[i]; break;
    case VT_INSN_VBLT: t = (int32_t)a[i] < (int32_t)b[i]; break;
    case VT_INSN_VBGE: t = (int32_t)a[i] >= (int32_t)b[i]; break;
    case VT_INSN_VBLTU: t = a[i] < b[i]; break;
    default: t = a[i] >= b[i]; break;
    }
    if (t) else_mask |= 1u << i;
  }
  uint32_t if_mask = ~else_mask & r_mask & w->lane_limit;
  else_mask &= w->lane_limit;
  uint32_t rpc = w->csr[CSR_RPC], else_pc = in->pc + (uint32_t)in->imm;
  dev->stats.vbranches++;
  if (else_mask == 0) {
    w->mask = if_mask;
  } else if (if_mask == 0) {
    w->mask = else_mask;
    in->next_pc = else_pc;
  } else {
    dev->stats.divergent_vbranches++;
    int rc = push(dev, w, rpc, rpc, r_mask, err);
    if (rc) return rc;
    if (vt_popcount32(if_mask) < vt_popcount32(else_mask)) {
      rc = push(dev, w, rpc, else_pc, else_mask, err);
      w->mask = if_mask;
    } else {
      rc = push(dev, w, rpc, in->pc + 4, if_mask, err);
      w->mask = else_mask;
      in->next_pc = else_pc;
    }
    if (rc) return rc;
    if (w->depth > dev->stats.max_simt_depth) dev->stats.max_simt_depth = w->depth;
  }
  w->vstart = 0;
  return VT_OK;
}

/* isa.md 2.2: pop while pc == top.r_pc (each pop re-executes the join) */
static void join(vt_warp *w, vt_insn *in) {
  if (w->depth > 0 && w->stack[w->depth - 1].r_pc == in->pc) {
    vt_simt_entry e = w->stack[--w->depth];
    w->mask = e.else_mask;
    in->next_pc = e.else_pc;
  }
}

/* Per-lane loads and stores of the custom families, lanes in [0, vl) under
 * the SIMT mask (no v0 masking):
 * - flat vl*12 / vs*12 (isa.md 2.8.1): addr = vs1[i] + sext12(imm);
 * - private vl*.v / vs*.v (spec README decision 9): a = vs1[i] + imm,
 *   addr = PDS + (a & ~3) * numw * numt + 4 * (tid + lane) + (a & 3),
 *   with a & 3 dropped for word accesses. */
static int lane_mem(vt_device *dev, vt_warp *w, vt_insn *in, unsigned size, bool store,
                    bool is_signed, bool is_private, vt_error *err) {
  if (store && !is_private && w->vill) {
    vt_err_set(err, VT_ERR_VILL, "vector store while vtype is illegal (no vsetvli executed)");
    return VT_ERR_VILL;
  }
  uint32_t m = w->mask & range_lanes(w);
  const uint32_t *base = w->v[in->rs1];
  uint32_t *d = w->v[store ? in->rs2 : in->rd];
  uint32_t pds = w->csr[CSR_PDS], stride = w->csr[CSR_NUMW] * w->csr[CSR_NUMT];
  uint32_t tid = w->csr[CSR_TID];
  for (int i = 0; i < VT_MAX_LANES; i++) {
    if (!((m >> i) & 1)) continue;
    uint32_t a = base[i] + (uint32_t)in->imm, addr = a;
    if (is_private) {
      addr = pds + (a & ~3u) * stride + 4u * (tid + (uint32_t)i);
      if (size != 4) addr += a & 3;
    }
    uint8_t *p = vt_sim_access(dev, w, addr, size, store, err);
    if (!p) return err->status;
    if (store) {
      uint32_t v = size == 4 ? d[i] : d[i] & ((1u << (8 * size)) - 1);
      store_le(p, v, size);
      trace_mem(dev, addr, v, size, true, (unsigned)i);
    } else {
      uint32_t v = load_le(p, size);
      if (is_signed && size < 4) v = sext(v, 8 * size);
      d[i] = v;
      trace_mem(dev, addr, v, size, false, (unsigned)i);
    }
  }
  if (!store) trace_v(dev, w, in->rd, m);
  w->vstart = 0;
  return VT_OK;
}

static int vftta(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  if ((w->mstatus & VT_MSTATUS_FS) == 0 || w->frm > 4) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: FP disabled or bad frm");
    return VT_ERR_ILLEGAL;
  }
  uint32_t m = w->mask & range_lanes(w) & (in->vm ? 0xffffffffu : w->v[0][0]);
  uint32_t *d = w->v[in->rd];
  const uint32_t *s1 = w->v[in->rs1], *s2 = w->v[in->rs2];
  unsigned vl = w->vl, fl = 0;
  for (unsigned i = 0; i < VT_MAX_LANES; i++) {
    if (!((m >> i) & 1)) continue;
    if (i >= vl / 2) { /* isa.md 2.7: upper lanes get the pattern i + 7 */
      d[i] = i + 7;
      continue;
    }
    for (unsigned j = 0; j < vl / 4; j++) {
      unsigned ia = 8 * (i >> 2) + j, ib = 8 * (i & 3) + j;
      uint32_t x = ia < VT_MAX_LANES ? s1[ia] : 0, y = ib < VT_MAX_LANES ? s2[ib] : 0;
      d[i] = vt_f32_fma(x, y, d[i], (int)w->frm, &fl);
    }
  }
  if (fl) {
    w->fflags |= fl;
    trace_csr(dev, 0x001, w->fflags);
  }
  trace_v(dev, w, in->rd, m);
  return VT_OK;
}

int vt_exec_ventus(vt_device *dev, vt_warp *w, vt_insn *in, vt_error *err) {
  switch (in->id) {
  case VT_INSN_VBEQ: case VT_INSN_VBNE: case VT_INSN_VBLT:
  case VT_INSN_VBGE: case VT_INSN_VBLTU: case VT_INSN_VBGEU:
    return vbranch(dev, w, in, err);
  case VT_INSN_JOIN:
    join(w, in);
    return VT_OK;
  case VT_INSN_SETRPC: {
    uint32_t v = w->x[in->rs1] + (uint32_t)in->imm;
    w->csr[CSR_RPC] = v;
    trace_csr(dev, 0x80c, v);
    write_x(dev, w, in->rd, v);
    return VT_OK;
  }
  case VT_INSN_VADD12_VI: case VT_INSN_VSUB12_VI: {
    /* sign-extended imm12 (decision 2), SIMT mask only */
    uint32_t m = w->mask & range_lanes(w), imm = (uint32_t)in->imm;
    uint32_t *d = w->v[in->rd];
    const uint32_t *s = w->v[in->rs1];
    uint32_t lm[VT_MAX_LANES];
    for (int i = 0; i < VT_MAX_LANES; i++) lm[i] = 0u - ((m >> i) & 1u);
    if (in->id == VT_INSN_VADD12_VI)
      for (int i = 0; i < VT_MAX_LANES; i++) d[i] = ((s[i] + imm) & lm[i]) | (d[i] & ~lm[i]);
    else
      for (int i = 0; i < VT_MAX_LANES; i++) d[i] = ((s[i] - imm) & lm[i]) | (d[i] & ~lm[i]);
    trace_v(dev, w, in->rd, m);
    return VT_OK;
  }
  case VT_INSN_REGEXT:
    w->ext = (uint16_t)((uint32_t)in->imm & 0xfff);
    w->ext_valid = true;
    return VT_OK;
  case VT_INSN_REGEXTI: {
    /* rd high bits in imm[2:0], rs2 high bits in imm[5:3], immediate high
     * bits in imm[11:6] (isa.md 2.6) */
    uint32_t imm = (uint32_t)in->imm & 0xfff;
    w->ext = (uint16_t)((imm & 7) | (((imm >> 3) & 7) << 6));
    w->ext_valid = true;
    w->exti_hi = (int32_t)(imm >> 6);
    w->exti_valid = true;
    return VT_OK;
  }
  case VT_INSN_ENDPRG:
    w->state = WARP_ENDED;
    vt_resv_drop(dev, w);
    return VT_OK;
  case VT_INSN_BARRIER: case VT_INSN_BARRIERSUB:
    /* the scheduler releases the warp when every non-ended warp of the
     * workgroup waits (decision 5) */
    w->state = WARP_BARRIER;
    dev->stats.barriers++;
    return VT_OK;
  case VT_INSN_VFEXP: {
    uint32_t m = w->mask & range_lanes(w) & (in->vm ? 0xffffffffu : w->v[0][0]);
    uint32_t *d = w->v[in->rd];
    const uint32_t *s = w->v[in->rs2];
    for (int i = 0; i < VT_MAX_LANES; i++)
      if ((m >> i) & 1) d[i] = vt_f32_exp_ventus(s[i]);
    trace_v(dev, w, in->rd, m);
    return VT_OK;
  }
  case VT_INSN_VFTTA_VV: return vftta(dev, w, in, err);
  case VT_INSN_VLB12_V: return lane_mem(dev, w, in, 1, false, true, false, err);
  case VT_INSN_VLH12_V: return lane_mem(dev, w, in, 2, false, true, false, err);
  case VT_INSN_VLW12_V: return lane_mem(dev, w, in, 4, false, false, false, err);
  case VT_INSN_VLBU12_V: return lane_mem(dev, w, in, 1, false, false, false, err);
  case VT_INSN_VLHU12_V: return lane_mem(dev, w, in, 2, false, false, false, err);
  case VT_INSN_VSB12_V: return lane_mem(dev, w, in, 1, true, false, false, err);
  case VT_INSN_VSH12_V: return lane_mem(dev, w, in, 2, true, false, false, err);
  case VT_INSN_VSW12_V: return lane_mem(dev, w, in, 4, true, false, false, err);
  case VT_INSN_VLB_V: return lane_mem(dev, w, in, 1, false, true, true, err);
  case VT_INSN_VLH_V: return lane_mem(dev, w, in, 2, false, true, true, err);
  case VT_INSN_VLW_V: return lane_mem(dev, w, in, 4, false, false, true, err);
  case VT_INSN_VLBU_V: return lane_mem(dev, w, in, 1, false, false, true, err);
  case VT_INSN_VLHU_V: return lane_mem(dev, w, in, 2, false, false, true, err);
  case VT_INSN_VSB_V: return lane_mem(dev, w, in, 1, true, false, true, err);
  case VT_INSN_VSH_V: return lane_mem(dev, w, in, 2, true, false, true, err);
  case VT_INSN_VSW_V: return lane_mem(dev, w, in, 4, true, false, true, err);
  default:
    vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction");
    return VT_ERR_ILLEGAL;
  }
}
