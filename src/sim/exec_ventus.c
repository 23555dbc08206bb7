/* Ventus custom instructions (isa.md 2): vector branches and join with the
 * SIMT stack, setrpc, vadd12/vsub12, regext/regexti, endprg, barrier,
 * PREFIX/PREFIXI/PREFIX_MEMORY (exec_v2025.c), vfexp, vftta. (The flat and private memory families are in exec_vmem.c.)
 * Dispatch is on the table's operation. */
#include <stdlib.h>

#include "exec_util.h"
#include "lanes.h"
#include "fp/fp32.h"

static uint32_t range_lanes(const vt_warp *w) {
  uint32_t hi = w->vl >= 32 ? 0xffffffffu : ((1u << w->vl) - 1u);
  uint32_t lo = w->vstart >= 32 ? 0xffffffffu : ((1u << w->vstart) - 1u);
  return hi & ~lo & w->lane_limit;
}

static int push(vt_device *dev, vt_warp *w, uint32_t r_pc, uint32_t else_pc, uint32_t else_mask,
                vt_error *err) {
  unsigned limit = dev->cfg.simt_depth;
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

/* the lanes i where a[i] OP b[i] holds, as a lane mask (branch-free: the
 * loops vectorise) */
#define CMP_LANES(EXPR)                                                      \
  for (int i = 0; i < VT_MAX_LANES; i++) bits |= (0u - (uint32_t)(EXPR)) & vt_lane_bit[i]
static uint32_t compare_lanes(unsigned sem, bool sg, const uint32_t *a, const uint32_t *b) {
  uint32_t bits = 0;
  switch (sem) {
  case VT_SEM_EQ: CMP_LANES(a[i] == b[i]); break;
  case VT_SEM_NE: CMP_LANES(a[i] != b[i]); break;
  case VT_SEM_LT:
    if (sg) CMP_LANES((int32_t)a[i] < (int32_t)b[i]);
    else CMP_LANES(a[i] < b[i]);
    break;
  default: /* GE */
    if (sg) CMP_LANES((int32_t)a[i] >= (int32_t)b[i]);
    else CMP_LANES(a[i] >= b[i]);
    break;
  }
  return bits;
}

/* isa.md 2.1 exactly (spec README decision 4) */
static int vbranch(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  if (w->vill) {
    vt_err_set(err, VT_ERR_VILL, "vector branch while vtype is illegal (no vsetvli executed)");
    return VT_ERR_VILL;
  }
  const uint32_t *a = w->v[in->rs2], *b = w->v[in->rs1];
  const bool sg = (in->d->flags & VT_F_SA) != 0;
  uint32_t r_mask = w->mask, active = r_mask & range_lanes(w);
  uint32_t else_mask = compare_lanes(in->d->sem, sg, a, b) & active;
  uint32_t if_mask = ~else_mask & r_mask & w->lane_limit;
  else_mask &= w->lane_limit;
  uint32_t rpc = WCSR(w, RPC), else_pc = in->pc + (uint32_t)in->imm;
  dev->ctr[VT_C_vector_branches]++;
  if (else_mask == 0) {
    w->mask = if_mask;
  } else if (if_mask == 0) {
    w->mask = else_mask;
    w->npc = else_pc;
  } else {
    dev->ctr[VT_C_divergent_vector_branches]++;
    int rc = push(dev, w, rpc, rpc, r_mask, err);
    if (rc) return rc;
    if (vt_popcount32(if_mask) < vt_popcount32(else_mask)) {
      rc = push(dev, w, rpc, else_pc, else_mask, err);
      w->mask = if_mask;
    } else {
      rc = push(dev, w, rpc, in->pc + 4, if_mask, err);
      w->mask = else_mask;
      w->npc = else_pc;
    }
    if (rc) return rc;
    if (w->depth > dev->ctr[VT_C_max_simt_depth]) dev->ctr[VT_C_max_simt_depth] = w->depth;
  }
  w->vstart = 0;
  return VT_OK;
}

/* isa.md 2.2: pop while pc == top.r_pc (each pop re-executes the join) */
static void join(vt_warp *w, const vt_insn *in) {
  if (w->depth > 0 && w->stack[w->depth - 1].r_pc == in->pc) {
    vt_simt_entry e = w->stack[--w->depth];
    w->mask = e.else_mask;
    w->npc = e.else_pc;
  }
}

static int vftta(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
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
    trace_csr(dev, VT_CSR_FFLAGS, w->fflags);
  }
  trace_v(dev, w, in->rd, m);
  return VT_OK;
}

