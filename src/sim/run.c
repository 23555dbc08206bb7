/* The functional run loop (vt_device_run): workgroup dispatch at each
 * epoch's start and the epochs themselves, with one SM active or several
 * (run.h explains the schedule and why it is the same for every number of
 * host threads). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "exec_util.h"
#include "run.h"

static int nomem(vt_run *r) {
  vt_err_set(r->err, VT_ERR_NOMEM, "out of host memory");
  return VT_ERR_NOMEM;
}

static bool room(const vt_run *r, const vt_sm *sm) {
  return sm->used_slots + r->l->warps_per_wg <= r->slots &&
         sm->used_lds + r->l->lds_size <= r->lds_capacity;
}

static int append(vt_wg ***arr, unsigned *n, unsigned *cap, vt_wg *wg) {
  if (*n == *cap) {
    unsigned c = *cap ? 2 * *cap : 8;
    vt_wg **a = realloc(*arr, c * sizeof *a);
    if (!a) return -1;
    *arr = a;
    *cap = c;
  }
  (*arr)[(*n)++] = wg;
  return 0;
}

static vt_wg *create(vt_run *r, unsigned s) {
  vt_wg *wg = vt_step_wg_new(r->dev, (unsigned)r->next_wg, s);
  if (!wg) {
    vt_err_set(r->err, VT_ERR_NOMEM, "out of host memory creating workgroup %llu",
               (unsigned long long)r->next_wg);
    return NULL;
  }
  r->next_wg++;
  return wg;
}

/* How many waiting workgroups an SM may get at an epoch's start: as many
 * as it can hold ('hold'), and for short workgroups more, up to
 * VT_PEND_FACTOR times that, so that an epoch is not mostly its start and
 * end (merging, translations refilled): enough for a slice at the
 * instructions per workgroup so far. That count is the same for every
 * number of host threads, and so is the schedule. */
#define VT_PEND_FACTOR 4u
static unsigned pending_limit(const vt_run *r, unsigned hold) {
  if (!r->done_wg) return hold;
  uint64_t per_wg = r->executed / r->done_wg + 1;
  uint64_t want = VT_EPOCH_SLICE / per_wg;
  if (want <= hold) return hold;
  return want >= (uint64_t)VT_PEND_FACTOR * hold ? VT_PEND_FACTOR * hold : (unsigned)want;
}

/* Free warp slots get new workgroups, SMs in order; with several SMs each
 * then gets waiting workgroups in turn, up to pending_limit. */
static int dispatch(vt_run *r, bool *progress) {
  vt_device *dev = r->dev;
  for (unsigned s = 0; s < r->nsm; s++) {
    vt_sm *sm = &r->sms[s];
    while (!sm->npend && r->next_wg < r->total_wg && room(r, sm) && vt_step_wg_can_start(dev)) {
      vt_wg *wg = create(r, s);
      if (!wg) return VT_ERR_NOMEM;
      if (append(&sm->wgs, &sm->nwgs, &sm->wgs_cap, wg) != 0) {
        vt_wg_free(dev, wg);
        return nomem(r);
      }
      sm->used_slots += wg->nwarps;
      sm->used_lds += r->l->lds_size;
      *progress = true;
    }
  }
  if (r->nsm < 2) return VT_OK;
  unsigned hold = r->slots / r->l->warps_per_wg;
  if (r->l->lds_size && r->lds_capacity / r->l->lds_size < hold)
    hold = (unsigned)(r->lds_capacity / r->l->lds_size);
  hold = pending_limit(r, hold);
  for (bool more = true; more;) {
    more = false;
    for (unsigned s = 0; s < r->nsm; s++) {
      vt_sm *sm = &r->sms[s];
      if (sm->npend >= hold || r->next_wg >= r->total_wg || !vt_step_wg_can_start(dev)) continue;
      vt_wg *wg = create(r, s);
      if (!wg) return VT_ERR_NOMEM;
      if (append(&sm->pend, &sm->npend, &sm->pend_cap, wg) != 0) {
        vt_wg_free(dev, wg);
        return nomem(r);
      }
      more = *progress = true;
    }
  }
  return VT_OK;
}

/* the budget left, and whether it binds a slice of at most 'slice' */
static uint64_t cap_of(const vt_run *r, uint64_t used, uint64_t slice, bool *budget) {
  uint64_t left = r->budget - r->executed - used;
  *budget = left <= slice;
  return *budget ? left : slice;
}

/* an epoch with one SM active: on the launch's device, as it always ran */
static int epoch_direct(vt_run *r, vt_sm *sm, bool *progress) {
  r->overlay = false;
  sm->cap = cap_of(r, 0, VT_DIRECT_SLICE, &sm->budget_cap);
  vt_xctx x = {r->dev, r, sm};
  vt_sm_slice(&x);
  r->executed += sm->executed;
  r->done_wg += sm->finished;
  *progress |= sm->executed || sm->finished;
  if (sm->rc) *r->err = sm->err;
  return sm->rc;
}

