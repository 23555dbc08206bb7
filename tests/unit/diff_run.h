/* diff_run.h - the differential runner (issue 14, docs/run.md Reference
 * mode): a job (a sequence of launches on one device) runs with the
 * setting reference on and one host thread, and with every fast path on and
 * 2 host threads, once with the lane loops' AVX2 variant where the host has
 * it and once with the portable one; the fast runs must agree with the
 * reference on the status and error (message
 * and location) of every launch, every byte of the memory regions the job
 * names, every counter but host time, and the final state of every warp:
 * scalar and vector registers (all 256 of each, all 32 lanes), CSRs, pc,
 * SIMT mask and stack, state and instructions retired, read when its
 * workgroup leaves the device (vt_device_set_warp_end). */
#ifndef VT_TEST_DIFF_RUN_H
#define VT_TEST_DIFF_RUN_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "counters_util.h"
#include "vt/settings.h"
#include "vt/sim.h"
#include "vt/sim_debug.h"

#define DIFF_MAX_REGIONS 64
#define DIFF_MAX_LAUNCHES 16
#define DIFF_NCSR 4096
#define DIFF_SIMT 16 /* SIMT stack entries compared (the top ones) */

typedef struct diff_region {
  uint32_t addr, size;
} diff_region;

typedef struct diff_run diff_run;
/* One job: step k (k < nsteps) sets up launch k on dev (memory, *l) and
 * adds the regions to compare (after every launch) with diff_add_region. */
typedef struct diff_job {
  const char *name;
  unsigned nsteps;
  int (*setup)(void *arg, vt_device *dev, unsigned k, vt_launch *l, diff_run *r, vt_error *err);
  void *arg;
  unsigned sms; /* device SMs (0: default) */
  uint64_t max_insns; /* 0: default */
} diff_job;

/* a warp's final state */
typedef struct diff_warp {
  vt_warp_info info;
  uint32_t x[VT_NUM_XREGS];
  uint32_t v[VT_NUM_VREGS][VT_MAX_LANES];
  uint32_t csr[DIFF_NCSR]; /* 0xdeadbeef + 1 where there is no such CSR */
  vt_simt_info simt[DIFF_SIMT];
} diff_warp;

typedef struct diff_launch {
  int rc;
  vt_error err;
  uint8_t *mem; /* the first nreg regions' bytes, in order (unmapped: 0xee) */
  size_t mem_len;
  unsigned nreg;
} diff_launch;

struct diff_run {
  unsigned nl;
  diff_launch l[DIFF_MAX_LAUNCHES];
  double ctr[VT_C_COUNT];
  diff_warp **w;
  size_t nw, capw;
  bool nomem;
  diff_region reg[DIFF_MAX_REGIONS];
  unsigned nreg;
};

static inline void diff_add_region(diff_run *r, uint32_t addr, uint32_t size) {
  if (r->nreg < DIFF_MAX_REGIONS && size) r->reg[r->nreg++] = (diff_region){addr, size};
}

static void diff_on_warp_end(void *ctx, const vt_warp *w) {
  diff_run *r = ctx;
  if (r->nw == r->capw) {
    size_t c = r->capw ? 2 * r->capw : 16;
    diff_warp **a = realloc(r->w, c * sizeof *a);
    if (!a) {
      r->nomem = true;
      return;
    }
    r->w = a;
    r->capw = c;
  }
  diff_warp *d = calloc(1, sizeof *d);
  if (!d) {
    r->nomem = true;
    return;
  }
  vt_warp_get_info(w, &d->info);
  for (unsigned k = 0; k < VT_NUM_XREGS; k++) d->x[k] = vt_warp_get_x(w, k);
  for (unsigned k = 0; k < VT_NUM_VREGS; k++)
    for (unsigned i = 0; i < VT_MAX_LANES; i++) d->v[k][i] = vt_warp_get_v(w, k, i);
  for (unsigned c = 0; c < DIFF_NCSR; c++)
    if (vt_warp_get_csr(w, c, &d->csr[c]) != 0) d->csr[c] = 0xdeadbef0u;
  for (unsigned i = 0; i < DIFF_SIMT; i++) vt_warp_simt_entry(w, i, &d->simt[i]);
  r->w[r->nw++] = d;
}

