/* Timeline: Chrome/Perfetto trace-event JSON ({"traceEvents": [...]}). One
 * process per SM, one thread per warp slot (issue instants named by the
 * mnemonic, stall-reason spans including barrier waits), per workgroup
 * slot (workgroup spans from allocation to completion), per tensor unit
 * (MMA spans from issue to result) and per DMA engine (copy spans from
 * start to completion). 1 cycle = 1 us. */
#include "timing_internal.h"

const char *const tm_reason_names[TM_ST_COUNT] = {
    "issue", "ibuffer", "scoreboard", "memory", "branch", "barrier",
    "opcol", "bank", "unit", "dispatch", "dma_queue", "dma_wait", "ended"};

void vt_timing_set_timeline(vt_timing *t, FILE *f) {
  t->tl = f;
  t->tl_first = true;
  if (f) fputs("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n", f);
}

static void sep(vt_timing *t) {
  if (!t->tl_first) fputs(",\n", t->tl);
  t->tl_first = false;
}

void tm_tl_meta(vt_timing *t) {
  for (unsigned s = 0; s < t->nsm; s++) {
    sep(t);
    fprintf(t->tl, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": 0, "
                   "\"args\": {\"name\": \"SM %u\"}}", s, s);
    for (unsigned w = 0; w < t->nslots; w++) {
      sep(t);
      fprintf(t->tl, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
                     "\"args\": {\"name\": \"warp slot %u\"}}", s, w, w);
    }
    for (unsigned k = 0; t->mmu && k < t->cfg.ptw_walkers; k++) {
      sep(t);
      fprintf(t->tl, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
                     "\"args\": {\"name\": \"page walker %u\"}}", s, TM_TL_WALKER + k, k);
    }
    for (unsigned g = 0; g < t->cfg.wg_slots; g++) {
      sep(t);
      fprintf(t->tl, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
                     "\"args\": {\"name\": \"workgroups %u\"}}", s, TM_TL_WG + g, g);
    }
    for (unsigned u = 0; u < t->cfg.mma_units && u < TM_MAX_TC; u++) {
      sep(t);
      fprintf(t->tl, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
                     "\"args\": {\"name\": \"tensor unit %u\"}}", s, TM_TL_TC + u, u);
    }
    for (unsigned e = 0; e < t->cfg.dma_engines && e < TM_MAX_DMA; e++) {
      sep(t);
      fprintf(t->tl, "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %u, \"tid\": %u, "
                     "\"args\": {\"name\": \"DMA engine %u\"}}", s, TM_TL_DMA + e, e);
    }
  }
}

void tm_tl_span(vt_timing *t, unsigned sm, unsigned slot, const char *name, uint64_t start,
                uint64_t end) {
  if (!t->tl || end <= start) return;
  sep(t);
  fprintf(t->tl, "{\"name\": \"%s\", \"cat\": \"launch%u\", \"ph\": \"X\", \"ts\": %llu, "
                 "\"dur\": %llu, \"pid\": %u, \"tid\": %u}", name, t->nlaunch - 1,
          (unsigned long long)start, (unsigned long long)(end - start), sm, slot);
}

void tm_tl_instant(vt_timing *t, unsigned sm, unsigned slot, const char *name, uint64_t at) {
  if (!t->tl) return;
  sep(t);
  fprintf(t->tl, "{\"name\": \"%s\", \"cat\": \"issue\", \"ph\": \"i\", \"s\": \"t\", "
                 "\"ts\": %llu, \"pid\": %u, \"tid\": %u}", name, (unsigned long long)at, sm, slot);
}

int vt_timing_close_timeline(vt_timing *t) {
  if (!t->tl) return 0;
  fputs("\n]}\n", t->tl);
  int rc = ferror(t->tl) ? -1 : 0;
  t->tl = NULL;
  return rc;
}
