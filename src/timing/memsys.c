/* Memory system timing (uarch.md 3): L1 data cache (write-back on hit,
 * no-allocate on write miss, MSHRs with sub-entries, WSHRs), shared memory
 * banks, L1 instruction cache, the per-SM link to one shared L2 (MSHRs,
 * blocking SourceD), memory with latency, bandwidth and a limit on requests in
 * flight, and the flush/invalidate at workgroup end.
 *
 * Requests are timed when they are made: each resource keeps the time it is
 * next free, and a line being filled is present in the tag array with the
 * time its fill completes, so later requests to it merge. */
#include <stdlib.h>
#include <string.h>

#include "timing_internal.h"

int tm_mem_init(vt_timing *t) {
  const vt_settings *c = &t->cfg;
  for (unsigned s = 0; s < t->nsm; s++) {
    tm_sm *sm = &t->sms[s];
    if (tm_tlb_init(&sm->tlb1, c->tlb_l1_sets, c->tlb_l1_ways) ||
        tm_cache_init(&sm->l1d, c->l1d_sets, c->l1d_ways, false) ||
        tm_cache_init(&sm->l1i, c->l1i_sets, c->l1i_ways, false))
      return -1;
    sm->l1d_mshr = calloc(c->l1d_mshr, sizeof *sm->l1d_mshr);
    sm->l1d_mshr_sub = calloc(c->l1d_mshr, 1);
    sm->l1d_mshr_line = calloc(c->l1d_mshr, sizeof *sm->l1d_mshr_line);
    sm->l1d_wshr = calloc(c->l1d_wshr, sizeof *sm->l1d_wshr);
    sm->l1i_mshr = calloc(c->l1i_mshr, sizeof *sm->l1i_mshr);
    sm->l1i_mshr_line = calloc(c->l1i_mshr, sizeof *sm->l1i_mshr_line);
    sm->l1i_next_fill = TM_NEVER;
    if (!sm->l1d_mshr || !sm->l1d_mshr_sub || !sm->l1d_mshr_line || !sm->l1d_wshr ||
        !sm->l1i_mshr || !sm->l1i_mshr_line)
      return -1;
  }
  if (tm_cache_init(&t->l2, c->l2_sets, c->l2_ways, c->l2_random_repl != 0) ||
      tm_tlb_init(&t->tlb2, c->tlb_l2_sets, c->tlb_l2_ways) ||
      !(t->ptw_free = calloc(c->ptw_walkers, sizeof *t->ptw_free)))
    return -1;
  t->l2_mshr = calloc(c->l2_mshr, sizeof *t->l2_mshr);
  t->dram_out = calloc(c->dram_max_outstanding, sizeof *t->dram_out);
  return t->l2_mshr && t->dram_out ? 0 : -1;
}

void tm_mem_free(vt_timing *t) {
  for (unsigned s = 0; s < t->nsm && t->sms; s++) {
    tm_sm *sm = &t->sms[s];
    tm_tlb_free(&sm->tlb1);
    tm_cache_free(&sm->l1d);
    tm_cache_free(&sm->l1i);
    free(sm->l1d_mshr);
    free(sm->l1d_mshr_sub);
    free(sm->l1d_mshr_line);
    free(sm->l1d_wshr);
    free(sm->l1i_mshr);
    free(sm->l1i_mshr_line);
  }
  tm_cache_free(&t->l2);
  tm_tlb_free(&t->tlb2);
  free(t->ptw_free);
  t->ptw_free = NULL;
  free(t->l2_mshr);
  free(t->dram_out);
  t->l2_mshr = t->dram_out = NULL;
}

/* a free entry of a table of release times at 'at', waiting for the earliest
 * if none is free; returns the index, *at moves forward by the wait */
static unsigned free_entry(uint64_t *tab, unsigned n, uint64_t *at, uint64_t *stall) {
  unsigned best = 0;
  for (unsigned i = 0; i < n; i++) {
    if (tab[i] <= *at) return i;
    if (tab[i] < tab[best]) best = i;
  }
  *stall += tab[best] - *at;
  *at = tab[best];
  return best;
}

