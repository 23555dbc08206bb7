/* One SM cycle (uarch.md 2): issue from the collector units to the
 * functional units (1 X + 1 V, or with issue_single the lowest ready unit
 * only), operand collection with register-bank
 * arbitration, dispatch of one X and one V instruction from the warps'
 * instruction buffers into collector units (scoreboard, branch lock, barrier,
 * fence, per-warp LSU limit, one instruction per warp in the collector), the
 * functional execution of the dispatched instruction, fetch, and at the end of
 * the cycle writeback (1 scalar + 1 vector port, fixed priority), which makes
 * cleared scoreboard bits visible in the next cycle. */
#include <string.h>

#include "timing_internal.h"

static inline bool bit(const uint64_t *b, unsigned r) { return (b[r >> 6] >> (r & 63)) & 1; }
static inline void bset(uint64_t *b, unsigned r) { b[r >> 6] |= 1ull << (r & 63); }
static inline void bclr(uint64_t *b, unsigned r) { b[r >> 6] &= ~(1ull << (r & 63)); }

static unsigned field_reg(const vt_insn *in, unsigned f) {
  switch (f) {
  case TM_F_RD: return in->rd;
  case TM_F_RS1: return in->rs1;
  case TM_F_RS2: return in->rs2;
  case TM_F_RS3: return in->rs3;
  case TM_F_VS3: return in->vs3;
  default: return 0;
  }
}

static tm_regs regs_of(const vt_insn *in) {
  return (tm_regs){in->id, (uint16_t)in->rd, (uint16_t)in->rs1, (uint16_t)in->rs2,
                   (uint16_t)in->rs3, (uint16_t)in->vs3, in->vm};
}

static unsigned regs_field(const tm_regs *r, unsigned f) {
  switch (f) {
  case TM_F_RD: return r->rd;
  case TM_F_RS1: return r->rs1;
  case TM_F_RS2: return r->rs2;
  case TM_F_RS3: return r->rs3;
  case TM_F_VS3: return r->vs3;
  default: return 0;
  }
}

/* RAW/WAW on the warp's scoreboard for a recorded instruction's registers
 * (the SlowDown register's stale entry; the head instruction's check in
 * warp_eligible is the same, inline): 0 none, 1 a pending write, 2 a
 * pending write of a memory instruction */
__attribute__((noinline)) static unsigned reg_hazard(const vt_timing *t, const tm_warp *w,
                                                     const tm_regs *r) {
  const tm_iinfo *info = &t->info[r->id];
  bool hz = false, mem = false;
  for (unsigned j = 0; j < info->nsrc; j++) {
    unsigned reg = regs_field(r, info->src[j].field);
    if (info->src[j].kind == TM_R_X) {
      if (reg && bit(w->xpend, reg)) hz = true, mem |= bit(w->xmem, reg);
    } else if (bit(w->vpend, reg)) {
      hz = true, mem |= bit(w->vmem, reg);
    }
  }
  if ((info->flags & TM_I_MASKABLE) && !r->vm && bit(w->vpend, 0))
    hz = true, mem |= bit(w->vmem, 0);
  if (info->dst_kind == TM_R_X && r->rd && bit(w->xpend, r->rd))
    hz = true, mem |= bit(w->xmem, r->rd);
  if (info->dst_kind == TM_R_V && bit(w->vpend, r->rd)) hz = true, mem |= bit(w->vmem, r->rd);
  return hz ? (mem ? 2u : 1u) : 0u;
}

static int op_alloc(vt_timing *t) {
  int i = t->op_free;
  if (i >= 0) t->op_free = t->ops[i].next;
  return i;
}
static void op_release(vt_timing *t, int i) {
  t->ops[i].next = t->op_free;
  t->op_free = i;
}

/* ---------------- writeback ---------------- */

/* writeback priority over units (X: ALU > FPU > LSU > CSR > SFU > MUL;
 * V: vALU > FPU > LSU > SFU > MUL > TC) */
static const uint8_t wb_order[] = {TM_U_ALU, TM_U_VALU, TM_U_FPU, TM_U_LSU, TM_U_CSR,
                                   TM_U_SFU, TM_U_MUL, TM_U_TC};

static void complete(vt_timing *t, unsigned smi, int oi) {
  tm_sm *s = &t->sms[smi];
  tm_op *op = &t->ops[oi];
  tm_warp *w = &s->warps[op->warp];
  for (unsigned k = 0; k < op->dst_n; k++) {
    unsigned r = op->dst_reg + k;
    if (r >= VT_NUM_XREGS) break;
    if (op->dst_kind == TM_R_X && r) {
      bclr(w->xpend, r);
      bclr(w->xmem, r);
    } else if (op->dst_kind == TM_R_V) {
      bclr(w->vpend, r);
      bclr(w->vmem, r);
    }
  }
  /* the branch outcome reaches the warp scheduler: redirect, unlock */
  if (op->redirect) tm_ibuf_flush(s, w, op->target);
  if ((op->flags & TM_I_BRANCH) || op->redirect) w->branch_lock = false;
  if (op->flags & TM_I_MEM) {
    w->lsu_out--;
    s->lsu_mshr_used--;
  }
  w->inflight--;
  op_release(t, oi);
  if (w->ended) tm_warp_retire_check(t, smi, op->warp);
}

