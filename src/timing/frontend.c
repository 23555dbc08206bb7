/* SM front end (uarch.md 2.1 steps 1-4): one I-cache fetch per SM and cycle
 * for the lowest-numbered warp whose instruction buffer has room; a fetch
 * group is fetch_bytes aligned; an I-cache miss blocks the warp's fetch until
 * the line is filled and the fetch is replayed. */
#include "timing_internal.h"

void tm_ibuf_flush(tm_warp *w, uint32_t pc) {
  w->ib_n = 0;
  w->ib_head = 0;
  w->fetch_pc = pc;
  w->head_valid = false;
  w->fetch_block = 0;
}

void tm_fetch(vt_timing *t, unsigned smi) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[smi];
  uint64_t now = t->now;
  for (unsigned slot = 0; slot < t->nslots; slot++) {
    tm_warp *w = &s->warps[slot];
    if (!w->fw || w->ended || w->fw->state == WARP_ENDED) continue;
    if (w->start_at > now) {
      tm_wake(t, w->start_at);
      continue;
    }
    if (w->ib_n >= c->ibuffer_groups) continue;
    if (w->fetch_block > now) {
      tm_wake(t, w->fetch_block);
      continue;
    }
    /* a misaligned pc fetches the word holding it, so that decode reports
     * the misaligned instruction address (a group of 0 instructions would
     * be dropped and refetched forever) */
    uint32_t pc = w->fetch_pc & ~3u, gstart = pc & ~(c->fetch_bytes - 1u);
    bool hit;
    uint64_t avail = tm_l1i_fetch(t, smi, pc / c->line_bytes, now, &hit);
    t->progress = true;
    if (!hit) {
      w->fetch_block = tm_max(avail, now + c->icache_hit_latency);
      tm_wake(t, w->fetch_block);
      return;
    }
    tm_group *g = &w->ib[(w->ib_head + w->ib_n) % TM_IBUF];
    g->pc = pc;
    g->n = (uint16_t)(((uint64_t)gstart + c->fetch_bytes - pc) / 4);
    g->ready = now + c->icache_hit_latency + c->decode_latency;
    w->ib_n++;
    w->fetch_pc = gstart + c->fetch_bytes;
    return;
  }
}