static void diff_run_free(diff_run *r) {
  for (unsigned i = 0; i < r->nl; i++) free(r->l[i].mem);
  for (size_t i = 0; i < r->nw; i++) free(r->w[i]);
  free(r->w);
  memset(r, 0, sizeof *r);
}

/* the regions' bytes after a launch */
static void diff_snapshot(vt_device *dev, diff_run *r, diff_launch *dl) {
  size_t n = 0;
  for (unsigned i = 0; i < r->nreg; i++) n += r->reg[i].size;
  dl->mem = malloc(n ? n : 1);
  if (!dl->mem) {
    r->nomem = true;
    return;
  }
  dl->mem_len = n;
  dl->nreg = r->nreg;
  size_t at = 0;
  for (unsigned i = 0; i < r->nreg; i++) {
    vt_error e;
    if (vt_mem_read(dev, r->reg[i].addr, dl->mem + at, r->reg[i].size, &e) != VT_OK)
      memset(dl->mem + at, 0xee, r->reg[i].size);
    at += r->reg[i].size;
  }
}

/* how a job runs: the setting reference and 1 host thread; 2 host threads
 * with every fast path; the same with the fast paths' portable lane loops
 * (setting portable_simd; the same as the previous where the host has no
 * AVX2) */
typedef enum { DIFF_REFERENCE, DIFF_FAST, DIFF_FAST_PORTABLE } diff_mode;

/* Runs the job once in the given mode. */
static int diff_run_job(const diff_job *j, diff_mode mode, diff_run *r, char *msg, size_t msgn) {
  memset(r, 0, sizeof *r);
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.reference = mode == DIFF_REFERENCE;
  cfg.portable_simd = mode == DIFF_FAST_PORTABLE;
  cfg.host_threads = mode == DIFF_REFERENCE ? 1 : 2;
  if (j->sms) cfg.sms = j->sms;
  if (j->max_insns) cfg.max_insns = j->max_insns;
  vt_device *dev = vt_device_new(&cfg);
  if (!dev) {
    snprintf(msg, msgn, "%s: out of memory", j->name);
    return -1;
  }
  vt_device_set_warp_end(dev, diff_on_warp_end, r);
  int rc = 0;
  for (unsigned k = 0; k < j->nsteps && k < DIFF_MAX_LAUNCHES; k++) {
    diff_launch *dl = &r->l[r->nl++];
    vt_launch l;
    memset(&l, 0, sizeof l);
    memset(&dl->err, 0, sizeof dl->err);
    dl->rc = j->setup(j->arg, dev, k, &l, r, &dl->err);
    if (dl->rc == VT_OK) dl->rc = vt_device_run(dev, &l, NULL, &dl->err);
    diff_snapshot(dev, r, dl);
    if (dl->rc != VT_OK) break;
  }
  vt_test_counters(dev, r->ctr);
  vt_device_free(dev);
  if (r->nomem) {
    snprintf(msg, msgn, "%s: out of memory recording the run", j->name);
    rc = -1;
  }
  return rc;
}

static int diff_warp_cmp(const void *a, const void *b) {
  const diff_warp *x = *(diff_warp *const *)a, *y = *(diff_warp *const *)b;
  if (x->info.wg != y->info.wg) return x->info.wg < y->info.wg ? -1 : 1;
  if (x->info.warp != y->info.warp) return x->info.warp < y->info.warp ? -1 : 1;
  return 0;
}

