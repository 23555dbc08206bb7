/* The tensor units (isa2025.md 6.7): MMA and MMA64 run on one of mma_units
 * units per SM. An MMA reads its A, B and C groups (mma_regs_per_cycle
 * registers a cycle), computes M*N*K multiply-accumulates at the rate of
 * its A/B type, passes the pipeline and writes D back:
 *
 *   work     = M*N*K / rate(type)
 *   read     = ceil((na + nb + nc) / mma_regs_per_cycle)
 *   latency  = read + mma_pipe_latency + ceil(work) + ceil(nc / mma_wb_regs_per_cycle)
 *   interval = max(read, ceil(work))   before the unit accepts the next MMA
 *
 * The scoreboard covers whole register groups: every register of A, B and C
 * is a source, every register of D is written. */
#include "timing_internal.h"

static inline bool pending(const uint64_t *b, unsigned r) { return (b[r >> 6] >> (r & 63)) & 1; }

static uint32_t rate(const vt_settings *c, vt_mma_type t) {
  switch (t) {
  case VT_MMA_F32: return c->mma_macs_fp32;
  case VT_MMA_F16: case VT_MMA_BF16: return c->mma_macs_fp16;
  case VT_MMA_S8: case VT_MMA_U8: return c->mma_macs_int8;
  case VT_MMA_S4: case VT_MMA_U4: return c->mma_macs_int4;
  case VT_MMA_B1AND: case VT_MMA_B1XOR: return c->mma_macs_b1;
  default: return c->mma_macs_fp8; /* FP8, FP6, FP4 */
  }
}

static uint32_t ceil_div(uint64_t a, uint64_t b) { return (uint32_t)((a + b - 1) / b); }

/* the op's destination group, source groups (for the bank arbitration: the
 * first register of each) and timing */
void tm_mma_prepare(vt_timing *t, tm_op *op, const vt_insn *in, unsigned slot) {
  const vt_settings *c = &t->cfg;
  vt_mma_op m;
  vt_mma_geom g;
  op->tc_lat = op->tc_ii = 1;
  op->tc_macs = 0;
  if (vt_step_mma(in, &m, &g) != 0) return; /* the functional run reports it */
  op->dst_kind = TM_R_V;
  op->dst_reg = (uint16_t)m.vd;
  op->dst_n = (uint8_t)g.nc;
  const unsigned src[3] = {m.vs1, m.vs2, m.vs3};
  op->nsrc = 0;
  op->pending = 0;
  for (unsigned j = 0; j < 3; j++) {
    op->src_kind[j] = TM_R_V;
    op->src_reg[j] = (uint16_t)src[j];
    op->src_bank[j] = (uint8_t)((slot + src[j]) % c->reg_banks);
    op->pending |= (uint8_t)(1u << j);
    op->nsrc++;
  }
  uint64_t macs = (uint64_t)g.m * g.n * g.k;
  uint32_t read = ceil_div((uint64_t)g.na + g.nb + g.nc, c->mma_regs_per_cycle);
  uint32_t work = ceil_div(macs, rate(c, m.form.type));
  op->tc_lat = read + c->mma_pipe_latency + work + ceil_div((uint64_t)g.nc, c->mma_wb_regs_per_cycle);
  op->tc_ii = read > work ? read : work;
  op->tc_macs = (uint32_t)macs;
}

static bool group_pending(const uint64_t *b, unsigned base, int n) {
  for (int r = 0; r < n; r++)
    if (pending(b, base + (unsigned)r)) return true;
  return false;
}

/* RAW on A, B, C and WAW on D; *mem when a load result is awaited */
bool tm_mma_hazard(const tm_warp *w, const vt_insn *in, bool *mem) {
  vt_mma_op m;
  vt_mma_geom g;
  *mem = false;
  if (vt_step_mma(in, &m, &g) != 0) return false;
  const unsigned base[4] = {m.vs1, m.vs2, m.vs3, m.vd};
  const int n[4] = {g.na, g.nb, g.nc, g.nc};
  bool hz = false;
  for (int k = 0; k < 4; k++) {
    if (base[k] + (unsigned)n[k] > 256) continue; /* an illegal group: the run stops at it */
    hz |= group_pending(w->vpend, base[k], n[k]);
    *mem |= group_pending(w->vmem, base[k], n[k]);
  }
  return hz;
}

/* the D group becomes pending at dispatch */
void tm_mma_mark(tm_warp *w, const tm_op *op) {
  for (unsigned r = 0; r < op->dst_n && op->dst_reg + r < 256; r++) {
    unsigned reg = op->dst_reg + r;
    w->vpend[reg >> 6] |= 1ull << (reg & 63);
  }
}

bool tm_tc_ready(vt_timing *t, unsigned sm) {
  const tm_sm *s = &t->sms[sm];
  uint64_t first = TM_NEVER;
  for (unsigned u = 0; u < t->cfg.mma_units && u < TM_MAX_TC; u++) {
    if (s->tc_free[u] <= t->now) return true;
    if (s->tc_free[u] < first) first = s->tc_free[u];
  }
  tm_wake(t, first);
  return false;
}

/* starts op on the first free unit; returns its result time */
uint64_t tm_tc_issue(vt_timing *t, unsigned sm, tm_op *op, uint64_t now) {
  tm_sm *s = &t->sms[sm];
  unsigned u = 0;
  while (u + 1 < t->cfg.mma_units && u + 1 < TM_MAX_TC && s->tc_free[u] > now) u++;
  s->tc_free[u] = now + op->tc_ii;
  s->c[VT_C_mma_insns]++;
  s->c[VT_C_mma_macs] += op->tc_macs;
  s->c[VT_C_tensor_busy] += op->tc_ii;
  if (t->tl) tm_tl_span(t, sm, TM_TL_TC + u, op->name, now, now + op->tc_lat);
  return now + op->tc_lat;
}