void tm_writeback(vt_timing *t, unsigned smi) {
  tm_sm *s = &t->sms[smi];
  uint64_t now = t->now;
  bool port[3] = {false, false, false};
  if (!s->uq_busy) return;
  for (unsigned k = 0; k < sizeof wb_order; k++) {
    if (!((s->uq_busy >> wb_order[k]) & 1u)) continue;
    tm_unitq *q = &s->uq[wb_order[k]];
    if (q->head_ready > now) {
      tm_wake(t, q->head_ready);
      continue;
    }
    int oi = q->q[q->head];
    tm_op *op = &t->ops[oi];
    unsigned p = op->dst_kind == TM_R_X ? (op->dst_reg ? 1 : 0) : op->dst_kind == TM_R_V ? 2 : 0;
    if (p && port[p]) {
      TMC(t, smi, wb_conflicts)++;
      tm_wake(t, now + 1);
      continue;
    }
    port[p] = p != 0;
    q->head = (q->head + 1) % TM_UQ;
    q->n--;
    if (q->n)
      q->head_ready = t->ops[q->q[q->head]].ready;
    else
      s->uq_busy &= ~(1u << wb_order[k]);
    t->progress = true;
    complete(t, smi, oi);
  }
}

/* ---------------- issue ---------------- */

static unsigned unit_capacity(const vt_timing *t, unsigned u) {
  const vt_settings *c = &t->cfg;
  switch (u) {
  case TM_U_ALU: return c->lat_alu + 1;
  case TM_U_CSR: return c->lat_csr + 1;
  case TM_U_VALU: return c->lat_valu + 1;
  case TM_U_MUL: return c->lat_mul + 1;
  case TM_U_FPU: {
    uint32_t m = c->lat_fma;
    if (c->lat_fadd > m) m = c->lat_fadd;
    if (c->lat_fmul > m) m = c->lat_fmul;
    if (c->lat_fp64_add > m) m = c->lat_fp64_add;
    if (c->lat_fp64_mul > m) m = c->lat_fp64_mul;
    if (c->lat_fp64_fma > m) m = c->lat_fp64_fma;
    return m + 1;
  }
  case TM_U_TC: return t->lat_tc + 1;
  default: return 2;
  }
}

static bool unit_ready(vt_timing *t, tm_sm *s, unsigned u) {
  uint64_t now = t->now;
  tm_unitq *q = &s->uq[u];
  if (q->n >= TM_UQ - 1) return false;
  if (s->unit_free[u] > now) { /* a multi-pass instruction (64-bit elements, binary64) */
    tm_wake(t, s->unit_free[u]);
    return false;
  }
  switch (u) {
  case TM_U_CTRL: return true;
  case TM_U_SFU:
    if (s->sfu_free > now) {
      tm_wake(t, s->sfu_free);
      return false;
    }
    return q->n < 2;
  case TM_U_LSU:
    if (s->lsu_free > now) {
      tm_wake(t, s->lsu_free);
      return false;
    }
    return s->lsu_mshr_used < t->lsu_mshr;
  default: {
    unsigned cap = unit_capacity(t, u);
    return q->n < (cap < TM_UQ - 1 ? cap : TM_UQ - 1);
  }
  }
}

static void push_result(tm_sm *s, unsigned u, tm_op *ops, int oi) {
  tm_unitq *q = &s->uq[u];
  /* keep completion order (the FPU's classes differ in latency) */
  unsigned pos = q->n;
  while (pos > 0 && ops[q->q[(q->head + pos - 1) % TM_UQ]].ready > ops[oi].ready) {
    q->q[(q->head + pos) % TM_UQ] = q->q[(q->head + pos - 1) % TM_UQ];
    pos--;
  }
  q->q[(q->head + pos) % TM_UQ] = oi;
  q->n++;
  s->uq_busy |= 1u << u;
  if (pos == 0) q->head_ready = ops[oi].ready;
}

static void barrier_arrive(vt_timing *t, unsigned smi, tm_warp *w) {
  tm_wg *g = w->wg;
  tm_sm *s = &t->sms[smi];
  w->at_barrier = true;
  g->arrived++;
  if (g->arrived < g->nwarps - g->ended) return;
  g->arrived = 0;
  for (unsigned k = 0; k < g->nwarps; k++) {
    tm_warp *o = &s->warps[g->slot[k]];
    if (o->wg != g || !o->at_barrier) continue;
    o->at_barrier = false;
    o->branch_lock = false;
  }
}

