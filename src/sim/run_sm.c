/* One SM's schedule during a launch (run.h): the running warps in round
 * order, what happens at a round's end (finished workgroups leave, waiting
 * ones start), barriers and warps that end, warps that wait for the epoch's
 * end, and the slice itself: every instruction decoded and executed by
 * vt_step_decode and vt_sim_execute, the path the timing model uses too. */
#include <stdlib.h>
#include <string.h>

#include "exec_step.h"
#include "run.h"

static int grow_ptrs(void *arrp, unsigned *cap, unsigned need) {
  if (need <= *cap) return 0;
  unsigned n = *cap ? *cap : 16;
  while (n < need) n *= 2;
  void **a = realloc(*(void ***)arrp, n * sizeof *a);
  if (!a) return -1;
  *(void ***)arrp = a;
  *cap = n;
  return 0;
}

static void sm_nomem(vt_sm *sm) {
  sm->rc = VT_ERR_NOMEM;
  vt_err_set(&sm->err, VT_ERR_NOMEM, "out of host memory (scheduler)");
}

/* Rebuild sm->run from the resident workgroups; the next position follows
 * warp 'after' (NULL: from the start of a round). */
static void rebuild(vt_sm *sm, const vt_warp *after) {
  unsigned n = 0, pos = 0, total = 0;
  for (unsigned g = 0; g < sm->nwgs; g++) total += sm->wgs[g]->nwarps;
  if (grow_ptrs(&sm->run, &sm->run_cap, total) != 0) {
    sm_nomem(sm);
    sm->nrun = sm->pos = 0;
    return;
  }
  for (unsigned g = 0; g < sm->nwgs; g++) {
    vt_wg *wg = sm->wgs[g];
    for (unsigned i = 0; i < wg->nwarps; i++) {
      vt_warp *w = wg->warps[i];
      if (w->state == WARP_RUNNING && !w->parked) sm->run[n++] = w;
      if (w == after) pos = n;
    }
  }
  sm->nrun = n;
  sm->pos = after ? pos : 0;
}

static bool fits(const vt_run *r, const vt_sm *sm) {
  return sm->used_slots + r->l->warps_per_wg <= r->slots &&
         sm->used_lds + r->l->lds_size <= r->lds_capacity;
}

/* waiting workgroups start while they fit */
static void start_pending(vt_run *r, vt_sm *sm) {
  while (sm->npend && fits(r, sm)) {
    if (grow_ptrs(&sm->wgs, &sm->wgs_cap, sm->nwgs + 1) != 0) {
      sm_nomem(sm);
      return;
    }
    vt_wg *wg = sm->pend[0];
    memmove(sm->pend, sm->pend + 1, --sm->npend * sizeof *sm->pend);
    sm->wgs[sm->nwgs++] = wg;
    sm->used_slots += wg->nwarps;
    sm->used_lds += r->l->lds_size;
  }
}

/* finished workgroups leave the SM: freed now when the SM runs alone on the
 * launch's device, else at the epoch's end (freeing touches the device) */
static void retire(vt_xctx *x) {
  vt_sm *sm = x->sm;
  vt_run *r = x->r;
  unsigned kept = 0;
  for (unsigned g = 0; g < sm->nwgs; g++) {
    vt_wg *wg = sm->wgs[g];
    if (wg->ended != wg->nwarps) {
      sm->wgs[kept++] = wg;
      continue;
    }
    unsigned nwarps = wg->nwarps;
    if (r->overlay) {
      if (grow_ptrs(&sm->done, &sm->done_cap, sm->ndone + 1) != 0) {
        sm->wgs[kept++] = wg; /* freed with the resident ones */
        sm_nomem(sm);
        continue;
      }
      sm->done[sm->ndone++] = wg;
    } else {
      vt_wg_free(x->dev, wg);
    }
    sm->used_slots -= nwarps;
    sm->used_lds -= r->l->lds_size;
    sm->finished++;
  }
  sm->nwgs = kept;
}

/* A round ended: finished workgroups leave, waiting ones start. Whether the
 * slice goes on: not when nothing runs, nor when the SM runs alone and has
 * room for a workgroup nobody waits for (the next epoch's start dispatches
 * it, as the single-threaded loop did after every round). */