static uint64_t dram(vt_timing *t, unsigned sm, bool write, uint64_t at) {
  const vt_settings *c = &t->cfg;
  uint64_t beats = (c->line_bytes + c->dram_bytes_per_cycle - 1) / c->dram_bytes_per_cycle;
  uint64_t *slot = &t->dram_out[t->dram_head];
  uint64_t start = tm_max(tm_max(at, t->dram_next), *slot);
  t->dram_next = start + beats;
  uint64_t done = start + c->dram_latency + beats;
  *slot = done;
  t->dram_head = (t->dram_head + 1) % c->dram_max_outstanding;
  if (write)
    TMC(t, sm, dram_writes)++;
  else
    TMC(t, sm, dram_reads)++;
  return done;
}

enum { L2_READ, L2_WRITE_PARTIAL, L2_WRITE_FULL, L2_ATOMIC };

/* request from SM sm's L1 at 'at'; returns the time its response reaches the L1 */
static uint64_t l2_access(vt_timing *t, unsigned sm, uint32_t line, int kind, uint64_t at) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[sm];
  uint64_t a = tm_max(at, s->link_next);
  s->link_next = a + 1;
  a = tm_max(a, tm_max(t->l2_next, t->l2_block));
  t->l2_next = a + 1;
  TMC(t, sm, l2_accesses)++;
  tm_cache *l2 = &t->l2;
  int e = tm_cache_find(l2, line);
  uint64_t r;
  if (e < 0 && kind == L2_READ && tm_cache_old_hit(l2, line, a)) {
    TMC(t, sm, l2_hits)++;
    r = a + c->l2_latency;
  } else if (e >= 0 && l2->valid_at[e] <= a) {
    TMC(t, sm, l2_hits)++;
    tm_cache_touch(l2, e, a);
    if (kind != L2_READ) l2->dirty[e] = 1;
    r = a + c->l2_latency;
  } else if (e >= 0) { /* merged into an outstanding miss */
    TMC(t, sm, l2_misses)++;
    if (kind != L2_READ) l2->dirty[e] = 1;
    r = tm_max(l2->valid_at[e], a + c->l2_latency);
  } else if (kind == L2_WRITE_FULL) { /* no allocation: straight to memory */
    TMC(t, sm, l2_misses)++;
    dram(t, sm, true, a + 1);
    r = a + c->l2_latency;
  } else if (kind == L2_WRITE_PARTIAL) { /* fetch, merge, write back; no allocation */
    TMC(t, sm, l2_misses)++;
    uint64_t d = dram(t, sm, false, a + 1);
    dram(t, sm, true, d);
    r = d + c->l2_miss_overhead;
  } else {
    TMC(t, sm, l2_misses)++;
    uint64_t stall = 0;
    unsigned m = free_entry(t->l2_mshr, c->l2_mshr, &a, &stall);
    TMC(t, sm, l2_mshr_stalls) += stall;
    uint64_t d = dram(t, sm, false, a + 1);
    uint64_t fill = d + c->l2_miss_overhead;
    int v = tm_cache_victim(l2, line, a);
    if (l2->tag[v] && l2->dirty[v]) dram(t, sm, true, d);
    tm_cache_fill(l2, v, line, fill, a);
    l2->dirty[v] = kind == L2_ATOMIC;
    tm_cache_touch(l2, v, a);
    t->l2_mshr[m] = fill;
    r = fill;
  }
  r = tm_max(r, t->sourced_next);
  t->sourced_next = r + c->l2_resp_interval;
  return r;
}

/* a line read by a DMA engine, which bypasses the L1D (isa2025.md 6.8) */
uint64_t tm_l2_read(vt_timing *t, unsigned sm, uint32_t line, uint64_t at) {
  return l2_access(t, sm, line, L2_READ, at);
}

/* the replacement priority a cachehint gives the line of entry e (evict
 * first: the oldest stamp; evict last: far in the future) */
