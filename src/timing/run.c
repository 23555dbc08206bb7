/* The timing model's cycle loop: per cycle the CTA scheduler, then every SM
 * (issue, operand collection, dispatch with functional execution, fetch,
 * writeback); cycles in which nothing changed are skipped to the next time a
 * waiting condition can become true. Stall reasons are accounted per resident
 * warp and cycle (weighted by the skipped cycles). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing_internal.h"


vt_timing *vt_timing_new(const vt_settings *cfg) {
  vt_timing *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  if (cfg)
    t->cfg = *cfg;
  else
    vt_settings_default(&t->cfg);
  if (t->cfg.reg_banks > 32) t->cfg.reg_banks = 32;
  tm_build_info(t);
  t->op_free = -1;
  return t;
}

static void free_shape(vt_timing *t) {
  tm_mem_free(t);
  for (unsigned s = 0; s < t->nsm && t->sms; s++) {
    free(t->sms[s].warps);
    free(t->sms[s].wgs);
    free(t->sms[s].cu);
  }
  free(t->sms);
  free(t->ops);
  free(t->wgpool);
  t->sms = NULL;
  t->ops = NULL;
  t->wgpool = NULL;
  t->nsm = 0;
}

void vt_timing_free(vt_timing *t) {
  if (!t) return;
  free_shape(t);
  free(t);
}

const vt_settings *vt_timing_get_config(const vt_timing *t) { return &t->cfg; }

/* (re)build SMs and the memory system for nsm SMs of nslots warp slots; the
 * caches persist between launches of the same shape */
static int setup_shape(vt_timing *t, unsigned nsm, unsigned nslots) {
  if (t->sms && t->nsm == nsm && t->nslots == nslots) return 0;
  free_shape(t);
  t->nsm = nsm;
  t->nslots = nslots;
  t->ncu = t->cfg.collector_units ? t->cfg.collector_units : nslots;
  if (t->ncu > 32) t->ncu = 32;
  t->lsu_mshr = t->cfg.lsu_mshr ? t->cfg.lsu_mshr : nslots;
  t->sms = calloc(nsm, sizeof *t->sms);
  if (!t->sms) return -1;
  for (unsigned s = 0; s < nsm; s++) {
    tm_sm *sm = &t->sms[s];
    sm->warps = calloc(nslots, sizeof *sm->warps);
    sm->wgs = calloc(t->cfg.wg_slots, sizeof *sm->wgs);
    sm->cu = malloc(t->ncu * sizeof *sm->cu);
    if (!sm->warps || !sm->wgs || !sm->cu) return -1;
    for (unsigned i = 0; i < t->ncu; i++) sm->cu[i] = -1;
  }
  /* every op is in a collector unit or a unit queue */
  t->nops = nsm * (t->ncu + TM_U_COUNT * TM_UQ) + 8;
  t->ops = calloc(t->nops, sizeof *t->ops);
  t->nwgpool = nsm * t->cfg.wg_slots;
  t->wgpool = calloc(t->nwgpool, sizeof *t->wgpool);
  if (!t->ops || !t->wgpool) return -1;
  t->op_free = -1;
  for (unsigned i = t->nops; i-- > 0;) {
    t->ops[i].next = t->op_free;
    t->op_free = (int)i;
  }
  return tm_mem_init(t);
}

/* drop everything in flight (after an error) */
static void reset_sms(vt_timing *t) {
  for (unsigned s = 0; s < t->nsm; s++) {
    tm_sm *sm = &t->sms[s];
    for (unsigned i = 0; i < sm->nwgs; i++) {
      vt_step_wg_free(t->dev, sm->wgs[i]->fw);
      sm->wgs[i]->live = false;
    }
    sm->nwgs = 0;
    sm->lds_used = 0;
    sm->sgprs_used = sm->vgprs_used = 0;
    memset(sm->warps, 0, t->nslots * sizeof *sm->warps);
    sm->nwarps_res = 0;
    for (unsigned i = 0; i < t->ncu; i++) sm->cu[i] = -1;
    sm->ncu_used = 0;
    sm->cu_path[0] = sm->cu_path[1] = sm->cu_pending = sm->cu_lost = 0;
    memset(sm->uq, 0, sizeof sm->uq);
    sm->uq_busy = 0;
    sm->lsu_mshr_used = 0;
    sm->fq_n = 0;
    tm_dma_reset(sm);
  }
  t->op_free = -1;
  for (unsigned i = t->nops; i-- > 0;) {
    t->ops[i].next = t->op_free;
    t->op_free = (int)i;
  }
}

/* stall accounting: the reasons of this cycle (histogram of the dispatch
 * stage) hold until 'next' */
static void account(vt_timing *t, uint64_t next) {
  uint64_t d = next - t->now;
  for (unsigned s = 0; s < t->nsm; s++) {
    tm_sm *sm = &t->sms[s];
    if (!sm->ncounted) continue;
    uint64_t *c = sm->c;
    c[VT_C_warp_cycles] += d * sm->ncounted;
    c[VT_C_sm_busy_cycles] += d;
    for (unsigned r = 0; r < TM_ST_COUNT; r++) c[VT_C_st_issue + r] += d * sm->rhist[r];
    if (!t->tl) continue;
    for (unsigned slot = 0; slot < t->nslots; slot++) {
      tm_warp *w = &sm->warps[slot];
      if (!w->fw || w->start_at > t->now || w->reason == w->span_reason) continue;
      if (w->span_reason < TM_ST_COUNT && w->span_reason != TM_ST_ISSUE)
        tm_tl_span(t, s, slot, tm_reason_names[w->span_reason], w->span_start, t->now);
      w->span_reason = w->reason;
      w->span_start = t->now;
    }
  }
}

