/* Reading an LLVM IR function into the back end's view (cc_ir.h): block
 * and instruction numbering, the control-flow graph with its dominators,
 * and the pointer map used everywhere in the back end. */
#include <stdlib.h>
#include <string.h>

#include "cc_ir.h"

static size_t slot(const void *key, size_t cap) {
  uintptr_t h = (uintptr_t)key;
  h ^= h >> 17;
  h *= 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 7) & (cap - 1);
}

int cc_ptrmap_put(cc_ptrmap *m, const void *key, int val) {
  if ((m->count + 1) * 2 > m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 64;
    const void **k = calloc(cap, sizeof *k);
    int *v = malloc(cap * sizeof *v);
    if (!k || !v) {
      free(k);
      free(v);
      return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) {
        size_t s = slot(m->keys[i], cap);
        while (k[s]) s = (s + 1) & (cap - 1);
        k[s] = m->keys[i];
        v[s] = m->vals[i];
      }
    free(m->keys);
    free(m->vals);
    m->keys = k;
    m->vals = v;
    m->cap = cap;
  }
  size_t s = slot(key, m->cap);
  while (m->keys[s] && m->keys[s] != key) s = (s + 1) & (m->cap - 1);
  if (!m->keys[s]) m->count++;
  m->keys[s] = key;
  m->vals[s] = val;
  return 0;
}

int cc_ptrmap_get(const cc_ptrmap *m, const void *key) {
  if (!m->cap) return -1;
  size_t s = slot(key, m->cap);
  while (m->keys[s]) {
    if (m->keys[s] == key) return m->vals[s];
    s = (s + 1) & (m->cap - 1);
  }
  return -1;
}

void cc_ptrmap_free(cc_ptrmap *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

void cc_irf_free(cc_irf *f) {
  if (!f) return;
  free(f->bb);
  cc_ptrmap_free(&f->bmap);
  cc_graph_free(f->g);
  free(f->inst);
  free(f->inst_block);
  cc_ptrmap_free(&f->imap);
  free(f->varying);
  free(f->div_branch);
  free(f->flat_ptr);
  free(f);
}

int cc_irf_index(const cc_irf *f, LLVMValueRef inst) { return cc_ptrmap_get(&f->imap, inst); }
int cc_irf_block(const cc_irf *f, LLVMBasicBlockRef b) { return cc_ptrmap_get(&f->bmap, b); }

static int build_graph(cc_irf *f) {
  int cap = 16, ne = 0;
  int *from = malloc((size_t)cap * sizeof(int)), *to = malloc((size_t)cap * sizeof(int));
  if (!from || !to) goto oom;
  for (int b = 0; b < f->nb; b++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(f->bb[b]);
    unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
    for (unsigned k = 0; k < ns; k++) {
      int s = cc_irf_block(f, LLVMGetSuccessor(t, k));
      if (s < 0) continue;
      bool dup = false; /* br i1 %c, label %x, label %x: one edge */
      for (int e = 0; e < ne; e++) dup |= from[e] == b && to[e] == s;
      if (dup) continue;
      if (ne == cap) {
        cap *= 2;
        int *a = realloc(from, (size_t)cap * sizeof(int)), *c = a ? realloc(to, (size_t)cap * sizeof(int)) : NULL;
        if (a) from = a;
        if (c) to = c;
        if (!a || !c) goto oom;
      }
      from[ne] = b;
      to[ne++] = s;
    }
  }
  f->g = cc_graph_new(f->nb, from, to, ne);
  free(from);
  free(to);
  return f->g && cc_graph_analyze(f->g) == 0 ? 0 : -1;
oom:
  free(from);
  free(to);
  return -1;
}

cc_irf *cc_irf_new(LLVMValueRef fn) {
  cc_irf *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->fn = fn;
  f->nb = (int)LLVMCountBasicBlocks(fn);
  f->bb = malloc(((size_t)f->nb + 1) * sizeof *f->bb);
  if (!f->bb) goto oom;
  int b = 0, n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    f->bb[b] = bb;
    if (cc_ptrmap_put(&f->bmap, bb, b++) != 0) goto oom;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) n++;
  }
  f->ninst = n;
  f->inst = malloc(((size_t)n + 1) * sizeof *f->inst);
  f->inst_block = malloc(((size_t)n + 1) * sizeof(int));
  f->varying = calloc((size_t)n + 1, 1);
  f->flat_ptr = calloc((size_t)n + 1, 1);
  f->div_branch = calloc((size_t)f->nb + 1, 1);
  if (!f->inst || !f->inst_block || !f->varying || !f->flat_ptr || !f->div_branch) goto oom;
  n = 0;
  for (b = 0; b < f->nb; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(f->bb[b]); i; i = LLVMGetNextInstruction(i)) {
      f->inst[n] = i;
      f->inst_block[n] = b;
      if (cc_ptrmap_put(&f->imap, i, n++) != 0) goto oom;
    }
  if (build_graph(f) != 0) goto oom;
  return f;
oom:
  cc_irf_free(f);
  return NULL;
}