static void issue_op(vt_timing *t, unsigned smi, unsigned cu) {
  tm_sm *s = &t->sms[smi];
  int oi = s->cu[cu];
  tm_op *op = &t->ops[oi];
  tm_warp *w = &s->warps[op->warp];
  uint64_t now = t->now;
  s->cu[cu] = -1;
  s->ncu_used--;
  s->cu_path[op->path] &= ~(1u << cu);
  w->in_oc = false;
  w->oc_op = -1;
  w->oc_free_at = now + 1;
  t->progress = true;
  uint64_t *c = s->c;
  if (op->path == TM_X) {
    c[VT_C_insns_x]++;
    c[VT_C_fin_x]++;
    s->x_issued_now = true;
  } else {
    c[VT_C_insns_v]++;
    if (op->scalar_on_v) s->v_scalar_now = true;
  }
  if (op->flags & TM_I_VECTOR) {
    c[VT_C_insns_vector]++;
    c[VT_C_fin_v] += vt_popcount32(op->lanes);
    c[VT_C_thread_insns] += vt_popcount32(op->lanes);
  } else {
    c[VT_C_thread_insns]++;
  }
  switch (op->unit) {
  case TM_U_DMA: /* the copy was queued on an engine at dispatch (dma.c) */
    w->inflight--;
    op_release(t, oi);
    if (w->ended) tm_warp_retire_check(t, smi, op->warp);
    return;
  case TM_U_CTRL:
    c[VT_C_u_ctrl]++;
    w->inflight--;
    if (op->flags & TM_I_BARRIER) {
      barrier_arrive(t, smi, w);
    } else if (op->flags & TM_I_ENDPRG) {
      w->ended = true;
      w->wg->ended++;
      /* warps waiting at a barrier that this warp will never reach were
       * reported by the functional model (deadlock) */
      tm_warp_retire_check(t, smi, op->warp);
    }
    op_release(t, oi);
    return;
  case TM_U_SFU:
    c[VT_C_u_sfu]++;
    op->ready = now + op->sfu_cycles;
    s->sfu_free = op->ready;
    c[VT_C_sfu_busy] += op->sfu_cycles;
    break;
  case TM_U_LSU:
    c[VT_C_u_lsu]++;
    op->ready = tm_lsu_issue(t, smi, op, now);
    s->lsu_mshr_used++;
    break;
  case TM_U_TC: /* MMA on a tensor unit; vftta with its fixed latency */
    c[VT_C_u_tc]++;
    op->ready = (op->flags & TM_I_MMA) ? tm_tc_issue(t, smi, op, now) : now + op->lat;
    break;
  default:
    op->ready = now + op->lat;
    if (op->ii > 1) s->unit_free[op->unit] = now + op->ii;
    c[op->unit == TM_U_ALU ? VT_C_u_alu : op->unit == TM_U_CSR ? VT_C_u_csr
      : op->unit == TM_U_VALU ? VT_C_u_valu : op->unit == TM_U_MUL ? VT_C_u_mul
      : op->unit == TM_U_FPU ? VT_C_u_fpu : VT_C_u_tc]++;
    break;
  }
  push_result(s, op->unit, t->ops, oi);
  tm_wake(t, op->ready);
}

/* issue_single: the lowest-numbered collector unit with all its operands
 * issues if its functional unit accepts, and blocks the others otherwise
 * (the Verilog port's fixed-priority collector output); -1: none */
/* its unit (and, for an MMA, a tensor unit) can take the op of unit i */
static bool can_issue(vt_timing *t, unsigned smi, unsigned i) {
  const tm_op *op = &t->ops[t->sms[smi].cu[i]];
  return unit_ready(t, &t->sms[smi], op->unit) && (!(op->flags & TM_I_MMA) || tm_tc_ready(t, smi));
}

__attribute__((noinline)) static int issue_choice_single(vt_timing *t, unsigned smi) {
  tm_sm *s = &t->sms[smi];
  uint32_t m = (s->cu_path[TM_X] | s->cu_path[TM_V]) & ~s->cu_pending;
  while (m) {
    unsigned i = (unsigned)__builtin_ctz(m);
    m &= m - 1;
    if (s->cu_ready[i] > t->now) {
      tm_wake(t, s->cu_ready[i]);
      continue;
    }
    return can_issue(t, smi, i) ? (int)i : -1;
  }
  return -1;
}

/* the unit whose instruction issues on this path now, or -1: round-robin
 * over the ready units of the path starting after the last one */
static int issue_choice(vt_timing *t, unsigned smi, unsigned path) {
  if (t->cfg.issue_single) return path == TM_X ? issue_choice_single(t, smi) : -1;
  tm_sm *s = &t->sms[smi];
  uint64_t now = t->now;
  unsigned *rr = path == TM_X ? &s->rr_cu_x : &s->rr_cu_v;
  uint32_t m = s->cu_path[path] & ~s->cu_pending;
  uint32_t hi = *rr + 1 >= 32 ? 0 : m & ~((2u << *rr) - 1u), lo = m & ~hi;
  for (int part = 0; part < 2; part++) {
    uint32_t b = part ? lo : hi;
    while (b) {
      unsigned i = (unsigned)__builtin_ctz(b);
      b &= b - 1;
      if (s->cu_ready[i] > now) {
        tm_wake(t, s->cu_ready[i]);
        continue;
      }
      if (!can_issue(t, smi, i)) continue;
      *rr = i;
      return (int)i;
    }
  }
  return -1;
}

static void issue_stage(vt_timing *t, unsigned smi) {
  tm_sm *s = &t->sms[smi];
  s->x_issued_now = s->v_scalar_now = false;
  if (!s->ncu_used) return;
  for (unsigned path = 0; path < 2; path++) {
    int i = issue_choice(t, smi, path);
    if (i >= 0) issue_op(t, smi, (unsigned)i);
  }
  /* RTL INST_CNT_2 quirk: a scalar instruction on the V path is counted in X
   * only when an X instruction issues in the same cycle */
  if (s->x_issued_now && s->v_scalar_now) s->c[VT_C_fin_x]++;
}

