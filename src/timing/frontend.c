/* SM front end (uarch.md 2.1 steps 1-4): one I-cache request per SM and
 * cycle, for the lowest-numbered active warp whose instruction-buffer FIFO
 * is not full (fixed priority; fetches in flight are not counted, so the
 * warp keeps fetching sequential groups). The response comes
 * icache_hit_latency cycles later; a hit is decoded into the FIFO, while a
 * miss, or a hit that finds the FIFO full, is a "miss acknowledgement": the
 * warp's later requests are squashed, its PC is replayed from that group and
 * the slot of that cycle is lost. A warp waiting for a missing line is
 * therefore refetching it every few cycles and, being the lowest ready warp,
 * holds the fetch port meanwhile. Misses of the squashed sequential requests
 * still reach the MSHR (they fetch the next line early). */
#include "timing_internal.h"

/* groups in the FIFO: the buffered groups minus the one in the SlowDown
 * register (the head, once it has reached it) */
static unsigned fifo_groups(const tm_warp *w, uint64_t now) {
  if (!w->ib_n) return 0;
  return w->ib_n - (w->ib[w->ib_head].ready <= now ? 1u : 0u);
}

void tm_ibuf_flush(tm_sm *s, tm_warp *w, uint32_t pc) {
  w->ib_n = 0;
  w->ib_head = 0;
  w->fetch_pc = pc;
  w->fetch_epoch = ++s->fetch_epochs; /* squashes the warp's requests in flight */
  w->head_valid = false;
  w->retry_until = 0;
  w->slot0_valid = w->stale_pending = false; /* the flush clears the SlowDown register */
}

/* responses due now; returns the slot of a warp replayed in this cycle or -1 */
static int fetch_responses(vt_timing *t, tm_sm *s) {
  const vt_settings *c = &t->cfg;
  uint64_t now = t->now;
  int replayed = -1;
  while (s->fq_n) {
    tm_fetchreq *r = &s->fq[s->fq_head];
    if (r->resp > now) {
      tm_wake(t, r->resp);
      break;
    }
    tm_fetchreq q = *r;
    s->fq_head = (s->fq_head + 1) % TM_FQ;
    s->fq_n--;
    tm_warp *w = &s->warps[q.warp];
    if (!w->fw || q.epoch != w->fetch_epoch) continue; /* squashed */
    t->progress = true;
    if (q.fill <= q.at && fifo_groups(w, now) + 1 < c->ibuffer_groups) {
      tm_group *g = &w->ib[(w->ib_head + w->ib_n) % TM_IBUF];
      g->pc = q.pc;
      g->n = q.n;
      g->ready = now + c->decode_latency;
      if (w->stale_pending && !w->ib_n) { /* waits for the SlowDown register's stale entry */
        w->stale_ready = g->ready;
        g->ready = TM_NEVER;
      }
      w->ib_n++;
      continue;
    }
    /* miss acknowledgement: replay from this group */
    w->fetch_pc = q.pc;
    w->fetch_epoch = ++s->fetch_epochs;
    if (q.fill > q.at) {
      /* refetched every fetch_retry_cycles from the next cycle on while it
       * holds the port: the first refetch that finds the line */
      uint64_t first = now + 1, k = c->fetch_retry_cycles ? c->fetch_retry_cycles : 1;
      w->retry_until = q.fill <= first ? first : first + (q.fill - first + k - 1) / k * k;
    }
    replayed = (int)q.warp;
  }
  return replayed;
}

void tm_fetch(vt_timing *t, unsigned smi) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[smi];
  uint64_t now = t->now;
  if (s->l1i_next_fill <= now) tm_l1i_fills(t, smi, now);
  else if (s->l1i_next_fill != TM_NEVER) tm_wake(t, s->l1i_next_fill);
  int replayed = s->fq_n ? fetch_responses(t, s) : -1;
  unsigned cap = c->ibuffer_groups;
  for (unsigned slot = 0; slot < t->nslots; slot++) {
    tm_warp *w = &s->warps[slot];
    if (!w->fw) continue;
    if (w->ib_n + 1 >= cap && fifo_groups(w, now) + 1 >= cap) continue; /* FIFO full: not ready */
    if (w->ended || w->exec_ended) continue;
    if (w->fetch_pc > UINT32_MAX) continue; /* fetched up to 4 GiB: nothing more */
    if (w->start_at > now) {
      tm_wake(t, w->start_at);
      continue;
    }
    /* w is the lowest ready warp: the port is its */
    if ((int)slot == replayed) return; /* this cycle's request is squashed */
    if (w->retry_until > now) {          /* refetching a missing line */
      tm_wake(t, w->retry_until);
      return;
    }
    if (s->fq_n >= TM_FQ) return;
    /* a misaligned pc fetches the word holding it, so that decode reports
     * the misaligned instruction address (a group of 0 instructions would
     * be dropped and refetched forever) */
    uint32_t pc = (uint32_t)w->fetch_pc & ~3u, gstart = pc & ~(c->fetch_bytes - 1u);
    bool hit;
    uint32_t line = pc / c->line_bytes;
    uint64_t at = t->mmu ? tm_translate(t, smi, pc, true, now, &line) : now; /* tlb.c */
    uint64_t fill = tm_l1i_fetch(t, smi, line, at, &hit);
    if (at > now) hit = false; /* a TLB miss: replayed like an I-cache miss */
    tm_fetchreq *r = &s->fq[(s->fq_head + s->fq_n) % TM_FQ];
    r->warp = (uint16_t)slot;
    r->pc = pc;
    r->n = (uint16_t)(((uint64_t)gstart + c->fetch_bytes - pc) / 4); /* may end at 4 GiB */
    r->epoch = w->fetch_epoch;
    r->at = now;
    r->fill = hit ? now : fill;
    r->resp = now + c->icache_hit_latency;
    s->fq_n++;
    w->fetch_pc = (uint64_t)gstart + c->fetch_bytes;
    t->progress = true;
    tm_wake(t, r->resp);
    return;
  }
}