static void add12(vt_device *dev, vt_warp *w, const vt_insn *in) {
  /* sign-extended imm12 (decision 2), SIMT mask only */
  uint32_t m = w->mask & range_lanes(w), imm = (uint32_t)in->imm;
  if (in->d->sem == VT_SEM_SUB) imm = 0u - imm;
  uint32_t *d = w->v[in->rd];
  const uint32_t *s = w->v[in->rs1];
  uint32_t lm[VT_MAX_LANES];
  for (int i = 0; i < VT_MAX_LANES; i++) lm[i] = 0u - VT_LANE_SET(m, i);
  for (int i = 0; i < VT_MAX_LANES; i++) d[i] = ((s[i] + imm) & lm[i]) | (d[i] & ~lm[i]);
  trace_v(dev, w, in->rd, m);
}

static void vfexp(vt_device *dev, vt_warp *w, const vt_insn *in) {
  uint32_t m = w->mask & range_lanes(w) & (in->vm ? 0xffffffffu : w->v[0][0]);
  uint32_t *d = w->v[in->rd];
  const uint32_t *s = w->v[in->rs2];
  for (int i = 0; i < VT_MAX_LANES; i++)
    if ((m >> i) & 1) d[i] = vt_f32_exp_ventus(s[i]);
  trace_v(dev, w, in->rd, m);
}

/* endprg retires the warp even when divergent (spec README decision 5); SIMT
 * entries still pending mean a divergent branch whose join was never
 * reached: a warning, or an error with the strict setting */
static int endprg(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  if (w->depth > 0) {
    if (dev->cfg.strict) {
      vt_err_set(err, VT_ERR_STRICT,
                 "the warp ended with %u SIMT-stack entr%s pending (a divergent branch whose "
                 "join was never reached; strict)", w->depth, w->depth == 1 ? "y" : "ies");
      return VT_ERR_STRICT;
    }
    vt_sim_warn(dev,
                "SM %u, workgroup %u, warp %u, pc 0x%08x: the warp ended with %u SIMT-stack "
                "entr%s pending (a divergent branch whose join was never reached)",
                dev->cur_sm, w->wg->id, w->wid, in->pc, w->depth, w->depth == 1 ? "y" : "ies");
  }
  w->state = WARP_ENDED;
  vt_resv_drop(dev, w);
  return VT_OK;
}

int vt_exec_vbranch(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  return vbranch(dev, w, in, err);
}

int vt_exec_join(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  (void)dev, (void)err;
  join(w, in);
  return VT_OK;
}

int vt_exec_setrpc(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  (void)err;
  uint32_t v = w->x[in->rs1] + (uint32_t)in->imm;
  WCSR(w, RPC) = v;
  trace_csr(dev, VT_CSR_RPC, v);
  write_x(dev, w, in->rd, v);
  return VT_OK;
}

int vt_exec_ventus(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  switch (in->d->sem) {
  case VT_SEM_EQ: case VT_SEM_NE: case VT_SEM_LT: case VT_SEM_GE:
    return vt_exec_vbranch(dev, w, in, err);
  case VT_SEM_JOIN: return vt_exec_join(dev, w, in, err);
  case VT_SEM_SETRPC: return vt_exec_setrpc(dev, w, in, err);
  case VT_SEM_ADD: case VT_SEM_SUB: add12(dev, w, in); return VT_OK;
  case VT_SEM_REGEXT: case VT_SEM_REGEXTI: case VT_SEM_PREFIX: case VT_SEM_PREFIXI:
  case VT_SEM_PREFIX_MEM:
    return vt_exec_prefix(w, in, err);
  case VT_SEM_ENDPRG: return endprg(dev, w, in, err);
  case VT_SEM_BARRIER:
    /* the scheduler releases the warp when every non-ended warp of the
     * workgroup waits (decision 5) */
    w->state = WARP_BARRIER;
    dev->ctr[VT_C_barriers]++;
    return VT_OK;
  case VT_SEM_FEXP: case VT_SEM_TTA:
    if (!w->vill && ((w->vtype >> 3) & 7) == 3) { /* SEW 64 (isa2025.md 3.2.2) */
      vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: %s at SEW = 64", in->d->mnemonic);
      return VT_ERR_ILLEGAL;
    }
    if (in->d->sem == VT_SEM_TTA) return vftta(dev, w, in, err);
    vfexp(dev, w, in);
    return VT_OK;
  default:
    vt_err_set(err, VT_ERR_ILLEGAL, "unimplemented instruction");
    return VT_ERR_ILLEGAL;
  }
}
