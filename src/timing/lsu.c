/* LSU (uarch.md 3.1): coalescing of the lane addresses of a memory
 * instruction into one request per cache line (lowest remaining lane first;
 * the words of a PREFIX_MEMORY wide access are requests like lanes,
 * isa2025.md 6.4), per lane for atomics; shared-memory bank conflicts; the
 * address generator that sends one request per cycle after the setup
 * (plus range-check and 64-bit address cycles). */
#include "timing_internal.h"

/* an access record's whole address (64 bits for v2025 pair addresses,
 * which only the MMU makes reachable: its TLBs need the full page) */
static uint64_t rec_addr(const vt_trace_mem *m) {
  return (uint64_t)m->addr_hi << 32 | m->addr;
}

/* private memory keeps one word per lane at consecutive addresses
 * (lane i of the warp at first->addr + 4 (i - first->lane)): the lanes the
 * hardware runs past the work-items (hw_lanes) touch the following words */
static void add_hw_lanes(tm_op *op, const vt_trace_mem *first, uint32_t lb) {
  for (unsigned l = 0; l < 32; l++) {
    if (!((op->hw_extra >> l) & 1)) continue;
    uint32_t line = (first->addr + 4u * (l - first->lane)) / lb;
    unsigned r;
    for (r = 0; r < op->nreq; r++)
      if (op->req_line[r] == line) break;
    if (r == op->nreq && op->nreq < TM_MAX_REQ) {
      op->req_line[r] = line;
      op->req_cost[r] = 1;
      op->nreq++;
    }
  }
}

void tm_mem_prepare(vt_timing *t, tm_op *op, const vt_warp *w, const vt_device *dev) {
  (void)w;
  op->nreq = 0;
  op->shared = 0;
  const vt_trace_mem *acc;
  unsigned n = vt_step_accesses(dev, &acc);
  if (n == 0) return;
  bool amo = (op->flags & TM_I_AMO) != 0;
  bool shared = true;
  uint32_t decode = t->cfg.smem_decode_bytes;
  for (unsigned i = 0; i < n; i++) {
    uint64_t a = rec_addr(&acc[i]);
    if (decode ? a >= decode : a - VT_LDS_BASE >= VT_ADDR_LDS_SIZE) shared = false;
  }
  op->shared = shared;
  uint32_t lb = t->cfg.line_bytes;
  uint32_t first_store = n;
  if (amo)
    for (unsigned i = 0; i < n; i++)
      if (!acc[i].is_store) {
        first_store = 0;
        break;
      }
  /* bank occupancy per request for shared memory */
  uint8_t bankcnt[TM_MAX_REQ][32];
  unsigned nb = t->smem_banks;
  for (unsigned i = 0; i < n; i++) {
    const vt_trace_mem *m = &acc[i];
    if (amo && first_store == 0 && m->is_store) continue; /* AMO: the load record stands for it */
    uint64_t line = rec_addr(m) / lb;
    unsigned r;
    if (amo) {
      r = op->nreq;
    } else {
      for (r = 0; r < op->nreq; r++)
        if (op->req_line[r] == line) break;
    }
    if (r == op->nreq) {
      if (op->nreq == TM_MAX_REQ) continue;
      op->req_line[r] = line;
      op->req_cost[r] = 1;
      if (shared)
        for (unsigned b = 0; b < nb && b < 32; b++) bankcnt[r][b] = 0;
      op->nreq++;
    }
    if (shared) {
      unsigned b = (m->addr / 4) % nb;
      if (b < 32 && ++bankcnt[r][b] > op->req_cost[r]) op->req_cost[r] = bankcnt[r][b];
    }
  }
  if ((op->flags & TM_I_PRIVATE) && op->hw_extra && !shared) add_hw_lanes(op, &acc[0], lb);
}

uint64_t tm_lsu_issue(vt_timing *t, unsigned sm, tm_op *op, uint64_t now) {
  const vt_settings *c = &t->cfg;
  tm_sm *s = &t->sms[sm];
  uint64_t treq = now + c->lsu_setup_cycles + op->agen, rsp_max = treq;
  int kind = (op->flags & TM_I_AMO) ? TM_AMO : (op->flags & TM_I_STORE) ? TM_WR : TM_RD;
  for (unsigned k = 0; k < op->nreq; k++) {
    uint64_t acc, rsp;
    uint32_t line = (uint32_t)op->req_line[k]; /* physical: 32 bits */
    uint64_t at = treq;
    if (t->mmu && !op->shared) /* the request waits for its translation (tlb.c) */
      at = tm_translate(t, sm, op->req_line[k] * c->line_bytes, false, treq, &line);
    if (op->shared)
      rsp = tm_smem_access(t, sm, op->req_cost[k], kind != TM_RD, treq, &acc);
    else
      rsp = tm_l1d_access(t, sm, line, kind, at, &acc, op->hint);
    treq = acc + 1;
    if (rsp > rsp_max) rsp_max = rsp;
  }
  s->lsu_free = treq + 1;
  TMC(t, sm, lsu_busy) += s->lsu_free - now;
  TMC(t, sm, lsu_requests) += op->nreq;
  return rsp_max + c->lsu_rsp_cycles;
}
