/* The DMA engines (isa2025.md 6.8, 3.9.6): each SM has dma_engines engines
 * with a queue of dma_queue_depth copies. The functional model has made the
 * copy when the instruction is dispatched (D14); the engine then gives it a
 * completion time: after dma_setup_cycles (+ dma_tensor_setup_cycles), the
 * engine requests the source line by line from the L2 (bypassing the L1D)
 * at dma_bytes_per_cycle, and writes each line's bytes into shared memory
 * at dma_smem_bytes_per_cycle once they have arrived; zero tails and
 * out-of-bounds tensor elements are written without being read. A copy
 * completes when its last byte is written; an engine runs its copies one
 * after the other. The issuing warp remembers its latest completion:
 * cp_dma_mbarrier waits for it, and the warp retires only after it. */
#include <string.h>

#include "timing_internal.h"

/* drop the copies of engine e that have completed by now */
static void retire_done(tm_sm *s, unsigned e, uint64_t now) {
  while (s->dma_n[e] && s->dma_q[e][s->dma_head[e]] <= now) {
    s->dma_head[e] = (uint8_t)((s->dma_head[e] + 1) % TM_MAX_DMAQ);
    s->dma_n[e]--;
  }
}

static unsigned engines(const vt_timing *t) {
  return t->cfg.dma_engines < TM_MAX_DMA ? t->cfg.dma_engines : TM_MAX_DMA;
}
static unsigned depth(const vt_timing *t) {
  return t->cfg.dma_queue_depth < TM_MAX_DMAQ ? t->cfg.dma_queue_depth : TM_MAX_DMAQ;
}

/* the engine with room whose queue frees first, or -1 (with a wake-up at
 * the first completion) */
static int pick_engine(vt_timing *t, unsigned sm) {
  tm_sm *s = &t->sms[sm];
  int best = -1;
  uint64_t first = TM_NEVER;
  for (unsigned e = 0; e < engines(t); e++) {
    retire_done(s, e, t->now);
    if (s->dma_n[e] < depth(t)) {
      if (best < 0 || s->dma_free[e] < s->dma_free[best]) best = (int)e;
    } else if (s->dma_q[e][s->dma_head[e]] < first) {
      first = s->dma_q[e][s->dma_head[e]];
    }
  }
  if (best < 0) tm_wake(t, first);
  return best;
}

bool tm_dma_room(vt_timing *t, unsigned sm) { return pick_engine(t, sm) >= 0; }

static uint32_t ceil_div(uint64_t a, uint64_t b) { return (uint32_t)((a + b - 1) / b); }

/* the line reads and shared-memory writes of a copy starting at 'start' */
static uint64_t copy_time(vt_timing *t, unsigned sm, const vt_dma_rec *r, uint64_t start) {
  const vt_settings *c = &t->cfg;
  uint64_t issue = start, wtime = start, read = 0;
  const uint32_t lb = c->line_bytes, interval = ceil_div(lb, c->dma_bytes_per_cycle);
  for (uint32_t k = 0; k <= r->nruns; k++) {
    /* the recorded runs, then the unrecorded rest as lines after the last run */
    uint64_t a = k < r->nruns ? r->run_addr[k] : (r->nruns ? (uint64_t)r->run_addr[r->nruns - 1] + r->run_len[r->nruns - 1] : 0);
    uint64_t len = k < r->nruns ? r->run_len[k] : r->extra;
    while (len) {
      uint64_t in_line = lb - a % lb;
      uint64_t n = in_line < len ? in_line : len;
      uint32_t line = (uint32_t)(a / lb);
      uint64_t at = t->mmu ? tm_translate(t, sm, a, false, issue, &line) : issue; /* tlb.c */
      uint64_t arrive = tm_l2_read(t, sm, line, at);
      issue += interval;
      wtime = tm_max(wtime, arrive) + ceil_div(n, c->dma_smem_bytes_per_cycle);
      read += n;
      a += n;
      len -= n;
    }
  }
  TMC(t, sm, dma_read_bytes) += read;
  if (r->bytes > read) wtime += ceil_div(r->bytes - read, c->dma_smem_bytes_per_cycle);
  return wtime;
}

void tm_dma_enqueue(vt_timing *t, unsigned sm, tm_warp *w, const vt_insn *in) {
  vt_dma_rec rec, *r = &rec;
  if (!vt_step_copy(t->dev, r)) return;
  tm_sm *s = &t->sms[sm];
  int e = pick_engine(t, sm);
  if (e < 0) e = 0; /* cannot happen: dispatch waited for room */
  const vt_settings *c = &t->cfg;
  uint64_t start = tm_max(t->now, s->dma_free[e]);
  uint64_t setup = c->dma_setup_cycles + (r->tensor ? c->dma_tensor_setup_cycles : 0);
  uint64_t done = copy_time(t, sm, r, start + setup);
  s->dma_free[e] = done;
  s->dma_q[e][(s->dma_head[e] + s->dma_n[e]) % TM_MAX_DMAQ] = done;
  s->dma_n[e]++;
  w->dma_done_at = tm_max(w->dma_done_at, done);
  s->c[VT_C_dma_copies]++;
  s->c[VT_C_dma_bytes] += r->bytes;
  s->c[VT_C_dma_busy] += done - start;
  if (t->tl) {
    char name[96];
    snprintf(name, sizeof name, "%s %llu B", vt_isa_insn((vt_insn_id)in->id)->mnemonic,
             (unsigned long long)r->bytes);
    tm_tl_span(t, sm, TM_TL_DMA + (unsigned)e, name, start, done);
  }
}

void tm_dma_reset(tm_sm *s) {
  memset(s->dma_n, 0, sizeof s->dma_n);
  memset(s->dma_head, 0, sizeof s->dma_head);
}