/* the model's shape and launch-dependent values for launch l on dev */
static int setup_launch(vt_timing *t, vt_device *dev, const vt_launch *l, vt_error *err) {
  const vt_settings *ds = vt_device_settings(dev);
  unsigned nslots = ds->warp_slots;
  if (nslots < l->warps_per_wg) nslots = l->warps_per_wg;
  if (nslots > 32) {
    vt_err_set(err, VT_ERR_CONFIG, "the timing model supports at most 32 warp slots per SM (%u)",
               nslots);
    return VT_ERR_CONFIG;
  }
  if (setup_shape(t, ds->sms, nslots) != 0) {
    free_shape(t);
    vt_err_set(err, VT_ERR_NOMEM, "out of host memory (timing model)");
    return VT_ERR_NOMEM;
  }
  const vt_settings *c = &t->cfg;
  t->numt = l->threads_per_warp;
  t->sfu_lanes = c->sfu_lanes ? c->sfu_lanes : (t->numt / 4 ? t->numt / 4 : 1);
  t->smem_banks = c->smem_banks ? c->smem_banks : t->numt;
  if (t->smem_banks > 32) t->smem_banks = 32;
  t->lat_tc = c->lat_tensor ? c->lat_tensor : t->numt == 8 ? 10 : t->numt == 32 ? 12 : 8;
  t->lds_per_sm = ds->lds_bytes < l->lds_size ? l->lds_size : ds->lds_bytes;
  uint64_t sg = wg_regs(l->sgpr_usage, l->warps_per_wg);
  uint64_t vg = wg_regs(l->vgpr_usage, l->warps_per_wg);
  t->sgprs_per_sm = t->cfg.sgprs_per_sm < sg ? sg : t->cfg.sgprs_per_sm;
  t->vgprs_per_sm = t->cfg.vgprs_per_sm < vg ? vg : t->cfg.vgprs_per_sm;
  t->budget = ds->max_insns;
  t->dev = dev;
  t->launch = l;
  t->err = err;
  t->err_rc = VT_OK;
  t->executed = 0;
  t->next_wg = t->done_wg = 0;
  t->done_not_before = 0;
  t->total_wg = (uint64_t)l->num_wg[0] * l->num_wg[1] * l->num_wg[2];
  t->launch_start = t->now;
  t->cta_free = t->now + c->launch_overhead;
  t->cta_pref = 0;
  return VT_OK;
}

/* cycles until every workgroup is done; the end cycle */
static uint64_t simulate(vt_timing *t) {
  uint64_t end = t->now, next_poll = VT_POLL_INTERVAL, iterations = 0;
  for (;;) {
    t->progress = false;
    t->next_ev = TM_NEVER;
    if (tm_cta_cycle(t) != VT_OK) break;
    for (unsigned s = 0; s < t->nsm && !t->err_rc; s++) tm_sm_cycle(t, s);
    if (t->err_rc) break;
    if (t->done_wg == t->total_wg) {
      end = tm_max(t->now + 1, t->done_not_before);
      account(t, end);
      break;
    }
    uint64_t next = t->progress ? t->now + 1 : t->next_ev;
    if (next == TM_NEVER) {
      vt_err_set(t->err, VT_ERR_DEADLOCK, "timing model: no warp can make progress at cycle %llu",
                 (unsigned long long)t->now);
      t->err_rc = VT_ERR_DEADLOCK;
      break;
    }
    account(t, next);
    t->now = next;
    /* the host's poll (interruption, time limit, progress), also while
     * the warps wait for memory */
    if (t->executed >= next_poll || (++iterations & 0xffff) == 0) {
      next_poll = t->executed + VT_POLL_INTERVAL;
      t->err_rc = vt_step_poll(t->dev, t->executed, t->done_wg, t->total_wg, t->err);
      if (t->err_rc != VT_OK) break;
    }
  }
  return end;
}

int vt_timing_run(vt_timing *t, vt_device *dev, const vt_launch *l, const char *name,
                  vt_error *err) {
  vt_error local;
  if (!err) err = &local;
  memset(err, 0, sizeof *err);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int rc = vt_step_check(dev, l, err);
  if (rc == VT_OK) rc = setup_launch(t, dev, l, err);
  if (rc == VT_OK) rc = vt_step_begin(dev, l, name, t->nsm, true, true, err);
  if (rc != VT_OK) return rc;
  tm_tlb_launch(t);
  for (unsigned s = 0; s < t->nsm; s++) t->sms[s].c = vt_step_counters(dev, s);
  t->stats = vt_device_stats(dev);
  t->nlaunch++;
  if (t->tl && t->nlaunch == 1) tm_tl_meta(t);
  uint64_t end = simulate(t);
  rc = t->err_rc;
  uint64_t cycles = end - t->launch_start;
  for (unsigned s = 0; s < t->nsm; s++) t->sms[s].c[VT_C_cycles] = cycles;
  t->total_cycles += cycles;
  for (unsigned s = 0; s < t->nsm; s++)
    for (unsigned i = 0; i < t->sms[s].nwgs; i++) vt_step_wg_dump(dev, t->sms[s].wgs[i]->fw, s, rc);
  if (rc != VT_OK) reset_sms(t);
  t->now = end + 1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  vt_step_end(dev, (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec)));
  return rc;
}