static bool round_end(vt_xctx *x) {
  vt_sm *sm = x->sm;
  vt_run *r = x->r;
  unsigned finished = sm->finished, npend = sm->npend;
  retire(x);
  start_pending(r, sm);
  sm->last = NULL;
  /* the run list is current (every change of a warp's state or parking
   * rebuilds it) unless workgroups left or started, or a hook may have
   * changed warps behind the schedule's back (reference mode: always) */
  if (sm->finished != finished || sm->npend != npend || x->dev->hooks.before ||
      x->dev->hooks.after || x->dev->reference)
    rebuild(sm, NULL);
  else
    sm->pos = 0;
  if (sm->rc || sm->nrun == 0) return false;
  return r->overlay || sm->npend || !fits(r, sm) || r->next_wg >= r->total_wg ||
         !vt_step_wg_can_start(x->dev);
}

/* after warp w stopped running (barrier, endprg): barrier release or
 * deadlock, then the round goes on after w */
static int warp_changed(vt_xctx *x, vt_warp *w) {
  vt_wg *wg = w->wg;
  if (w->state == WARP_ENDED) wg->ended++;
  int rc = vt_wg_barrier_check(wg, &x->sm->err);
  if (rc) {
    /* report at a waiting warp, at its barrier instruction: a waiting
     * warp's pc already points past the barrier (barrier never branches,
     * so it is pc - 4) */
    for (unsigned k = 0; k < wg->nwarps; k++)
      if (wg->warps[k]->state == WARP_BARRIER) {
        vt_sim_locate_at(&x->sm->err, wg->warps[k], x->sm->id, x->dev, wg->warps[k]->pc - 4);
        break;
      }
    return rc;
  }
  rebuild(x->sm, w);
  return x->sm->rc;
}

/* whether the instruction must wait for the epoch's end (run.h); an AMO
 * on the workgroup's local memory need not (its address is x[rs1] but for
 * the 64-bit-address forms), unless a store must break a reservation */
static bool must_defer(const vt_device *dev, const vt_warp *w, const vt_insn *in) {
  const vt_insn_desc *d = in->d;
  if (d->mem == VT_MEM_AMO) {
    bool reserved = d->sem == VT_SEM_LR || d->sem == VT_SEM_SC;
    return reserved || dev->nresv || d->amode == VT_AM_BASE64 ||
           w->x[in->rs1] - VT_LDS_BASE >= VT_ADDR_LDS_SIZE;
  }
  return (dev->nresv && (d->mem == VT_MEM_STORE || d->mem == VT_MEM_COPY)) ||
         (d->exec_class == VT_EX_ENDPRG && w->resv_valid);
}

static void park(vt_sm *sm, vt_warp *w) {
  if (grow_ptrs(&sm->parked, &sm->parked_cap, sm->nparked + 1) != 0) {
    sm_nomem(sm);
    return;
  }
  sm->parked[sm->nparked++] = w;
  w->parked = true;
  rebuild(sm, w);
}

static void budget_error(vt_xctx *x, vt_warp *w) {
  vt_sm *sm = x->sm;
  sm->rc = VT_ERR_BUDGET;
  vt_err_set(&sm->err, VT_ERR_BUDGET,
             "instruction budget of %llu warp instructions exhausted (--max-insns)",
             (unsigned long long)x->r->budget);
  vt_sim_locate_at(&sm->err, w, sm->id, x->dev, w->pc);
}

/* one instruction of warp w, or its parking; false when the slice stops */
static bool step(vt_xctx *x, vt_warp *w) {
  vt_sm *sm = x->sm;
  vt_device *dev = x->dev;
  uint32_t pc = w->pc, mask = w->mask;
  vt_insn tmp;
  const vt_insn *in = NULL;
  dev->ntw = dev->ntm = 0;
  dev->cur_lane = -1;
  int rc = dev->hooks.before ? dev->hooks.before(dev->hooks.ctx, w, &sm->err) : VT_OK;
  if (rc == VT_OK) rc = vt_sim_decode(dev, w, &tmp, &in, &sm->err);
  sm->last = w;
  if (rc == VT_OK && x->r->overlay && must_defer(dev, w, in)) {
    park(sm, w);
    return !sm->rc;
  }
  if (rc == VT_OK) rc = vt_sim_execute(dev, w, in, &sm->err);
  if (rc != VT_OK) {
    vt_sim_locate_at(&sm->err, w, sm->id, dev, w->pc);
    sm->rc = rc;
    return false;
  }
  sm->executed++;
  dev->ctr[VT_C_warp_instructions]++;
  dev->ctr[VT_C_thread_instructions] += (unsigned)vt_popcount32(mask);
  /* the event only for an observer (built per instruction before) */
  vt_trace_event ev;
  if (dev->trace || dev->hooks.after)
    ev = (vt_trace_event){sm->id, w->wg->id, w->wid, pc, in->word, mask, dev->ntw, dev->ntm,
                          dev->twrites, dev->tmem, in->d->length, in->word_hi, w};
  if (dev->trace) dev->trace(dev->trace_ctx, &ev);
  sm->pos++;
  if (w->state != WARP_RUNNING) sm->rc = warp_changed(x, w);
  if (!sm->rc && dev->hooks.after) {
    sm->rc = dev->hooks.after(dev->hooks.ctx, w, &ev, &sm->err);
    if (sm->rc) vt_sim_locate_at(&sm->err, w, sm->id, dev, w->pc);
  }
  return !sm->rc;
}

