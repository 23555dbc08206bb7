/* The host threads of a device (run.h): a pool started on first use and
 * kept until the device is freed. In an epoch with several SMs each SM's
 * slice runs on some thread (the calling one included) against a private
 * copy of the device: its own counters row pointer, trace scratch, decode
 * cache and the SM's overlay. Which thread runs which SM does not matter:
 * a slice reads only what no slice writes during the epoch. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

/* a host thread's copy of the device and the decode cache it keeps */
typedef struct vt_worker {
  vt_device copy;
} vt_worker;

typedef struct vt_workers vt_workers;
struct vt_workers {
  pthread_mutex_t mu;
  pthread_cond_t go, done;
  pthread_t *tids;
  unsigned nthreads;   /* helper threads started */
  vt_worker **w;       /* [0]: the calling thread's, then one per helper */
  unsigned nw;
  uint64_t gen;        /* work handed out so far (written with __atomic stores) */
  bool quit;
  /* the work of the current generation */
  vt_run *r;
  vt_sm **list;
  unsigned n, next;
  uint64_t finished;   /* slices done (written with __atomic stores) */
};

/* How long a thread polls for the next epoch, or for the other threads'
 * slices, before it sleeps: a slice of the plain loop takes about 100 us,
 * waking a sleeping thread tens of us (more on a virtual machine), and the
 * calling thread does a slice itself when no helper has taken it yet. */
#define SPIN_NS 300000u

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* poll *v (written with __atomic stores) while it equals 'from', for at
 * most SPIN_NS */
static void spin_while(const uint64_t *v, uint64_t from) {
  uint64_t start = now_ns();
  for (unsigned k = 1; __atomic_load_n(v, __ATOMIC_ACQUIRE) == from; k++) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    if (k % 64 == 0 && now_ns() - start > SPIN_NS) return;
  }
}

typedef struct helper_arg {
  vt_workers *ws;
  unsigned index;
} helper_arg;

unsigned vt_run_host_threads(const vt_device *dev) {
  /* trace callbacks and debugger hooks see one instruction at a time */
  if (dev->trace || dev->hooks.before || dev->hooks.after) return 1;
  if (dev->cfg.reference) return 1; /* the simple exact paths (docs/run.md) */
  if (dev->cfg.host_threads) return dev->cfg.host_threads;
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 1024 ? 1024 : (unsigned)n;
}

static void run_one(vt_worker *wk, vt_run *r, vt_sm *sm) {
  vt_device *c = &wk->copy;
  struct vt_dcache_entry **dcache = c->dcache;
  size_t chunks = c->dcache_chunks;
  memcpy(c, r->dev, sizeof *c);
  c->dcache = dcache;
  c->dcache_chunks = chunks;
  if (c->reference) vt_dcache_drop(c); /* an earlier launch's */
  c->ovl = &sm->ovl;
  c->warn = vt_sm_warn;
  c->warn_ctx = sm;
  c->workers = NULL;
  vt_xctx x = {c, r, sm};
  vt_sm_slice(&x);
}

/* claim and run slices of the current generation; called with mu held */
static void work(vt_workers *ws, vt_worker *wk) {
  while (ws->next < ws->n) {
    vt_sm *sm = ws->list[ws->next++];
    pthread_mutex_unlock(&ws->mu);
    run_one(wk, ws->r, sm);
    pthread_mutex_lock(&ws->mu);
    if (__atomic_add_fetch(&ws->finished, 1, __ATOMIC_RELEASE) == ws->n)
      pthread_cond_signal(&ws->done);
  }
}

static void *helper(void *p) {
  helper_arg a = *(helper_arg *)p;
  free(p);
  vt_workers *ws = a.ws;
  pthread_mutex_lock(&ws->mu);
  uint64_t seen = 0;
  for (;;) {
    if (!ws->quit && ws->gen == seen) { /* the next epoch usually comes soon */
      pthread_mutex_unlock(&ws->mu);
      spin_while(&ws->gen, seen);
      pthread_mutex_lock(&ws->mu);
    }
    while (!ws->quit && ws->gen == seen) pthread_cond_wait(&ws->go, &ws->mu);
    if (ws->quit) break;
    seen = ws->gen;
    work(ws, ws->w[a.index]);
  }
  pthread_mutex_unlock(&ws->mu);
  return NULL;
}

