/* CTA scheduler (uarch.md 4): one workgroup allocation at a time, GPU-wide,
 * costing cta_dispatch_cycles; SMs tried round-robin from the one after the
 * last allocation; an SM fits when it has a free workgroup slot, enough free
 * warp slots, local memory and scalar/vector registers (totals, not
 * contiguous fragments); the warps then enter the SM one
 * per cta_warp_interval cycles, each in the lowest free warp slot. Workgroup
 * completion frees the resources and (switchable) starts the flush of the
 * SM's L1D and of the L2. */
#include <string.h>

#include "timing_internal.h"

static bool fits(const vt_timing *t, const tm_sm *s, const vt_launch *l) {
  if (s->nwgs >= t->cfg.wg_slots || !vt_step_wg_can_start(t->dev)) return false;
  if (t->nslots - s->nwarps_res < l->warps_per_wg) return false;
  if (s->sgprs_used + wg_regs(l->sgpr_usage, l->warps_per_wg) > t->sgprs_per_sm) return false;
  if (s->vgprs_used + wg_regs(l->vgpr_usage, l->warps_per_wg) > t->vgprs_per_sm) return false;
  return (uint64_t)s->lds_used + l->lds_size <= t->lds_per_sm;
}

static void warp_reset(tm_warp *w) {
  memset(w, 0, sizeof *w);
  w->oc_op = -1;
}

int tm_cta_cycle(vt_timing *t) {
  const vt_launch *l = t->launch;
  if (t->next_wg >= t->total_wg) return VT_OK;
  if (t->cta_free > t->now) {
    tm_wake(t, t->cta_free);
    return VT_OK;
  }
  for (unsigned k = 0; k < t->nsm; k++) {
    unsigned smi = (t->cta_pref + k) % t->nsm;
    tm_sm *s = &t->sms[smi];
    if (!fits(t, s, l)) continue;
    tm_wg *g = NULL;
    for (unsigned i = 0; i < t->nwgpool; i++)
      if (!t->wgpool[i].live) {
        g = &t->wgpool[i];
        break;
      }
    if (!g) return VT_OK; /* cannot happen: the pool has wg_slots per SM */
    vt_wg *fw = vt_step_wg_new(t->dev, (unsigned)t->next_wg, smi);
    if (!fw) {
      vt_err_set(t->err, VT_ERR_NOMEM, "out of host memory creating workgroup %llu",
                 (unsigned long long)t->next_wg);
      return t->err_rc = VT_ERR_NOMEM;
    }
    memset(g, 0, sizeof *g);
    g->live = true;
    g->fw = fw;
    g->sm = smi;
    g->nwarps = l->warps_per_wg;
    g->alloc_at = t->now;
    g->lds = l->lds_size;
    s->wgs[s->nwgs++] = g;
    s->lds_used += l->lds_size;
    s->sgprs_used += wg_regs(l->sgpr_usage, l->warps_per_wg);
    s->vgprs_used += wg_regs(l->vgpr_usage, l->warps_per_wg);
    uint64_t start = t->now + t->cfg.cta_dispatch_cycles;
    unsigned slot = 0;
    for (unsigned w = 0; w < g->nwarps; w++) {
      while (s->warps[slot].fw) slot++;
      tm_warp *tw = &s->warps[slot];
      warp_reset(tw);
      tw->fw = vt_step_wg_warp(fw, w);
      if (t->cfg.hw_lanes) {
        uint32_t all = t->numt >= 32 ? 0xffffffffu : (1u << t->numt) - 1u;
        tw->init_mask = vt_step_mask(tw->fw);
        tw->hw_extra = all & ~tw->init_mask;
      }
      tw->wg = g;
      tw->start_at = start + (uint64_t)w * t->cfg.cta_warp_interval;
      tw->fetch_pc = l->start_pc;
      tw->fetch_epoch = ++s->fetch_epochs;
      tw->span_start = tw->start_at;
      tw->span_reason = TM_ST_COUNT;
      g->slot[w] = (uint16_t)slot;
      s->nwarps_res++;
      tm_wake(t, tw->start_at);
    }
    t->cta_free = start;
    t->cta_pref = (smi + 1) % t->nsm;
    t->next_wg++;
    t->progress = true;
    tm_wake(t, start);
    return VT_OK;
  }
  return VT_OK; /* nothing fits: wait for a workgroup to complete */
}

void tm_warp_retire_check(vt_timing *t, unsigned smi, unsigned slot) {
  tm_sm *s = &t->sms[smi];
  tm_warp *w = &s->warps[slot];
  if (!w->fw || !w->ended || w->inflight) return;
  if (w->dma_done_at > t->now) { /* its copies complete first (isa2025.md 3.9.6) */
    tm_wake(t, w->dma_done_at);
    return;
  }
  if (w->counted_at == t->now && w->start_at <= t->now && s->ncounted) {
    s->rhist[w->reason]--; /* gone by the end of the cycle: not counted */
    s->ncounted--;
  }
  tm_wg *g = w->wg;
  if (t->tl) tm_tl_span(t, smi, slot, tm_reason_names[w->span_reason < TM_ST_COUNT ? w->span_reason : 0],
                        w->span_start, t->now);
  w->fw = NULL;
  w->wg = NULL;
  s->nwarps_res--;
  g->done_warps++;
  t->progress = true;
  if (g->done_warps < g->nwarps) return;
  /* workgroup complete */
  for (unsigned i = 0; i < s->nwgs; i++)
    if (s->wgs[i] == g) {
      s->wgs[i] = s->wgs[--s->nwgs];
      break;
    }
  s->lds_used -= g->lds;
  s->sgprs_used -= wg_regs(t->launch->sgpr_usage, g->nwarps);
  s->vgprs_used -= wg_regs(t->launch->vgpr_usage, g->nwarps);
  if (t->tl) {
    char name[64];
    unsigned id = vt_step_wg_id(g->fw);
    snprintf(name, sizeof name, "workgroup %u", id);
    tm_tl_span(t, smi, TM_TL_WG + (id % t->cfg.wg_slots), name, g->alloc_at, t->now + 1);
  }
  vt_step_wg_free(t->dev, g->fw);
  g->fw = NULL;
  g->live = false;
  t->done_wg++;
  if (t->cfg.flush_at_wg_end) {
    uint64_t f = tm_flush_wg_end(t, smi, t->now + 1);
    if (t->cfg.wg_done_after_flush) t->done_not_before = tm_max(t->done_not_before, f);
  }
}