static void hint_priority(tm_cache *l1, int e, unsigned policy, uint64_t acc) {
  if (e < 0) return;
  if (policy == 1) l1->stamp[e] = 0;
  if (policy == 3) l1->stamp[e] = acc + (1ull << 40);
}

/* an access the L2 performs (atomics, bypassing writes): the L1 copy is
 * written back if dirty and dropped */
static uint64_t l1d_at_l2(vt_timing *t, unsigned sm, uint32_t line, int kind, int e,
                          uint64_t acc) {
  const vt_settings *c = &t->cfg;
  tm_cache *l1 = &t->sms[sm].l1d;
  TMC(t, sm, l1d_misses)++;
  if (e >= 0 && l1->valid_at[e] <= acc) {
    if (l1->dirty[e]) {
      l2_access(t, sm, line, L2_WRITE_FULL, acc + c->l1d_miss_latency);
      TMC(t, sm, l1d_writebacks)++;
    }
    l1->tag[e] = 0;
    l1->dirty[e] = 0;
  }
  return l2_access(t, sm, line, kind == TM_AMO ? L2_ATOMIC : L2_WRITE_PARTIAL,
                   acc + c->l1d_miss_latency) + c->l1d_fill_latency;
}

/* a read of a line not in the L1 (nor being filled): an MSHR, the victim
 * written back if dirty, the fill from the L2 */
static uint64_t l1d_read_miss(vt_timing *t, unsigned sm, uint32_t line, unsigned policy,
                              uint64_t *acc, uint64_t *stall) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[sm];
  tm_cache *l1 = &s->l1d;
  TMC(t, sm, l1d_misses)++;
  unsigned m = free_entry(s->l1d_mshr, c->l1d_mshr, acc, stall);
  uint64_t req = *acc + c->l1d_miss_latency;
  int v = tm_cache_victim(l1, line, *acc);
  if (l1->tag[v] && l1->dirty[v]) {
    l2_access(t, sm, l1->tag[v] - 1, L2_WRITE_FULL, req);
    TMC(t, sm, l1d_writebacks)++;
  }
  uint64_t fill = l2_access(t, sm, line, L2_READ, req);
  tm_cache_fill(l1, v, line, fill, *acc);
  l1->dirty[v] = 0;
  tm_cache_touch(l1, v, *acc);
  hint_priority(l1, v, policy, *acc);
  s->l1d_mshr[m] = fill;
  s->l1d_mshr_line[m] = line;
  s->l1d_mshr_sub[m] = 1;
  return fill + c->l1d_fill_latency;
}

/* a read: a hit, merged into the outstanding miss of its line, or a miss */
static uint64_t l1d_read(vt_timing *t, unsigned sm, uint32_t line, int e, unsigned policy,
                         uint64_t *acc, uint64_t *stall) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[sm];
  tm_cache *l1 = &s->l1d;
  if ((e >= 0 && l1->valid_at[e] <= *acc) || (e < 0 && tm_cache_old_hit(l1, line, *acc))) {
    TMC(t, sm, l1d_hits)++;
    if (e >= 0) tm_cache_touch(l1, e, *acc);
    hint_priority(l1, e, policy, *acc);
    return *acc + c->l1d_hit_latency;
  }
  if (e < 0) return l1d_read_miss(t, sm, line, policy, acc, stall);
  TMC(t, sm, l1d_misses)++; /* outstanding miss: merge into its MSHR entry */
  unsigned m;
  for (m = 0; m < c->l1d_mshr; m++)
    if (s->l1d_mshr_line[m] == line && s->l1d_mshr[m] > *acc) break;
  if (m < c->l1d_mshr && s->l1d_mshr_sub[m] < c->l1d_mshr_sub) {
    s->l1d_mshr_sub[m]++;
    return l1->valid_at[e] + c->l1d_fill_latency + s->l1d_mshr_sub[m] - 1u;
  }
  *stall += l1->valid_at[e] - *acc; /* sub-entries full: wait for the fill, then hit */
  *acc = l1->valid_at[e];
  return *acc + c->l1d_hit_latency;
}

/* a write: a hit (after the line's fill, if one is outstanding) or a write
 * miss through a WSHR */