/* the end of an epoch with several SMs: overlays merged (up to the lowest
 * SM with an error), warnings given, finished workgroups freed */
static int epoch_merge(vt_run *r, vt_sm **list, unsigned n, bool *progress) {
  vt_device *dev = r->dev;
  int rc = VT_OK;
  for (unsigned i = 0; i < n; i++) {
    vt_sm *sm = list[i];
    r->executed += sm->executed;
    r->done_wg += sm->finished;
    *progress |= sm->executed || sm->finished || sm->nparked;
    if (rc == VT_OK && vt_ovl_merge(&sm->ovl, &dev->mem.global) != 0) rc = nomem(r);
    if (rc == VT_OK && sm->warn && dev->warn)
      for (char *m = sm->warn, *e; (e = strchr(m, '\n')); m = e + 1) {
        *e = 0;
        dev->warn(dev->warn_ctx, m);
      }
    vt_ovl_clear(&sm->ovl);
    free(sm->warn);
    sm->warn = NULL;
    sm->warn_len = 0;
    if (rc == VT_OK && sm->rc) {
      rc = sm->rc;
      *r->err = sm->err;
    }
    vt_sm_flush(sm);
    for (unsigned g = 0; g < sm->ndone; g++) vt_wg_free(dev, sm->done[g]);
    sm->ndone = 0;
  }
  return rc;
}

/* the deferred instructions, SM by SM, each alone on the launch's device */
static int epoch_parked(vt_run *r, vt_sm **list, unsigned n) {
  r->overlay = false;
  for (unsigned i = 0; i < n; i++) {
    vt_sm *sm = list[i];
    for (unsigned k = 0; k < sm->nparked; k++) {
      vt_warp *w = sm->parked[k];
      if (r->executed >= r->budget) {
        vt_err_set(r->err, VT_ERR_BUDGET,
                   "instruction budget of %llu warp instructions exhausted (--max-insns)",
                   (unsigned long long)r->budget);
        vt_step_locate(r->dev, w, sm->id, r->err);
        return VT_ERR_BUDGET;
      }
      int rc = vt_sm_run_parked(r, sm, w);
      if (rc != VT_OK) return rc;
      r->executed++;
    }
    sm->nparked = 0;
  }
  return VT_OK;
}

/* An epoch whose SMs ran dry early (short workgroups) costs more to hand
 * to other threads than it saves: the next one runs on the calling thread.
 * Threads never change results, so this is only a matter of speed. */
#define VT_SHORT_EPOCH (VT_EPOCH_SLICE / 16)

/* an epoch with several SMs active (run.h) */
static int epoch_overlay(vt_run *r, vt_sm **list, unsigned n, bool *progress) {
  r->overlay = true;
  for (unsigned i = 0; i < n; i++) vt_sm_flush(list[i]);
  int rc = VT_OK;
  uint64_t before = r->executed;
  if (r->budget - r->executed >= (uint64_t)n * VT_EPOCH_SLICE) {
    for (unsigned i = 0; i < n; i++) {
      list[i]->cap = VT_EPOCH_SLICE;
      list[i]->budget_cap = false;
    }
    unsigned threads = r->threads;
    if (r->short_epoch) r->threads = 1;
    rc = vt_workers_run(r, list, n);
    r->threads = threads;
  } else {
    /* the budget may run out: exact limits, one SM after the other */
    uint64_t used = 0;
    for (unsigned i = 0; i < n && rc == VT_OK; i++) {
      list[i]->cap = cap_of(r, used, VT_EPOCH_SLICE, &list[i]->budget_cap);
      rc = vt_workers_run(r, list + i, 1);
      used += list[i]->executed;
    }
  }
  if (rc != VT_OK) return nomem(r);
  rc = epoch_merge(r, list, n, progress);
  r->short_epoch = r->executed - before < (uint64_t)n * VT_SHORT_EPOCH;
  if (rc == VT_OK) rc = epoch_parked(r, list, n);
  return rc;
}

/* Under a debugger (hooks) the SMs' slices run one after the other on the
 * launch's device, so that what the debugger reads and writes is memory. */
static bool one_by_one(const vt_device *dev) { return dev->hooks.before || dev->hooks.after; }

static int epoch(vt_run *r, vt_sm **list, bool *progress) {
  unsigned n = 0;
  for (unsigned s = 0; s < r->nsm; s++)
    if (r->sms[s].nwgs || r->sms[s].npend) list[n++] = &r->sms[s];
  if (n == 1 || (n && one_by_one(r->dev))) {
    int rc = VT_OK;
    for (unsigned i = 0; i < n && rc == VT_OK; i++) rc = epoch_direct(r, list[i], progress);
    return rc;
  }
  return n ? epoch_overlay(r, list, n, progress) : VT_OK;
}