/* ---------------- operand collection ---------------- */

static void collect_stage(vt_timing *t, unsigned smi) {
  tm_sm *s = &t->sms[smi];
  if (!s->ncu_used) return;
  const vt_settings *c = &t->cfg;
  uint64_t now = t->now;
  uint32_t used[3] = {0, 0, 0};
  if (++s->rr_bank >= t->ncu) s->rr_bank = 0;
  /* units in round-robin order from rr_bank */
  uint32_t m = s->cu_pending;
  uint32_t hi = m & ~((1u << s->rr_bank) - 1u), lo = m & ~hi;
  for (int part = 0; part < 2; part++) {
    uint32_t b = part ? lo : hi;
    while (b) {
      unsigned i = (unsigned)__builtin_ctz(b);
      b &= b - 1;
      tm_op *op = &t->ops[s->cu[i]];
      if (op->enter >= now) { /* reads start the cycle after it reaches the unit */
        tm_wake(t, op->enter + 1);
        continue;
      }
      op->lost_bank = false;
      s->cu_lost &= ~(1u << i);
      for (unsigned j = 0; j < op->nsrc; j++) {
        if (!((op->pending >> j) & 1)) continue;
        unsigned bank = op->src_bank[j];
        uint32_t *u = &used[op->src_kind[j]];
        if ((*u >> bank) & 1) {
          op->lost_bank = true;
          s->cu_lost |= 1u << i;
          s->c[VT_C_bank_conflicts]++;
          continue;
        }
        *u |= 1u << bank;
        op->pending &= (uint8_t)~(1u << j);
      }
      t->progress = true;
      if (!op->pending) {
        op->ready = now + (c->oc_latency > 1 ? c->oc_latency - 1 : 1);
        s->cu_ready[i] = op->ready;
        s->cu_pending &= ~(1u << i);
      }
    }
  }
}

/* ---------------- dispatch ---------------- */

/* integer divide cycles: base + quotient bits, of 32- or 64-bit operands */
static uint32_t div_cycles(const vt_timing *t, uint64_t a, uint64_t d, bool is_signed, bool wide) {
  if (!wide) {
    a = (uint32_t)a, d = (uint32_t)d;
    if (is_signed) {
      a = (int32_t)a < 0 ? (uint32_t)(0u - (uint32_t)a) : a;
      d = (int32_t)d < 0 ? (uint32_t)(0u - (uint32_t)d) : d;
    }
  } else if (is_signed) {
    a = (int64_t)a < 0 ? 0 - a : a;
    d = (int64_t)d < 0 ? 0 - d : d;
  }
  if (d == 0 || a < d) return 2;
  unsigned la = (unsigned)__builtin_clzll(a), ld = (unsigned)__builtin_clzll(d);
  return t->cfg.sfu_idiv_base + (ld - la + 1);
}

/* a source's value in a lane; 64 bits when it is a pair */
static uint64_t operand_value(const vt_warp *fw, const vt_insn *in, tm_src s, unsigned lane,
                              bool pair) {
  unsigned r = field_reg(in, s.field);
  uint64_t lo = s.kind == TM_R_V ? vt_step_vreg(fw, r, lane) : vt_step_xreg(fw, r);
  if (!pair || r + 1 >= VT_NUM_VREGS || (s.kind == TM_R_X && r == 0)) return lo;
  return lo | (uint64_t)(s.kind == TM_R_V ? vt_step_vreg(fw, r + 1, lane) : vt_step_xreg(fw, r + 1))
                  << 32;
}

/* SFU occupancy (uarch.md 2.2): lane groups with an active lane, each a
 * float divide/sqrt (binary64: sfu_fp64_div_cycles) or a data-dependent
 * integer divide, plus queueing */
static uint32_t sfu_cycles(const vt_timing *t, const vt_warp *fw, const vt_insn *in,
                           const tm_iinfo *info, const tm_dyn *dy, uint32_t extra) {
  const vt_settings *c = &t->cfg;
  bool vec = (info->flags & TM_I_VECTOR) != 0;
  uint32_t lanes = vec ? vt_step_active(fw) : 1u, hw = vec ? lanes | extra : 1u;
  unsigned g = t->sfu_lanes, total = c->sfu_queue_cycles;
  bool is_signed = (in->d->flags & VT_F_SA) != 0;
  uint32_t known = 0; /* lanes past the work-items: the slowest known lane's time */
  for (unsigned base = 0; base < VT_MAX_LANES; base += g) {
    uint32_t gm = (g >= 32 ? 0xffffffffu : ((1u << g) - 1u)) << base;
    if (!(hw & gm)) continue;
    uint32_t worst = 0;
    if (info->flags & TM_I_IDIV) {
      for (unsigned l = base; l < base + g && l < VT_MAX_LANES; l++) {
        if (!((lanes >> l) & 1)) continue;
        uint32_t cy = div_cycles(t, operand_value(fw, in, info->src[0], l, dy->wide),
                                 operand_value(fw, in, info->src[1], l, dy->wide), is_signed, dy->wide);
        if (cy > worst) worst = cy;
      }
      if (!(lanes & gm)) worst = known;
      if (worst > known) known = worst;
    } else {
      worst = dy->fp64 ? c->sfu_fp64_div_cycles : c->sfu_fdiv_cycles;
    }
    total += worst + c->sfu_group_overhead;
  }
  return total;
}