static uint64_t l1d_write(vt_timing *t, unsigned sm, uint32_t line, int e, unsigned policy,
                          uint64_t *acc, uint64_t *stall) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[sm];
  tm_cache *l1 = &s->l1d;
  if (e >= 0 && l1->valid_at[e] > *acc) { /* write to a line being filled: wait */
    *stall += l1->valid_at[e] - *acc;
    *acc = l1->valid_at[e];
  }
  if (e >= 0) {
    TMC(t, sm, l1d_hits)++;
    l1->dirty[e] = 1;
    tm_cache_touch(l1, e, *acc);
    hint_priority(l1, e, policy, *acc);
    return *acc + c->l1d_hit_latency;
  }
  TMC(t, sm, l1d_misses)++;
  if (c->l1d_write_miss_waits) /* Verilog DCache: until every read miss has returned */
    for (unsigned k = 0; k < c->l1d_mshr; k++)
      if (s->l1d_mshr[k] > *acc) *stall += s->l1d_mshr[k] - *acc, *acc = s->l1d_mshr[k];
  unsigned m = free_entry(s->l1d_wshr, c->l1d_wshr, acc, stall);
  s->l1d_wshr[m] = l2_access(t, sm, line, L2_WRITE_PARTIAL, *acc + c->l1d_miss_latency);
  return *acc + c->l1d_miss_latency;
}

uint64_t tm_l1d_access(vt_timing *t, unsigned sm, uint32_t line, int kind, uint64_t at,
                       uint64_t *accepted, unsigned hint) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[sm];
  uint64_t acc = tm_max(at, tm_max(s->l1d_next, s->l1d_block)), rsp, stall = 0;
  const unsigned policy = hint & 3;
  TMC(t, sm, l1d_accesses)++;
  int e = tm_cache_find(&s->l1d, line);
  if (policy == 2 && kind == TM_RD) { /* bypass: read from the L2, nothing allocated */
    TMC(t, sm, l1d_misses)++;
    rsp = l2_access(t, sm, line, L2_READ, acc + c->l1d_miss_latency) + c->l1d_fill_latency;
  } else if (kind == TM_AMO || policy == 2) {
    rsp = l1d_at_l2(t, sm, line, kind, e, acc);
  } else if (kind == TM_RD) {
    rsp = l1d_read(t, sm, line, e, policy, &acc, &stall);
  } else {
    rsp = l1d_write(t, sm, line, e, policy, &acc, &stall);
  }
  TMC(t, sm, l1d_mshr_stalls) += stall;
  s->l1d_next = acc + 1;
  *accepted = acc;
  return rsp;
}

uint64_t tm_smem_access(vt_timing *t, unsigned sm, unsigned cost, bool write, uint64_t at,
                        uint64_t *accepted) {
  tm_sm *s = &t->sms[sm];
  if (cost == 0) cost = 1;
  uint64_t acc = tm_max(at, s->smem_next);
  s->smem_next = acc + cost + (write ? 1 : 0);
  TMC(t, sm, smem_accesses)++;
  TMC(t, sm, smem_conflicts) += cost - 1;
  *accepted = acc + cost - 1;
  return acc + cost - 1 + t->cfg.smem_latency;
}

/* I-cache fills are written when they arrive: the victim is the LRU way of
 * the set at that time (tag_access_icache), so the line it replaces stays
 * readable until then */
void tm_l1i_fills(vt_timing *t, unsigned sm, uint64_t now) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[sm];
  tm_cache *l1 = &s->l1i;
  if (s->l1i_next_fill > now) {
    tm_wake(t, s->l1i_next_fill);
    return;
  }
  s->l1i_next_fill = TM_NEVER;
  for (unsigned m = 0; m < c->l1i_mshr; m++) {
    if (!s->l1i_mshr_line[m]) continue;
    if (s->l1i_mshr[m] > now) {
      if (s->l1i_mshr[m] < s->l1i_next_fill) s->l1i_next_fill = s->l1i_mshr[m];
      tm_wake(t, s->l1i_mshr[m]);
      continue;
    }
    uint32_t line = s->l1i_mshr_line[m] - 1;
    int v = tm_cache_victim(l1, line, now);
    l1->tag[v] = line + 1;
    l1->valid_at[v] = s->l1i_mshr[m];
    tm_cache_touch(l1, v, s->l1i_mshr[m]);
    s->l1i_mshr_line[m] = 0;
  }
}

