/* Liveness with the SIMT rule for scalar registers (cc_live.h): backward
 * dataflow to a fixed point, where each block of a divergent region also
 * keeps the region's scalar live-ins live at its end. */
#include <stdlib.h>
#include <string.h>

#include "cc_live.h"

bool cc_reg_fixed(int r) {
  return r < 0 || (r >= CC_X(0) && r <= CC_X(5)) || r == CC_X(8) || r == CC_V(0);
}

/* caller-saved registers a call to vt_vprintf may change (vtprintf.s:
 * a0-a7, t0-t6; ra is saved by the prologue) */
static const int clobbers[] = {1, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31};

int cc_mi_uses(const cc_mi *mi, int *out) {
  int n = 0;
  if (mi->op == CC_CALL) {
    out[n++] = CC_X(10);
    out[n++] = CC_X(11);
    return n;
  }
  const cc_fmt_info *fi = cc_fmt_of((cc_op)mi->op);
  for (int k = 0; k < fi->nsrc; k++) {
    if (!cc_reg_fixed(mi->s[k])) out[n++] = mi->s[k];
    if ((fi->pairs >> (k + 1) & 1) && !cc_reg_fixed(mi->s[k] + 1)) out[n++] = mi->s[k] + 1;
  }
  return n;
}

int cc_mi_defs(const cc_mi *mi, int *out) {
  int n = 0;
  if (mi->op == CC_CALL) {
    for (size_t k = 0; k < sizeof clobbers / sizeof clobbers[0]; k++)
      if (!cc_reg_fixed(CC_X(clobbers[k]))) out[n++] = CC_X(clobbers[k]);
    return n;
  }
  const cc_fmt_info *fi = cc_fmt_of((cc_op)mi->op);
  if ((fi->def != CC_RC_NONE || mi->op == CC_COPY) && !cc_reg_fixed(mi->d)) out[n++] = mi->d;
  if ((fi->pairs & 1) && !cc_reg_fixed(mi->d + 1)) out[n++] = mi->d + 1;
  return n;
}

void cc_live_free(cc_live *L) {
  free(L->in);
  free(L->out);
  L->in = L->out = NULL;
}

/* blocks reachable from the successors of x without passing its rpc */
static void region(const cc_mf *f, int x, char *in_region, int *stack) {
  memset(in_region, 0, (size_t)f->nb);
  int sp = 0, rpc = f->b[x].rpc;
  for (int k = 0; k < f->b[x].nsucc; k++) {
    int s = f->b[x].succ[k];
    if (s != rpc && !in_region[s]) in_region[stack[sp++] = s] = 1;
  }
  while (sp) {
    int b = stack[--sp];
    for (int k = 0; k < f->b[b].nsucc; k++) {
      int s = f->b[b].succ[k];
      if (s != rpc && !in_region[s]) in_region[stack[sp++] = s] = 1;
    }
  }
}

static void block_sets(const cc_mf *f, int b, uint64_t *use, uint64_t *def) {
  int tmp[32];
  for (int i = 0; i < f->b[b].n; i++) {
    const cc_mi *mi = &f->b[b].mi[i];
    int n = cc_mi_uses(mi, tmp);
    for (int k = 0; k < n; k++)
      if (!cc_bit(def, tmp[k])) cc_set(use, tmp[k]);
    n = cc_mi_defs(mi, tmp);
    for (int k = 0; k < n; k++) cc_set(def, tmp[k]);
  }
}

/* The SIMT rule: scalar live-ins of a divergent branch's successors stay
 * live to the end of every block of its region (extra live-outs). Returns
 * whether anything was added (the dataflow then runs again, until nested
 * regions agree). */
static bool simt_rule(const cc_mf *f, const cc_live *L, const uint64_t *sc, uint64_t *extra,
                      char *reg, int *stack) {
  int w = L->words;
  bool grew = false;
  for (int x = 0; x < f->nb; x++) {
    if (f->b[x].rpc < 0) continue;
    region(f, x, reg, stack);
    for (int b = 0; b < f->nb; b++) {
      if (!reg[b]) continue;
      for (int e = 0; e < f->b[x].nsucc; e++) {
        const uint64_t *si = L->in + (size_t)f->b[x].succ[e] * w;
        for (int k = 0; k < w; k++) {
          uint64_t add = si[k] & sc[k] & ~extra[(size_t)b * w + k];
          if (add) {
            extra[(size_t)b * w + k] |= add;
            grew = true;
          }
        }
      }
    }
  }
  return grew;
}

int cc_liveness(const cc_mf *f, cc_live *L) {
  int w = (f->nvr + 63) / 64, nb = f->nb;
  L->nvr = f->nvr;
  L->words = w;
  L->nb = nb;
  size_t sz = (size_t)nb * (size_t)w;
  L->in = calloc(sz + 1, sizeof(uint64_t));
  L->out = calloc(sz + 1, sizeof(uint64_t));
  uint64_t *use = calloc(sz + 1, sizeof(uint64_t)), *def = calloc(sz + 1, sizeof(uint64_t));
  uint64_t *extra = calloc(sz + 1, sizeof(uint64_t));
  char *reg = malloc((size_t)nb + 1);
  int *stack = malloc(((size_t)nb + 1) * sizeof(int));
  if (!L->in || !L->out || !use || !def || !extra || !reg || !stack) {
    free(use);
    free(def);
    free(extra);
    free(reg);
    free(stack);
    cc_live_free(L);
    return -1;
  }
  for (int b = 0; b < nb; b++) block_sets(f, b, use + (size_t)b * w, def + (size_t)b * w);
  uint64_t *sc = calloc((size_t)w + 1, sizeof(uint64_t)); /* S-class mask */
  if (!sc) {
    free(use);
    free(def);
    free(extra);
    free(reg);
    free(stack);
    cc_live_free(L);
    return -1;
  }
  for (int r = 0; r < f->nvr; r++)
    if (cc_vr_class(f, r) == CC_RC_S) cc_set(sc, r);
  for (;;) {
    for (bool changed = true; changed;) {
      changed = false;
      for (int b = nb - 1; b >= 0; b--) {
        uint64_t *out = L->out + (size_t)b * w, *in = L->in + (size_t)b * w;
        const uint64_t *u = use + (size_t)b * w, *d = def + (size_t)b * w, *x = extra + (size_t)b * w;
        for (int k = 0; k < w; k++) {
          uint64_t o = x[k];
          for (int e = 0; e < f->b[b].nsucc; e++) o |= L->in[(size_t)f->b[b].succ[e] * w + k];
          uint64_t i = u[k] | (o & ~d[k]);
          if (o != out[k] || i != in[k]) changed = true;
          out[k] = o;
          in[k] = i;
        }
      }
    }
    if (!simt_rule(f, L, sc, extra, reg, stack)) break;
  }
  free(sc);
  free(use);
  free(def);
  free(extra);
  free(reg);
  free(stack);
  return 0;
}