/* drop the consumed groups at the head of the warp's buffer; false when the
 * group of pc has not arrived. The buffer holds consecutive groups from the
 * last redirect on; should pc be outside the fetched sequence (it cannot be
 * after a redirect), the buffer is flushed and refetched from pc. */
static bool ib_sync(vt_timing *t, tm_sm *s, tm_warp *w, uint32_t pc) {
  uint32_t fb = t->cfg.fetch_bytes;
  bool popped = false;
  while (w->ib_n) {
    tm_group *g = &w->ib[w->ib_head];
    if (pc >= g->pc && pc < (uint64_t)g->pc + 4u * g->n) { /* may end at 4 GiB */
      /* the SlowDown register loads the next group only once the warp's
       * last instruction has left the collector */
      if (popped && !w->stale_pending)
        g->ready = tm_max(g->ready, t->now + t->cfg.group_switch_cycles);
      return true;
    }
    if (pc < g->pc) break;
    /* the emptied SlowDown register still presents the group's first
     * instruction to the scoreboard (slowdown_stale_check) */
    w->ib_head = (w->ib_head + 1) % TM_IBUF;
    w->ib_n--;
    popped = true;
    if (w->slot0_valid) { /* slowdown_stale_check */
      w->slot0_valid = false;
      w->stale_pending = w->slot0_pc == (g->pc & ~(fb - 1u));
      if (w->stale_pending && w->ib_n) { /* held until stale_clear() */
        tm_group *n = &w->ib[w->ib_head];
        w->stale_ready = n->ready;
        n->ready = TM_NEVER;
      }
    }
  }
  uint64_t grp = pc & ~(fb - 1u);
  if (w->ib_n || grp > w->fetch_pc || w->fetch_pc - grp > TM_FQ * fb)
    tm_ibuf_flush(s, w, pc);
  return false;
}

/* the head group is not dispatchable yet: false (with w->reason set), or
 * true when it was only held for the SlowDown register's stale entry
 * (slowdown_stale_check), whose registers are clear now: it enters the
 * SlowDown register in this cycle and is dispatchable group_switch_cycles
 * later */
static bool stale_clear(vt_timing *t, tm_warp *w) {
  tm_group *g = &w->ib[w->ib_head];
  if (w->stale_pending) {
    unsigned hz = reg_hazard(t, w, &w->slot0);
    if (hz) {
      w->reason = hz == 2 ? TM_ST_MEMORY : TM_ST_SCOREBOARD;
      return false;
    }
    w->stale_pending = false;
    g->ready = tm_max(w->stale_ready, t->now + t->cfg.group_switch_cycles);
    if (g->ready <= t->now) return true;
  }
  tm_wake(t, g->ready);
  w->reason = TM_ST_IBUFFER;
  return false;
}

/* a 64-bit instruction whose second parcel lies in the next fetch group
 * waits for that group too (isa2025.md 6.1) */
static bool second_parcel_ready(vt_timing *t, tm_warp *w, uint32_t pc) {
  const tm_group *g = &w->ib[w->ib_head];
  uint64_t end = (uint64_t)g->pc + 4u * g->n;
  if ((uint64_t)pc + 4 < end) return true;
  const tm_group *n = w->ib_n >= 2 ? &w->ib[(w->ib_head + 1) % TM_IBUF] : NULL;
  if (n && n->pc == end && n->ready <= t->now) return true;
  if (n && n->pc == end) tm_wake(t, n->ready);
  w->reason = TM_ST_IBUFFER;
  return false;
}

/* the warp's decoded next instruction, absorbing regext prefixes; returns
 * false (with w->reason set) when none is ready */
