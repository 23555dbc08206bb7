/* SIMT control flow: every vector branch re-converges at its immediate
 * post-dominator (docs/cc.md "How divergence is compiled"; isa.md 2.1-2.3).
 * The emitter puts `auipc` + `setrpc` with that block's address before the
 * vector branch and `join` as the first instruction of the block. A join
 * whose pc matches the top of the SIMT stack pops it; otherwise it does
 * nothing, so joins shared by several branches, or reached on paths that
 * did not diverge, are harmless. The post-dominators come from cc_dom.c
 * (the epilogue block is the single exit). */
#include <stdlib.h>

#include "cc_internal.h"
#include "cc_mir.h"
#include "cc_graph.h"

cc_graph *cc_mf_graph(cc_mf *f) {
  int ne = 0;
  for (int b = 0; b < f->nb; b++) ne += f->b[b].nsucc;
  int *from = malloc(((size_t)ne + 1) * sizeof(int)), *to = malloc(((size_t)ne + 1) * sizeof(int));
  if (!from || !to) {
    free(from);
    free(to);
    return NULL;
  }
  ne = 0;
  for (int b = 0; b < f->nb; b++)
    for (int k = 0; k < f->b[b].nsucc; k++) {
      from[ne] = b;
      to[ne++] = f->b[b].succ[k];
    }
  cc_graph *g = cc_graph_new(f->nb, from, to, ne);
  free(from);
  free(to);
  if (g && cc_graph_analyze(g) != 0) {
    cc_graph_free(g);
    g = NULL;
  }
  return g;
}

int cc_simt(cc_ctx *c, cc_mf *f) {
  cc_graph *g = cc_mf_graph(f);
  if (!g) {
    cc_buf_puts(&c->log, "vt cc: error: out of memory\n");
    c->errors++;
    return -1;
  }
  for (int b = 0; b < f->nb; b++) {
    f->b[b].loop_depth = g->loop_depth[b];
    f->b[b].rpc = -1;
    const cc_mi *t = f->b[b].n ? &f->b[b].mi[f->b[b].n - 1] : NULL;
    if (!t || cc_ops[t->op].fmt != F_VBR || g->rpo_index[b] < 0) continue;
    int p = g->ipdom[b];
    if (p >= f->nb) {
      cc_buf_printf(&c->log, "%s: error: kernel '%s': a divergent branch never re-converges "
                    "(an endless loop?)\n", c->display_name, f->name);
      c->errors++;
      continue;
    }
    f->b[b].rpc = p;
    f->b[p].join = true;
  }
  cc_graph_free(g);
  return c->errors ? -1 : 0;
}