/* the first difference between the runs, or "" */
static void diff_compare(const char *name, diff_run *a, diff_run *b, char *msg, size_t n) {
  msg[0] = 0;
  if (a->nl != b->nl) {
    snprintf(msg, n, "%s: %u launches ran vs %u", name, a->nl, b->nl);
    return;
  }
  for (unsigned i = 0; i < a->nl; i++) {
    const diff_launch *x = &a->l[i], *y = &b->l[i];
    if (x->rc != y->rc || strcmp(x->err.message, y->err.message) != 0 ||
        x->err.has_location != y->err.has_location ||
        (x->err.has_location && (x->err.sm != y->err.sm || x->err.wg != y->err.wg ||
                                 x->err.warp != y->err.warp || x->err.pc != y->err.pc))) {
      snprintf(msg, n, "%s: launch %u: status %d \"%s\" vs %d \"%s\"", name, i, x->rc,
               x->err.message, y->rc, y->err.message);
      return;
    }
    if (x->mem_len != y->mem_len || x->nreg != y->nreg) {
      snprintf(msg, n, "%s: launch %u: memory sizes differ", name, i);
      return;
    }
    size_t at = 0;
    for (unsigned r = 0; r < x->nreg; r++)
      for (uint32_t k = 0; k < a->reg[r].size; k++, at++)
        if (x->mem[at] != y->mem[at]) {
          snprintf(msg, n, "%s: launch %u: memory byte at 0x%08x: 0x%02x vs 0x%02x", name, i,
                   a->reg[r].addr + k, x->mem[at], y->mem[at]);
          return;
        }
  }
  for (int c = 0; c < VT_C_COUNT; c++)
    if (c != VT_C_host_seconds && a->ctr[c] != b->ctr[c] &&
        !(a->ctr[c] != a->ctr[c] && b->ctr[c] != b->ctr[c])) { /* NaN ratios agree */
      snprintf(msg, n, "%s: counter %d: %.17g vs %.17g", name, c, a->ctr[c], b->ctr[c]);
      return;
    }
  if (a->nw != b->nw) {
    snprintf(msg, n, "%s: %zu warps recorded vs %zu", name, a->nw, b->nw);
    return;
  }
  qsort(a->w, a->nw, sizeof *a->w, diff_warp_cmp);
  qsort(b->w, b->nw, sizeof *b->w, diff_warp_cmp);
  for (size_t i = 0; i < a->nw; i++) {
    const diff_warp *x = a->w[i], *y = b->w[i];
    if (memcmp(x, y, sizeof *x) == 0) continue;
    const char *what = memcmp(&x->info, &y->info, sizeof x->info) ? "pc/mask/state/instret"
                     : memcmp(x->x, y->x, sizeof x->x)             ? "scalar registers"
                     : memcmp(x->v, y->v, sizeof x->v)             ? "vector registers"
                     : memcmp(x->csr, y->csr, sizeof x->csr)       ? "CSRs"
                                                                   : "SIMT stack";
    snprintf(msg, n, "%s: workgroup %u warp %u: final %s differ", name, x->info.wg,
             x->info.warp, what);
    return;
  }
}

/* Runs the job both ways and compares; "" in msg when they agree.
 * Returns -1 when a run could not be made (msg says why). */
static int diff_check(const diff_job *j, char *msg, size_t n) {
  diff_run *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
  int rc = -1;
  if (!a || !b) {
    snprintf(msg, n, "%s: out of memory", j->name);
  } else if (diff_run_job(j, DIFF_REFERENCE, a, msg, n) == 0 &&
             diff_run_job(j, DIFF_FAST, b, msg, n) == 0) {
    diff_compare(j->name, a, b, msg, n);
    rc = 0;
    diff_run_free(b);
    if (!msg[0]) {
      rc = diff_run_job(j, DIFF_FAST_PORTABLE, b, msg, n);
      if (rc == 0) diff_compare(j->name, a, b, msg, n);
      if (msg[0] && rc == 0) strncat(msg, " (portable lane loops)", n - strlen(msg) - 1);
    }
    if (getenv("VT_DIFF_VERBOSE")) /* what each job did */
      printf("%s: %u launch(es), last status %d %s, %.0f warp-insns, %zu warps\n", j->name,
             a->nl, a->l[a->nl - 1].rc, a->l[a->nl - 1].err.message,
             a->ctr[VT_C_warp_instructions], a->nw);
  }
  if (a) diff_run_free(a);
  if (b) diff_run_free(b);
  free(a);
  free(b);
  return rc;
}
#endif