static bool head_ready(vt_timing *t, unsigned smi, tm_warp *w) {
  uint64_t now = t->now;
  for (;;) {
    uint32_t pc = vt_step_pc(w->fw);
    if (!ib_sync(t, &t->sms[smi], w, pc)) {
      w->reason = TM_ST_IBUFFER;
      return false;
    }
    if (w->ib[w->ib_head].ready > now && !stale_clear(t, w)) return false;
    if (!w->head_valid) {
      int rc = vt_step_decode(t->dev, w->fw, &w->head, t->err);
      if (rc != VT_OK) {
        vt_step_locate(t->dev, w->fw, smi, t->err);
        t->err_rc = rc;
        return false;
      }
      w->hinfo = &t->info[w->head.id];
      w->head_valid = true;
      /* what depends on vtype or a prefix is fixed now: every earlier
       * instruction of the warp has executed */
      tm_dynamic(t, w->hinfo, &w->head, w->fw, &w->hdyn);
      /* a 64-bit instruction: extra decode cycles (isa2025.md 6.1) */
      w->head64 = w->head.d->length == 8;
      w->head_at = now + t->cfg.insn64_decode_extra;
    }
    if (w->head64) {
      if (!second_parcel_ready(t, w, pc)) return false;
      if (w->head_at > now) {
        tm_wake(t, w->head_at);
        w->reason = TM_ST_IBUFFER;
        return false;
      }
    }
    if (!(w->hinfo->flags & TM_I_REGEXT)) return true;
    /* regext/regexti: absorbed by decode, never issued */
    if (t->executed >= t->budget) {
      vt_err_set(t->err, VT_ERR_BUDGET,
                 "instruction budget of %llu warp instructions exhausted (--max-insns)",
                 (unsigned long long)t->budget);
      vt_step_locate(t->dev, w->fw, smi, t->err);
      t->err_rc = VT_ERR_BUDGET;
      return false;
    }
    int rc = vt_step_execute(t->dev, w->fw, smi, &w->head, t->err);
    if (rc != VT_OK) {
      t->err_rc = rc;
      return false;
    }
    t->executed++;
    t->progress = true;
    w->head_valid = false;
    bool v2025 = w->hinfo->unit == TM_U_CTRL && w->head.d->sem != VT_SEM_REGEXT &&
                 w->head.d->sem != VT_SEM_REGEXTI; /* a fused v2025 prefix (prefix_fused) */
    t->sms[smi].c[v2025 ? VT_C_prefix_insns : VT_C_regext]++;
  }
}

/* can warp w dispatch its head instruction now? sets w->reason otherwise */
/* whether a source or destination register of the head instruction is
 * still pending (scoreboard); *mem: one of them waits for memory */
static bool register_hazard(const tm_warp *w, const tm_iinfo *info, const vt_insn *in,
                            const tm_dyn *dy, bool *mem) {
  bool hz = false;
  if (info->flags & TM_I_MMA) hz = tm_mma_hazard(w, in, mem);
  if (!dy->multi) { /* one register per operand (every v2.02 instruction) */
    for (unsigned j = 0; j < info->nsrc; j++) {
      unsigned r = field_reg(in, info->src[j].field);
      if (info->src[j].kind == TM_R_X) {
        if (r && bit(w->xpend, r)) hz = true, *mem |= bit(w->xmem, r);
      } else if (bit(w->vpend, r)) {
        hz = true, *mem |= bit(w->vmem, r);
      }
    }
    if (info->dst_kind == TM_R_X && in->rd && bit(w->xpend, in->rd))
      hz = true, *mem |= bit(w->xmem, in->rd);
    if (info->dst_kind == TM_R_V && bit(w->vpend, in->rd))
      hz = true, *mem |= bit(w->vmem, in->rd);
  } else { /* register pairs and groups (isa2025.md) */
    for (unsigned j = 0; j < info->nsrc; j++) {
      unsigned r0 = field_reg(in, info->src[j].field);
      for (unsigned r = r0; r < r0 + dy->src_n[j] && r < VT_NUM_XREGS; r++) {
        if (info->src[j].kind == TM_R_X) {
          if (r && bit(w->xpend, r)) hz = true, *mem |= bit(w->xmem, r);
        } else if (bit(w->vpend, r)) {
          hz = true, *mem |= bit(w->vmem, r);
        }
      }
    }
    for (unsigned r = in->rd; r < in->rd + dy->dst_n && r < VT_NUM_XREGS; r++) {
      if (info->dst_kind == TM_R_X && r && bit(w->xpend, r))
        hz = true, *mem |= bit(w->xmem, r);
      if (info->dst_kind == TM_R_V && bit(w->vpend, r)) hz = true, *mem |= bit(w->vmem, r);
    }
  }
  if ((info->flags & TM_I_MASKABLE) && !in->vm && bit(w->vpend, 0))
    hz = true, *mem |= bit(w->vmem, 0);
  return hz;
}

static bool warp_eligible(vt_timing *t, unsigned smi, tm_warp *w) {
  uint64_t now = t->now;
  if (w->ended) {
    w->reason = TM_ST_ENDED;
    return false;
  }
  if (w->at_barrier) {
    w->reason = TM_ST_BARRIER;
    return false;
  }
  if (w->in_oc) {
    tm_sm *s = &t->sms[smi];
    unsigned cu = w->oc_cu;
    w->reason = (s->cu_lost >> cu) & 1u ? TM_ST_BANK
                : ((s->cu_pending >> cu) & 1u) || s->cu_ready[cu] > now ? TM_ST_OPCOL : TM_ST_UNIT;
    return false;
  }
  if (w->oc_free_at > now) {
    tm_wake(t, w->oc_free_at);
    w->reason = TM_ST_OPCOL;
    return false;
  }
  if (w->branch_lock) {
    w->reason = TM_ST_BRANCH;
    return false;
  }
  if (!head_ready(t, smi, w)) return false;
  const tm_iinfo *info = w->hinfo;
  const vt_insn *in = &w->head;
  bool mem = false;
  if ((info->flags & TM_I_DMA_WAIT) && w->dma_done_at > t->now) { /* 3.9.5 */
    tm_wake(t, w->dma_done_at);
    w->reason = TM_ST_DMA_WAIT;
    return false;
  }
  if ((info->flags & TM_I_DMA) && !tm_dma_room(t, smi)) {
    w->reason = TM_ST_DMA_QUEUE;
    return false;
  }
  if (register_hazard(w, info, in, &w->hdyn, &mem)) {
    w->reason = mem ? TM_ST_MEMORY : TM_ST_SCOREBOARD;
    return false;
  }
  if (((info->flags & TM_I_MEM) && w->lsu_out >= t->cfg.lsu_per_warp) ||
      ((info->flags & TM_I_FENCE) && w->lsu_out > 0)) {
    w->reason = TM_ST_MEMORY;
    return false;
  }
  w->reason = TM_ST_DISPATCH;
  return true;
}

