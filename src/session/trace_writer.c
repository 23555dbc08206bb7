/* Trace writers (vt/trace.h): the writer object and vt's text format, one
 * line per executed warp instruction with its register and memory effects
 * (docs/trace.md). The spike format is in trace_spike.c. */
#include <stdlib.h>
#include <string.h>

#include "session_internal.h"
#include "trace_internal.h"

int vt_trace_format_parse(const char *name, vt_trace_format *out) {
  if (!strcmp(name, "text")) *out = VT_TRACE_TEXT;
  else if (!strcmp(name, "spike")) *out = VT_TRACE_SPIKE;
  else return -1;
  return 0;
}

vt_trace_writer *vt_trace_writer_new(FILE *f, vt_trace_format format) {
  vt_trace_writer *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->f = f;
  t->format = format;
  return t;
}

void vt_trace_writer_free(vt_trace_writer *t) {
  if (!t) return;
  free(t->cores);
  free(t);
}

static void text_line(FILE *f, const vt_trace_event *ev) {
  char dis[128], word[20];
  if (ev->length == 8) { /* isa2025.md 5.1: a 64-bit word as 16 hex digits */
    uint64_t insn = (uint64_t)ev->insn_hi << 32 | ev->insn;
    vt_disasm64(insn, ev->pc, NULL, dis, sizeof dis);
    snprintf(word, sizeof word, "%016llx", (unsigned long long)insn);
  } else {
    vt_disasm(ev->insn, ev->pc, NULL, dis, sizeof dis);
    snprintf(word, sizeof word, "%08x", ev->insn);
  }
  for (char *c = dis; *c; c++)
    if (*c == '\t') *c = ' ';
  fprintf(f, "S%u WG%u W%u %08x %s %-32s mask=%08x", ev->sm, ev->wg, ev->warp, ev->pc, word, dis,
          ev->mask);
  for (unsigned i = 0; i < ev->nwrites; i++) {
    const vt_trace_write *w = &ev->writes[i];
    if (w->kind == 'x') {
      fprintf(f, " x%u=%08x", w->reg, w->value[0]);
    } else if (w->kind == 'c') {
      fprintf(f, " csr%03x=%08x", w->reg, w->value[0]);
    } else {
      fprintf(f, " v%u[%08x]=", w->reg, w->lanes);
      bool first = true;
      for (int l = 31; l >= 0; l--)
        if ((w->lanes >> l) & 1) {
          fprintf(f, "%s%08x", first ? "" : ",", w->value[l]);
          first = false;
        }
    }
  }
  for (unsigned i = 0; i < ev->nmem; i++) {
    const vt_trace_mem *m = &ev->mem[i];
    if (m->is_store)
      fprintf(f, " st%u[%08x]=%0*x", 8 * m->size, m->addr, 2 * m->size, m->value);
    else
      fprintf(f, " ld%u[%08x]", 8 * m->size, m->addr);
  }
  fputc('\n', f);
}

void vt_trace_writer_event(void *ctx, const vt_trace_event *ev) {
  vt_trace_writer *t = ctx;
  if (t->format == VT_TRACE_SPIKE) vt_trace_spike_line(t, ev);
  else text_line(t->f, ev);
}