static vt_worker *worker_new(void) { return calloc(1, sizeof(vt_worker)); }

static void worker_free(vt_worker *wk) {
  if (!wk) return;
  for (size_t i = 0; i < wk->copy.dcache_chunks; i++) free(wk->copy.dcache[i]);
  free(wk->copy.dcache);
  free(wk);
}

static vt_workers *pool_get(vt_device *dev) {
  if (dev->workers) return dev->workers;
  vt_workers *ws = calloc(1, sizeof *ws);
  if (!ws) return NULL;
  ws->w = calloc(1, sizeof *ws->w);
  if (!ws->w || !(ws->w[0] = worker_new())) {
    free(ws->w);
    free(ws);
    return NULL;
  }
  ws->nw = 1;
  pthread_mutex_init(&ws->mu, NULL);
  pthread_cond_init(&ws->go, NULL);
  pthread_cond_init(&ws->done, NULL);
  dev->workers = ws;
  return ws;
}

/* start helpers until there are 'want' (fewer if the host refuses) */
static void pool_grow(vt_workers *ws, unsigned want) {
  if (ws->nthreads >= want) return;
  pthread_t *t = realloc(ws->tids, want * sizeof *t);
  if (!t) return;
  ws->tids = t;
  vt_worker **w = realloc(ws->w, (want + 1) * sizeof *w);
  if (!w) return;
  ws->w = w;
  while (ws->nthreads < want) {
    vt_worker *wk = worker_new();
    helper_arg *a = malloc(sizeof *a);
    if (!wk || !a) {
      worker_free(wk);
      free(a);
      return;
    }
    ws->w[ws->nthreads + 1] = wk;
    a->ws = ws;
    a->index = ws->nthreads + 1;
    if (pthread_create(&ws->tids[ws->nthreads], NULL, helper, a) != 0) {
      worker_free(wk);
      free(a);
      return;
    }
    ws->nthreads++;
    ws->nw++;
  }
}

int vt_workers_run(vt_run *r, vt_sm **list, unsigned n) {
  vt_workers *ws = pool_get(r->dev);
  if (!ws) return VT_ERR_NOMEM;
  unsigned threads = r->threads < n ? r->threads : n;
  if (threads <= 1) {
    for (unsigned i = 0; i < n; i++) run_one(ws->w[0], r, list[i]);
    return VT_OK;
  }
  pthread_mutex_lock(&ws->mu);
  pool_grow(ws, threads - 1);
  ws->r = r;
  ws->list = list;
  ws->n = n;
  ws->next = 0;
  __atomic_store_n(&ws->finished, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&ws->gen, ws->gen + 1, __ATOMIC_RELEASE);
  pthread_cond_broadcast(&ws->go);
  work(ws, ws->w[0]);
  if (ws->finished < ws->n) { /* the helpers' slices usually end soon */
    pthread_mutex_unlock(&ws->mu);
    for (uint64_t f; (f = __atomic_load_n(&ws->finished, __ATOMIC_ACQUIRE)) < ws->n;) {
      spin_while(&ws->finished, f);
      if (__atomic_load_n(&ws->finished, __ATOMIC_ACQUIRE) == f) break; /* slept on: wait */
    }
    pthread_mutex_lock(&ws->mu);
  }
  while (ws->finished < ws->n) pthread_cond_wait(&ws->done, &ws->mu);
  pthread_mutex_unlock(&ws->mu);
  return VT_OK;
}

void vt_workers_free(vt_device *dev) {
  vt_workers *ws = dev->workers;
  if (!ws) return;
  pthread_mutex_lock(&ws->mu);
  ws->quit = true;
  pthread_cond_broadcast(&ws->go);
  pthread_mutex_unlock(&ws->mu);
  for (unsigned i = 0; i < ws->nthreads; i++) pthread_join(ws->tids[i], NULL);
  for (unsigned i = 0; i < ws->nw; i++) worker_free(ws->w[i]);
  pthread_cond_destroy(&ws->go);
  pthread_cond_destroy(&ws->done);
  pthread_mutex_destroy(&ws->mu);
  free(ws->tids);
  free(ws->w);
  free(ws);
  dev->workers = NULL;
}