uint64_t tm_l1i_fetch(vt_timing *t, unsigned sm, uint32_t line, uint64_t at, bool *hit) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[sm];
  tm_cache *l1 = &s->l1i;
  TMC(t, sm, l1i_accesses)++;
  int e = tm_cache_find(l1, line);
  *hit = e >= 0;
  if (e >= 0) {
    TMC(t, sm, l1i_hits)++;
    tm_cache_touch(l1, e, at);
    return at;
  }
  TMC(t, sm, l1i_misses)++;
  unsigned m, freem = c->l1i_mshr;
  uint64_t first = TM_NEVER;
  for (m = 0; m < c->l1i_mshr; m++) {
    if (s->l1i_mshr_line[m] == line + 1) return s->l1i_mshr[m]; /* merged */
    if (!s->l1i_mshr_line[m]) freem = freem < m ? freem : m;
    else if (s->l1i_mshr[m] < first) first = s->l1i_mshr[m];
  }
  if (freem == c->l1i_mshr) { /* no free entry: the miss is dropped, refetched later */
    TMC(t, sm, l1i_mshr_stalls)++;
    return first;
  }
  uint64_t fill = l2_access(t, sm, line, L2_READ, at + c->l1i_miss_latency) + c->l1i_fill_latency;
  s->l1i_mshr[freem] = fill;
  s->l1i_mshr_line[freem] = line + 1;
  if (fill < s->l1i_next_fill) s->l1i_next_fill = fill;
  tm_wake(t, fill);
  return fill;
}

uint64_t tm_flush_wg_end(vt_timing *t, unsigned sm, uint64_t at) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[sm];
  tm_cache *l1 = &s->l1d;
  uint64_t k = tm_max(at, s->l1d_block);
  size_t n = (size_t)l1->sets * l1->ways;
  for (size_t e = 0; e < n; e++) {
    if (l1->tag[e] && l1->dirty[e]) {
      l2_access(t, sm, l1->tag[e] - 1, L2_WRITE_FULL, k++);
      TMC(t, sm, l1d_writebacks)++;
    }
    l1->tag[e] = l1->old_tag[e] = 0;
    l1->dirty[e] = 0;
    l1->valid_at[e] = 0;
  }
  memset(s->l1d_mshr, 0, c->l1d_mshr * sizeof *s->l1d_mshr);
  /* L2 flush + invalidate: one set x way entry per cycle, dirty lines to memory */
  tm_cache *l2 = &t->l2;
  uint64_t w = tm_max(k + 1, tm_max(t->l2_next, t->l2_block)), done = w;
  size_t n2 = (size_t)l2->sets * l2->ways;
  for (size_t e = 0; e < n2; e++, w++) {
    if (l2->tag[e] && l2->dirty[e]) done = tm_max(done, dram(t, sm, true, tm_max(w, l2->valid_at[e])));
    l2->tag[e] = l2->old_tag[e] = 0;
    l2->dirty[e] = 0;
    l2->valid_at[e] = 0;
  }
  t->l2_block = w;
  s->l1d_block = w + 1;
  if (c->flush_l1i_at_wg_end) {
    tm_cache *l1i = &s->l1i;
    size_t ni = (size_t)l1i->sets * l1i->ways;
    for (size_t e = 0; e < ni; e++) l1i->tag[e] = l1i->old_tag[e] = 0, l1i->valid_at[e] = 0;
    memset(s->l1i_mshr_line, 0, c->l1i_mshr * sizeof *s->l1i_mshr_line);
    s->l1i_next_fill = TM_NEVER;
  }
  done = tm_max(done, w);
  TMC(t, sm, flush_cycles) += done - at;
  return done;
}
