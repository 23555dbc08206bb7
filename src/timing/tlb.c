/* Address translation in the timing model (setting mmu; docs/memory.md):
 * a per-SM L1 TLB shared by fetches and data, one L2 TLB for the GPU and
 * page-table walkers whose PTE reads go through the L2 cache and memory.
 * Entries are tagged with the ASID (global leaves match every ASID) and
 * cover their page's size: a lookup probes the 4 KiB, 2 MiB and 1 GiB tags.
 * As the caches do, an entry records when its fill completes: a request
 * that finds one still being filled waits for it (a merged miss). The
 * walk itself is the functional one (step.h); the caches behind it are
 * physically addressed, so a request leaves here with its physical line. */
#include <stdlib.h>
#include <string.h>

#include "timing_internal.h"

int tm_tlb_init(tm_tlb *tl, unsigned sets, unsigned ways) {
  tl->sets = sets;
  tl->ways = ways;
  tl->e = calloc((size_t)sets * ways, sizeof *tl->e);
  return tl->e ? 0 : -1;
}

void tm_tlb_free(tm_tlb *tl) {
  free(tl->e);
  tl->e = NULL;
}

static void flush(tm_tlb *tl) {
  if (tl->e) memset(tl->e, 0, (size_t)tl->sets * tl->ways * sizeof *tl->e);
}

/* the entry translating vpn for asid, or NULL */
static tm_tlbe *lookup(tm_tlb *tl, uint64_t vpn, uint16_t asid) {
  for (unsigned level = 0; level < 3; level++) {
    uint64_t tag = (vpn >> (9 * level)) + 1;
    tm_tlbe *set = &tl->e[(size_t)((tag - 1) % tl->sets) * tl->ways];
    for (unsigned w = 0; w < tl->ways; w++)
      if (set[w].tag == tag && set[w].level == level && (set[w].global || set[w].asid == asid))
        return &set[w];
  }
  return NULL;
}

/* put a copy of x in tl (LRU victim of its set), valid from 'valid_at' */
static tm_tlbe *fill(tm_tlb *tl, const tm_tlbe *x, uint64_t valid_at, uint64_t now) {
  tm_tlbe *set = &tl->e[(size_t)((x->tag - 1) % tl->sets) * tl->ways], *v = &set[0];
  for (unsigned w = 0; w < tl->ways; w++) {
    if (!set[w].tag) {
      v = &set[w];
      break;
    }
    if (set[w].stamp < v->stamp) v = &set[w];
  }
  *v = *x;
  v->valid_at = valid_at;
  v->stamp = now;
  return v;
}

void tm_tlb_launch(vt_timing *t) {
  uint32_t epoch = 0;
  t->mmu = vt_step_mmu(t->dev, &t->asid, &epoch);
  if (!t->mmu || epoch == t->tlb_epoch) return;
  t->tlb_epoch = epoch; /* the host changed a mapping: nothing cached holds */
  for (unsigned s = 0; s < t->nsm; s++) flush(&t->sms[s].tlb1);
  flush(&t->tlb2);
}

/* a walk of va starting at 'at' on the first free walker: its end */
static uint64_t walk(vt_timing *t, unsigned sm, uint64_t va, uint64_t at, vt_mmu_walk *wk) {
  const vt_settings *c = &t->cfg;
  vt_step_walk(t->dev, va, VT_MMU_HOST, wk);
  unsigned k = 0;
  for (unsigned i = 1; i < c->ptw_walkers; i++)
    if (t->ptw_free[i] < t->ptw_free[k]) k = i;
  uint64_t start = tm_max(at, t->ptw_free[k]), cur = start;
  for (unsigned i = 0; i < wk->nreads; i++)
    cur = tm_l2_read(t, sm, (uint32_t)(wk->pte_addr[i] / c->line_bytes), cur) + c->ptw_level_cycles;
  t->ptw_free[k] = cur;
  TMC(t, sm, ptw_walks)++;
  TMC(t, sm, ptw_pte_reads) += wk->nreads;
  TMC(t, sm, ptw_cycles) += cur - at;
  if (t->tl) {
    char name[40];
    snprintf(name, sizeof name, "walk 0x%08llx", (unsigned long long)va);
    tm_tl_span(t, sm, TM_TL_WALKER + k, name, start, cur);
  }
  return cur;
}

/* L1 TLB miss at 'at': the L2 TLB, else a walk; the entry (NULL: the walk
 * faulted) and the time it holds */
static const tm_tlbe *miss(vt_timing *t, unsigned sm, uint64_t va, uint64_t at, uint64_t *ready) {
  uint64_t vpn = va >> 12, a2 = at + t->cfg.tlb_l2_latency;
  tm_tlbe *e = lookup(&t->tlb2, vpn, t->asid);
  if (e && e->valid_at <= a2) {
    TMC(t, sm, tlb_l2_hits)++;
    e->stamp = a2;
    *ready = a2;
    return e;
  }
  TMC(t, sm, tlb_l2_misses)++;
  if (e) { /* a walk in flight */
    *ready = e->valid_at;
    return e;
  }
  vt_mmu_walk wk;
  *ready = walk(t, sm, va, a2, &wk);
  if (wk.fault != VT_MMU_OK) return NULL;
  unsigned level = (unsigned)wk.level;
  tm_tlbe x = {.tag = (vpn >> (9 * level)) + 1,
               .ppn = (wk.pa >> 12) & ~((1ull << (9 * level)) - 1),
               .asid = t->asid,
               .level = (uint8_t)level,
               .global = (wk.pte & VT_PTE_G) != 0};
  return fill(&t->tlb2, &x, *ready, a2);
}

uint64_t tm_translate(vt_timing *t, unsigned sm, uint64_t va, bool fetch, uint64_t at,
                      uint32_t *pline) {
  tm_sm *s = &t->sms[sm];
  uint64_t vpn = va >> 12, ready;
  *pline = (uint32_t)(va / t->cfg.line_bytes);
  const tm_tlbe *e = lookup(&s->tlb1, vpn, t->asid);
  if (e && e->valid_at <= at) {
    TMC(t, sm, tlb_l1_hits)++;
    ((tm_tlbe *)e)->stamp = at;
    ready = at + (fetch ? 0 : t->cfg.tlb_l1_latency);
  } else {
    TMC(t, sm, tlb_l1_misses)++;
    if (e) {
      ready = e->valid_at;
    } else {
      e = miss(t, sm, va, at, &ready);
      if (!e) return ready; /* not mapped: the functional model reports it if it runs */
      e = fill(&s->tlb1, e, ready, at);
    }
  }
  uint64_t pa = (e->ppn + (vpn & ((1ull << (9 * e->level)) - 1))) * 4096 + (va & 4095);
  *pline = (uint32_t)(pa / t->cfg.line_bytes);
  return ready;
}