/* the slice with an observer (trace, debugger hooks): step by step */
static void slice_observed(vt_xctx *x) {
  vt_sm *sm = x->sm;
  for (;;) {
    if (sm->pos >= sm->nrun) {
      if (!round_end(x)) return;
      continue;
    }
    vt_warp *w = sm->run[sm->pos];
    if (sm->executed >= sm->cap) {
      if (sm->budget_cap) budget_error(x, w);
      return;
    }
    if (!step(x, w)) return;
  }
}

/* The slice without an observer: step() with what only an observer needs
 * left out (trace records, the event), the decode cache's hit and the
 * execution inline, the round's position and the counters in locals
 * (sm->pos, sm->executed are current whenever the schedule's functions
 * run). Thread instructions are the mask's population count, computed
 * when the mask differs from the last warp's (the warps of a round mostly
 * share their masks). */
static inline __attribute__((always_inline)) void slice_plain(vt_xctx *x, bool hw_popcount) {
  vt_sm *sm = x->sm;
  vt_device *dev = x->dev;
  const bool overlay = x->r->overlay;
  const uint64_t cap = sm->cap;
  uint64_t executed = sm->executed, threads = 0, vector = 0;
  uint32_t last_mask = 0, last_pop = 0;
  unsigned pos = sm->pos, nrun = sm->nrun;
  vt_warp **run = sm->run;
  const vt_warp *last = sm->last;
#define SYNC() (sm->pos = pos, sm->executed = executed, sm->last = last)
  /* a round's end changes nothing when no warp changed its state or
   * parked since the last one that went on (round_end; reference mode
   * always rebuilds) */
  bool quiet = false;
  for (;;) {
    if (pos >= nrun) {
      if (quiet && !dev->reference) {
        pos = 0;
        last = NULL;
        continue;
      }
      SYNC();
      bool more = round_end(x);
      pos = sm->pos, nrun = sm->nrun, run = sm->run;
      last = sm->last;
      if (!more) break;
      quiet = true;
      continue;
    }
    vt_warp *w = run[pos];
    if (executed >= cap) {
      if (sm->budget_cap) budget_error(x, w);
      break;
    }
    uint32_t mask = w->mask;
    vt_insn tmp;
    last = w;
    const vt_insn *in = w->ext_armed ? NULL : vt_decode_hit(dev, w);
    int rc = in ? VT_OK : vt_sim_decode(dev, w, &tmp, &in, &sm->err);
    if (rc == VT_OK && overlay && in->may_defer && must_defer(dev, w, in)) {
      SYNC();
      quiet = false;
      park(sm, w);
      if (sm->rc) break;
      pos = sm->pos, nrun = sm->nrun, run = sm->run;
      continue;
    }
    if (rc == VT_OK) rc = vt_exec_step(dev, w, in, &sm->err);
    if (rc != VT_OK) {
      vt_sim_locate_at(&sm->err, w, sm->id, dev, w->pc);
      sm->rc = rc;
      break;
    }
    executed++;
    vector += in->counts_vector;
    if (mask != last_mask) {
      last_mask = mask;
      last_pop = hw_popcount ? (uint32_t)__builtin_popcount(mask) : (uint32_t)vt_popcount32(mask);
    }
    threads += last_pop;
    pos++;
    if (w->state != WARP_RUNNING) {
      SYNC();
      quiet = false;
      sm->rc = warp_changed(x, w);
      if (sm->rc) break;
      pos = sm->pos, nrun = sm->nrun, run = sm->run;
    }
  }
  SYNC();
#undef SYNC
  dev->ctr[VT_C_warp_instructions] += executed;
  dev->ctr[VT_C_thread_instructions] += threads;
  dev->ctr[VT_C_vector_instructions] += vector;
  dev->ctr[VT_C_scalar_instructions] += executed - vector;
}