static int run_setup(vt_run *r, const char *name) {
  vt_device *dev = r->dev;
  const vt_launch *l = r->l;
  r->nsm = dev->cfg.sms;
  r->slots = dev->cfg.warp_slots < l->warps_per_wg ? l->warps_per_wg : dev->cfg.warp_slots;
  /* local memory per SM bounds the resident workgroups too (uarch.md 4) */
  r->lds_capacity = dev->cfg.lds_bytes < l->lds_size ? l->lds_size : dev->cfg.lds_bytes;
  r->total_wg = (uint64_t)l->num_wg[0] * l->num_wg[1] * l->num_wg[2];
  r->budget = dev->cfg.max_insns;
  r->threads = vt_run_host_threads(dev);
  r->sms = calloc(r->nsm, sizeof *r->sms);
  if (!r->sms) return nomem(r);
  for (unsigned s = 0; s < r->nsm; s++) {
    r->sms[s].id = s;
    /* with the MMU the overlays hold physical frames (mmu_sim.c) */
    r->sms[s].ovl.drop = dev->mmu ? vt_sm_drop_frame : vt_sm_drop_page;
    r->sms[s].ovl.drop_ctx = &r->sms[s];
  }
  r->next_poll = VT_POLL_INTERVAL;
  int rc = vt_step_begin(dev, l, name, r->nsm, false, false, r->err);
  if (rc == VT_OK) dev->run = r;
  return rc;
}

/* free what is resident; after an early stop, describe the live warps first */
static void run_teardown(vt_run *r, int rc) {
  vt_device *dev = r->dev;
  if (rc != VT_OK && dev->run && dev->hooks.failed) dev->hooks.failed(dev->hooks.ctx, r->err);
  dev->run = NULL;
  if (!r->sms) return;
  if (vt_sim_dump_wanted(rc))
    for (unsigned s = 0; s < r->nsm; s++)
      for (unsigned g = 0; g < r->sms[s].nwgs; g++) vt_sim_dump_wg(dev, r->sms[s].wgs[g], s);
  for (unsigned s = 0; s < r->nsm; s++) {
    vt_sm *sm = &r->sms[s];
    for (unsigned g = 0; g < sm->nwgs; g++) vt_wg_free(dev, sm->wgs[g]);
    for (unsigned g = 0; g < sm->npend; g++) vt_wg_free(dev, sm->pend[g]);
    for (unsigned g = 0; g < sm->ndone; g++) vt_wg_free(dev, sm->done[g]);
    for (unsigned k = 0; k < sm->nparked; k++) sm->parked[k]->parked = false;
    free(sm->wgs);
    free(sm->pend);
    free(sm->done);
    free(sm->run);
    free(sm->parked);
    free(sm->warn);
    vt_ovl_free(&sm->ovl);
  }
  free(r->sms);
}

static int run_loop(vt_run *r) {
  vt_sm **list = calloc(r->nsm, sizeof *list);
  if (!list) return nomem(r);
  int rc = VT_OK;
  while (rc == VT_OK && r->done_wg < r->total_wg) {
    bool progress = false;
    rc = dispatch(r, &progress);
    if (rc == VT_OK) rc = epoch(r, list, &progress);
    if (rc == VT_OK && !progress) {
      vt_err_set(r->err, VT_ERR_DEADLOCK, "no warp can make progress");
      rc = VT_ERR_DEADLOCK;
    }
    if (rc == VT_OK && r->executed >= r->next_poll) {
      r->next_poll = r->executed + VT_POLL_INTERVAL;
      rc = vt_step_poll(r->dev, r->executed, r->done_wg, r->total_wg, r->err);
    }
  }
  free(list);
  return rc;
}

/* the resident warps and the progress of the running launch (sim_debug.c) */
size_t vt_sim_resident_warps(const vt_device *dev, vt_warp **out, size_t max) {
  const vt_run *r = dev->run;
  size_t n = 0;
  for (unsigned s = 0; r && s < r->nsm; s++)
    for (unsigned g = 0; g < r->sms[s].nwgs; g++)
      for (unsigned i = 0; i < r->sms[s].wgs[g]->nwarps; i++, n++)
        if (n < max) out[n] = r->sms[s].wgs[g]->warps[i];
  return n;
}

bool vt_sim_run_progress(const vt_device *dev, vt_run_progress *p) {
  const vt_run *r = dev->run;
  if (!r) return false;
  *p = (vt_run_progress){r->executed, r->done_wg, r->total_wg};
  return true;
}

int vt_device_run(vt_device *dev, const vt_launch *l, const char *name, vt_error *err) {
  vt_error local;
  if (!err) err = &local;
  memset(err, 0, sizeof *err);
  int rc = vt_step_check(dev, l, err);
  if (rc) return rc;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  vt_run r;
  memset(&r, 0, sizeof r);
  r.dev = dev, r.l = l, r.err = err;
  rc = run_setup(&r, name);
  if (rc == VT_OK) rc = run_loop(&r);
  run_teardown(&r, rc);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  vt_step_end(dev, (uint64_t)((t1.tv_sec - t0.tv_sec) * 1000000000ll + (t1.tv_nsec - t0.tv_nsec)));
  return rc;
}