/* the op of the warp's head instruction: unit, latencies and the source
 * registers it reads (register pairs and v0 included) */
static void op_fill(vt_timing *t, tm_op *op, unsigned slot, const vt_insn *in,
                    const tm_iinfo *info, const tm_dyn *dy) {
  op->warp = (uint16_t)slot;
  op->path = info->path;
  op->unit = info->unit;
  op->lat = info->unit == TM_U_TC ? (uint8_t)t->lat_tc : dy->lat;
  op->ii = dy->ii;
  op->agen = dy->agen;
  op->hint = dy->hint;
  op->flags = info->flags;
  op->id = in->id;
  op->dst_kind = info->dst_kind;
  op->dst_reg = (uint16_t)in->rd;
  op->dst_n = dy->dst_n; /* both halves of a pair (MMA: tm_mma_prepare) */
  op->name = vt_isa_insn((vt_insn_id)in->id)->mnemonic;
  op->redirect = false;
  op->lost_bank = false;
  op->nreq = 0;
  op->scalar_on_v = info->path == TM_V && !(info->flags & TM_I_VECTOR);
  op->nsrc = 0;
  op->pending = 0;
  for (unsigned j = 0; j < info->nsrc; j++) {
    unsigned r0 = field_reg(in, info->src[j].field), n = dy->multi ? dy->src_n[j] : 1;
    for (unsigned r = r0; r < r0 + n && r < VT_NUM_XREGS && op->nsrc < 7; r++) {
      if (info->src[j].kind == TM_R_X && r == 0) continue;
      op->src_kind[op->nsrc] = info->src[j].kind;
      op->src_reg[op->nsrc] = (uint16_t)r;
      op->src_bank[op->nsrc] = (uint8_t)((slot + r) % t->cfg.reg_banks);
      op->pending |= (uint8_t)(1u << op->nsrc);
      op->nsrc++;
    }
  }
  if ((info->flags & TM_I_MASKABLE) && !in->vm && op->nsrc < 8) {
    op->src_kind[op->nsrc] = TM_R_V;
    op->src_reg[op->nsrc] = 0;
    op->src_bank[op->nsrc] = (uint8_t)(slot % t->cfg.reg_banks);
    op->pending |= (uint8_t)(1u << op->nsrc);
    op->nsrc++;
  }
}

/* the executed op oi enters the warp's scoreboard and a free collector unit */
static void op_enter_collector(vt_timing *t, tm_sm *s, tm_warp *w, int oi) {
  tm_op *op = &t->ops[oi];
  bool mem = (op->flags & TM_I_MEM) != 0;
  for (unsigned k = 0; k < op->dst_n && op->dst_reg + k < VT_NUM_XREGS; k++) {
    unsigned r = op->dst_reg + k;
    if (op->dst_kind == TM_R_X && r) {
      bset(w->xpend, r);
      if (mem) bset(w->xmem, r);
    } else if (op->dst_kind == TM_R_V) {
      bset(w->vpend, r);
      if (mem) bset(w->vmem, r);
    }
  }
  w->head_valid = false;
  w->in_oc = true;
  w->oc_op = oi;
  w->inflight++;
  w->reason = TM_ST_ISSUE;
  s->rhist[TM_ST_DISPATCH]--;
  s->rhist[TM_ST_ISSUE]++;
  /* the Verilog port registers the dispatched instruction before the
   * collector (oc_entry_cycles): its reads and its issue come that much later */
  op->enter = t->now + t->cfg.oc_entry_cycles;
  op->ready = op->pending ? TM_NEVER : op->enter + t->cfg.oc_latency_noreg;
  if (!op->pending) tm_wake(t, op->ready);
  for (unsigned i = 0; i < t->ncu; i++)
    if (s->cu[i] < 0) {
      s->cu[i] = oi;
      s->cu_ready[i] = op->ready;
      s->cu_lost &= ~(1u << i);
      w->oc_cu = (uint8_t)i;
      s->ncu_used++;
      s->cu_path[op->path] |= 1u << i;
      if (op->pending) s->cu_pending |= 1u << i;
      break;
    }
}

