/* The commit log of the official simulator, the Ventus spike fork run as
 * `spike -l --log-commits` (formats-and-launch.md 9.2, isa.md Appendix A):
 * one commit record per executed warp instruction,
 *
 *   core   N: 3 0xPPPPPPPP (0xIIIIIIII) effects
 *
 * with core N = workgroup x warps per workgroup + warp (the concurrent-
 * workgroup numbering of formats-and-launch.md 9.3; one workgroup: the warp).
 * The effects follow spike's order, as the official .log files show it:
 * x writes, then for vector instructions spike's own vstart reset
 * (c8_vstart 0x00000000), other CSR writes, the vector context
 * (e32 m1 lVL; not for private stores) and the vector register writes (the whole register, SIMT
 * mask first, highest lane first), then memory addresses (stores with their
 * value); vector loads print the register before the vstart reset; vset*
 * instructions print vl, vtype and mstatus and no context. After custom-2
 * (opcode 0x5b) instructions the SIMT state follows: the mask after the
 * instruction, spike's "current npc" (the next pc set by the warp's last
 * vector branch or popping join) and the stack, top entry first. Fetch
 * lines (kind 1) and "Executed K times" lines are not written (docs/trace.md). */
#include <stdlib.h>
#include <string.h>

#include "session_internal.h"
#include "trace_internal.h"
#include "vt/sim_debug.h"

static struct vt_spike_core *core_state(vt_trace_writer *t, unsigned core) {
  if (core >= t->ncores) {
    size_t n = t->ncores ? t->ncores : 16;
    while (n <= core) n *= 2;
    struct vt_spike_core *c = realloc(t->cores, n * sizeof *c);
    if (!c) return NULL;
    memset(c + t->ncores, 0, (n - t->ncores) * sizeof *c);
    t->cores = c;
    t->ncores = n;
  }
  return &t->cores[core];
}

static void csr_write(FILE *f, unsigned csr, uint32_t value) {
  const char *name = vt_csr_name(csr);
  fprintf(f, " c%u_%s 0x%08x", csr, name ? name : "unknown", value);
}

/* "e32 m1 l4": element width and register grouping from vtype, and vl */
static void vector_context(FILE *f, const vt_warp *w) {
  uint32_t vtype = 0, vl = 0;
  vt_warp_get_csr(w, 0xc21, &vtype);
  vt_warp_get_csr(w, 0xc20, &vl);
  unsigned lmul = vtype & 7;
  fprintf(f, " e%u ", 8u << ((vtype >> 3) & 7));
  if (lmul < 4) fprintf(f, "m%u", 1u << lmul);
  else fprintf(f, "mf%u", 1u << (8 - lmul));
  fprintf(f, " l%u", vl);
}

static void vector_write(FILE *f, const vt_trace_write *w, uint32_t mask, unsigned lanes) {
  fprintf(f, " v%-2u %08x 0x", w->reg, mask);
  for (unsigned l = lanes; l-- > 0;) fprintf(f, "%08x ", w->value[l]);
}

static void memory(FILE *f, const vt_trace_event *ev) {
  for (unsigned i = 0; i < ev->nmem; i++) {
    const vt_trace_mem *m = &ev->mem[i];
    fprintf(f, " mem 0x%08x", m->addr);
    if (!m->is_store) continue;
    if (m->size == 1) fprintf(f, " 0x%x", m->value & 0xffu);
    else fprintf(f, " 0x%0*x", 2 * m->size, m->value);
  }
}

/* writes of one kind ('x', 'c' or 'v') in execution order */
static void writes(FILE *f, const vt_trace_event *ev, char kind, unsigned lanes) {
  for (unsigned i = 0; i < ev->nwrites; i++) {
    const vt_trace_write *w = &ev->writes[i];
    if (w->kind != kind) continue;
    if (kind == 'x') fprintf(f, " x%-2u 0x%08x", w->reg, w->value[0]);
    else if (kind == 'c') csr_write(f, w->reg, w->value[0]);
    else vector_write(f, w, ev->mask, lanes);
  }
}

static bool has_vector_write(const vt_trace_event *ev) {
  for (unsigned i = 0; i < ev->nwrites; i++)
    if (ev->writes[i].kind == 'v') return true;
  return false;
}

static void simt_state(FILE *f, struct vt_spike_core *c, const vt_trace_event *ev,
                       const vt_insn_desc *d) {
  vt_warp_info wi;
  vt_warp_get_info(ev->handle, &wi);
  bool branch = d && d->exec_class == VT_EX_VBRANCH;
  if (c && (branch || wi.simt_depth < c->depth)) c->npc = wi.pc; /* a branch, a pop */
  fprintf(f, " current mask:\t%08x current npc:\t%08x stack size: %u\n", wi.mask, c ? c->npc : 0,
          wi.simt_depth);
  vt_simt_info e;
  for (unsigned i = 0; vt_warp_simt_entry(ev->handle, i, &e); i++)
    fprintf(f, "[r_pc] %08x [else_pc] %08x [else_mask] %08x \n", e.r_pc, e.else_pc,
            e.else_mask);
}

void vt_trace_spike_line(vt_trace_writer *t, const vt_trace_event *ev) {
  FILE *f = t->f;
  vt_warp_info wi;
  vt_warp_get_info(ev->handle, &wi);
  unsigned core = wi.wg * wi.warps_per_wg + wi.warp;
  struct vt_spike_core *c = core_state(t, core);
  if (c && wi.instret == 1) *c = (struct vt_spike_core){0, 0}; /* a new launch */
  vt_insn_id id = vt_decode(ev->insn);
  const vt_insn_desc *d = id == VT_INSN_INVALID ? NULL : vt_isa_insn(id);
  int cls = d ? d->exec_class : VT_EX_ALU;
  bool vset = cls == VT_EX_VSET, vload = cls == VT_EX_VLOAD;
  bool vector = d && ((d->flags & VT_F_VEC) || vset || cls == VT_EX_VBRANCH);
  fprintf(f, "core %3u: 3 0x%08x (0x%08x)", core, ev->pc, ev->insn);
  writes(f, ev, 'x', 0);
  if (vload) {
    vector_context(f, ev->handle);
    writes(f, ev, 'v', wi.lanes);
  }
  if (vector) fprintf(f, " c8_vstart 0x00000000");
  writes(f, ev, 'c', 0);
  if (vset) {
    uint32_t mstatus = 0;
    vt_warp_get_csr(ev->handle, 0x300, &mstatus);
    csr_write(f, 0x300, mstatus);
  } else if (vector && !vload) {
    /* no context for private stores, which ignore vtype (decision 9) */
    if (d->amode != VT_AM_PRIVATE || has_vector_write(ev)) vector_context(f, ev->handle);
    writes(f, ev, 'v', wi.lanes);
  } else if (!vector && has_vector_write(ev)) {
    writes(f, ev, 'v', wi.lanes);
  }
  memory(f, ev);
  if ((ev->insn & 0x7f) == 0x5b) simt_state(f, c, ev, d);
  else fputc('\n', f);
  if (c) c->depth = wi.simt_depth;
}