/* the plain slice with the population count in one instruction where the
 * host has it (chosen at run time; reference mode takes the portable one,
 * so the differential test runs both) */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define VT_HAVE_POPCNT_VARIANT 1
__attribute__((target("popcnt"))) static void slice_plain_popcnt(vt_xctx *x) {
  slice_plain(x, true);
}
#endif
static void slice_plain_portable(vt_xctx *x) { slice_plain(x, false); }

void vt_sm_slice(vt_xctx *x) {
  vt_sm *sm = x->sm;
  vt_device *dev = x->dev;
  dev->ctr = vt_step_counters(dev, sm->id);
  dev->cur_sm = sm->id;
  dev->cur_lane = -1;
  sm->executed = sm->finished = 0;
  sm->rc = VT_OK;
  rebuild(sm, sm->last);
  if (dev->trace || dev->hooks.before || dev->hooks.after)
    slice_observed(x);
#ifdef VT_HAVE_POPCNT_VARIANT
  else if (!dev->reference && __builtin_cpu_supports("popcnt"))
    slice_plain_popcnt(x);
#endif
  else
    slice_plain_portable(x);
}

int vt_sm_run_parked(vt_run *r, vt_sm *sm, vt_warp *w) {
  vt_device *dev = r->dev;
  w->parked = false;
  vt_insn in;
  int rc = vt_step_decode(dev, w, &in, r->err);
  if (rc != VT_OK) {
    vt_step_locate(dev, w, sm->id, r->err);
    return rc;
  }
  return vt_step_execute(dev, w, sm->id, &in, r->err);
}

static void flush_warp(vt_warp *w, uint32_t key) {
  if (key) { /* page key - 1 can only be in its slot (vt_tlb_slot) */
    vt_tlb_entry *e = &w->tlb[vt_tlb_slot(key - 1)];
    if (VT_TLB_KEY(e->tag) == key) e->tag = 0;
    return;
  }
  uint64_t used = 0;
  for (uint64_t m = w->tlb_used; m; m &= m - 1) {
    unsigned i = (unsigned)__builtin_ctzll(m);
    uint32_t tag = VT_TLB_KEY(w->tlb[i].tag);
    uint64_t a = (uint64_t)(tag - 1u) << VT_PAGE_BITS; /* above 2^32 with the MMU */
    if (tag && a - VT_LDS_BASE >= VT_ADDR_LDS_SIZE) w->tlb[i].tag = 0;
    if (w->tlb[i].tag) used |= 1ull << i;
  }
  w->tlb_used = used;
}

/* the translations of page key - 1 (0: of every global page) */
static void flush_sm(vt_sm *sm, uint32_t key, bool finished_too) {
  vt_wg **lists[3] = {sm->wgs, sm->pend, sm->done};
  unsigned counts[3] = {sm->nwgs, sm->npend, finished_too ? sm->ndone : 0};
  for (unsigned k = 0; k < 3; k++)
    for (unsigned g = 0; g < counts[k]; g++)
      for (unsigned i = 0; i < lists[k][g]->nwarps; i++) flush_warp(lists[k][g]->warps[i], key);
}

void vt_sm_flush(vt_sm *sm) { flush_sm(sm, 0, true); }

/* the overlay's drop callback: the SM now writes page vpn to its own copy */
void vt_sm_drop_page(void *ctx, uint32_t vpn) { flush_sm(ctx, vpn + 1, false); }

/* with the MMU on the overlay holds physical frames, which any virtual page
 * may map: every global translation goes */
void vt_sm_drop_frame(void *ctx, uint32_t frame) {
  (void)frame;
  flush_sm(ctx, 0, false);
}

void vt_sm_warn(void *ctx, const char *message) {
  vt_sm *sm = ctx;
  size_t n = strlen(message);
  char *p = realloc(sm->warn, sm->warn_len + n + 2);
  if (!p) return;
  memcpy(p + sm->warn_len, message, n);
  p[sm->warn_len + n] = '\n';
  p[sm->warn_len + n + 1] = 0;
  sm->warn = p;
  sm->warn_len += n + 1;
}