static int dispatch(vt_timing *t, unsigned smi, unsigned slot) {
  tm_sm *s = &t->sms[smi];
  tm_warp *w = &s->warps[slot];
  vt_warp *fw = w->fw;
  const tm_iinfo *info = w->hinfo;
  vt_insn *in = &w->head;
  if (t->executed >= t->budget) {
    vt_err_set(t->err, VT_ERR_BUDGET,
               "instruction budget of %llu warp instructions exhausted (--max-insns)",
               (unsigned long long)t->budget);
    vt_step_locate(t->dev, fw, smi, t->err);
    return t->err_rc = VT_ERR_BUDGET;
  }
  int oi = op_alloc(t);
  if (oi < 0) return VT_OK; /* cannot happen: the pool covers every collector unit and unit queue */
  tm_op *op = &t->ops[oi];
  const tm_dyn *dy = &w->hdyn; /* computed when the head was decoded */
  op_fill(t, op, slot, in, info, dy);
  if (info->flags & TM_I_MMA) tm_mma_prepare(t, op, in, slot);
  if (in->d->length == 8) s->c[VT_C_insn64]++;
  if (info->flags & TM_I_PREFIX) s->c[VT_C_prefix_insns]++;
  if (dy->pair) s->c[VT_C_pair_insns]++;
  uint32_t mask = vt_step_mask(fw);
  /* the hardware runs every lane of a converged warp (hw_lanes) */
  op->hw_extra = w->hw_extra && mask == w->init_mask ? w->hw_extra : 0;
  if (info->unit == TM_U_SFU) op->sfu_cycles = sfu_cycles(t, fw, in, info, dy, op->hw_extra);
  uint32_t pc = in->pc; /* decoded at the warp's pc */
  if (t->cfg.slowdown_stale_check && !(pc & (t->cfg.fetch_bytes - 1u))) {
    w->slot0 = regs_of(in);
    w->slot0_pc = pc;
    w->slot0_valid = true;
  }
  /* functional execution */
  int rc = vt_step_execute(t->dev, fw, smi, in, t->err);
  if (rc != VT_OK) {
    op_release(t, oi);
    return t->err_rc = rc;
  }
  t->executed++;
  t->progress = true;
  if (info->flags & TM_I_ENDPRG) w->exec_ended = vt_step_ended(fw);
  op->lanes = mask;
  if (info->flags & TM_I_MEM) {
    tm_mem_prepare(t, op, fw, t->dev);
    w->lsu_out++;
  }
  if (info->flags & TM_I_DMA) tm_dma_enqueue(t, smi, w, in);
  uint32_t next_pc = vt_step_pc(fw);
  if (next_pc != pc + in->d->length) { /* 8 after a 64-bit instruction (D1) */
    op->redirect = true;
    op->target = next_pc;
  }
  if ((info->flags & TM_I_BRANCH) || op->redirect) w->branch_lock = true;
  op_enter_collector(t, s, w, oi);
  if (t->tl) tm_tl_instant(t, smi, slot, op->name, t->now);
  return VT_OK;
}

static void dispatch_stage(vt_timing *t, unsigned smi) {
  tm_sm *s = &t->sms[smi];
  memset(s->rhist, 0, sizeof s->rhist);
  s->ncounted = 0;
  if (!s->nwarps_res) return;
  uint64_t now = t->now;
  uint32_t elig[2] = {0, 0};
  for (unsigned slot = 0; slot < t->nslots; slot++) {
    tm_warp *w = &s->warps[slot];
    if (!w->fw) continue;
    if (w->start_at > now) {
      tm_wake(t, w->start_at);
      continue;
    }
    if (w->ended && !w->inflight) { /* waiting for its copies (3.9.6 item 4) */
      tm_warp_retire_check(t, smi, slot);
      if (!w->fw) continue;
    }
    if (warp_eligible(t, smi, w)) elig[w->hinfo->path] |= 1u << slot;
    if (t->err_rc) return;
    s->rhist[w->reason]++; /* the stall accounting of this cycle (run.c) */
    s->ncounted++;
    w->counted_at = now;
  }
  /* V takes the first free collector unit, then X */
  if (t->cfg.dispatch_arbiters == 1) { /* one round-robin arbiter for both paths */
    uint32_t m = elig[TM_X] | elig[TM_V];
    if (!m || s->ncu_used >= t->ncu) return;
    uint32_t after = s->rr_v + 1 >= 32 ? 0 : m & ~((2u << s->rr_v) - 1u);
    s->rr_v = (unsigned)__builtin_ctz(after ? after : m);
    dispatch(t, smi, s->rr_v);
    return;
  }
  static const unsigned order[2] = {TM_V, TM_X};
  for (unsigned k = 0; k < 2; k++) {
    unsigned path = order[k];
    if (!elig[path] || s->ncu_used >= t->ncu) continue;
    unsigned *rr = path == TM_X ? &s->rr_x : &s->rr_v;
    /* round-robin: the first eligible slot after *rr */
    uint32_t m = elig[path];
    uint32_t after = *rr + 1 >= 32 ? 0 : m & ~((2u << *rr) - 1u);
    unsigned slot = (unsigned)__builtin_ctz(after ? after : m);
    {
      *rr = slot;
      if (dispatch(t, smi, slot) != VT_OK) return;
    }
  }
}

int tm_sm_cycle(vt_timing *t, unsigned smi) {
  issue_stage(t, smi);
  collect_stage(t, smi);
  dispatch_stage(t, smi);
  if (t->err_rc) return t->err_rc;
  tm_fetch(t, smi);
  tm_writeback(t, smi);
  return t->err_rc;
}
