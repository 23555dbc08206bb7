/* Construction of the machine IR (cc_mir.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_mir.h"

const cc_op_info cc_ops[CC_NOPS] = {
#define OP(id, mn, fmt) {mn, F_##fmt},
#include "cc_ops.def"
#undef OP
};

enum { S = CC_RC_S, V = CC_RC_V, N = CC_RC_NONE };

static const cc_fmt_info fmt_info[] = {
    [F_RRR] = {S, 2, {S, S, N}, false, 0, false},
    [F_RRI] = {S, 1, {S, N, N}, false, 0, false},
    [F_RI] = {S, 0, {N, N, N}, false, 0, false},
    [F_LA] = {S, 0, {N, N, N}, false, 0, false},
    [F_RR] = {S, 1, {S, N, N}, false, 0, false},
    [F_LD] = {S, 1, {S, N, N}, false, 0, false},
    [F_ST] = {N, 2, {S, S, N}, false, 0, false},
    [F_CSRR] = {S, 0, {N, N, N}, false, 0, false},
    [F_IMM] = {N, 0, {N, N, N}, false, 0, false},
    [F_AMO] = {S, 2, {S, S, N}, false, 0, false},
    [F_LR] = {S, 1, {S, N, N}, false, 0, false},
    [F_RRRR] = {S, 3, {S, S, S}, false, 0, false},
    [F_RR_RM] = {S, 1, {S, N, N}, false, 0, false},
    [F_VV] = {V, 2, {V, V, N}, false, 0, false},
    [F_VX] = {V, 2, {V, S, N}, false, 0, false},
    [F_VI] = {V, 1, {V, N, N}, false, 0, false},
    [F_VF] = {V, 2, {V, S, N}, false, 0, false},
    [F_MVV] = {V, 3, {V, V, V}, true, 0, false},
    [F_MVX] = {V, 3, {V, S, V}, true, 0, false},
    [F_MVF] = {V, 3, {V, S, V}, true, 0, false},
    [F_V] = {V, 1, {V, N, N}, false, 0, false},
    [F_VS] = {V, 1, {S, N, N}, false, 0, false},
    [F_VIMM] = {V, 0, {N, N, N}, false, 0, false},
    [F_V1] = {V, 1, {V, N, N}, false, 0, false},
    [F_XV] = {S, 1, {V, N, N}, false, 0, false},
    [F_VD] = {V, 0, {N, N, N}, false, 0, false},
    [F_VLD] = {V, 1, {V, N, N}, false, 0, false},
    [F_VST] = {N, 2, {V, V, N}, false, 0, false},
    [F_BR] = {N, 2, {S, S, N}, false, 0, false},
    [F_VBR] = {N, 2, {V, V, N}, false, 0, false},
    [F_J] = {N, 0, {N, N, N}, false, 0, false},
    [F_BARRIER] = {N, 0, {N, N, N}, false, 0, false},
    [F_NONE] = {N, 0, {N, N, N}, false, 0, false},
    [F_CALL] = {N, 0, {N, N, N}, false, 0, false},
    [F_COPY] = {N, 1, {N, N, N}, false, 0, false}, /* classes from the registers */
    /* pairs: F_WVV vd, vs2, vs1 and F_WV vd, vs2 at SEW 64; F_WMVV vd += vs1 * vs2
     * at SEW 64; F_WW widening at SEW 32 (pair from one register); F_PRRR a
     * scalar instruction after `prefix pair=1` */
    [F_WVV] = {V, 2, {V, V, N}, false, 0x7, true},
    [F_WV] = {V, 1, {V, N, N}, false, 0x3, true},
    [F_WMVV] = {V, 3, {V, V, V}, true, 0xf, true},
    [F_WW] = {V, 1, {V, N, N}, false, 0x1, false},
    [F_PRRR] = {S, 2, {S, S, N}, false, 0x7, false},
};

const cc_fmt_info *cc_fmt_of(cc_op op) { return &fmt_info[cc_ops[op].fmt]; }

cc_mf *cc_mf_new(const char *name) {
  cc_mf *f = calloc(1, sizeof *f);
  if (!f) return NULL;
  f->capvr = 1024;
  f->rc = malloc((size_t)f->capvr);
  if (!f->rc) {
    cc_mf_free(f);
    return NULL;
  }
  f->nvr = CC_VR_FIRST;
  for (int i = 0; i < CC_VR_FIRST; i++) f->rc[i] = i >= CC_VR_V0 ? CC_RC_V : CC_RC_S;
  f->name = cc_mf_str(f, name);
  f->exit_block = -1;
  return f;
}

void cc_mf_free(cc_mf *f) {
  if (!f) return;
  for (int i = 0; i < f->nb; i++) {
    free(f->b[i].mi);
    free(f->b[i].pred);
  }
  free(f->b);
  free(f->rc);
  for (int i = 0; i < f->nstrings; i++) free(f->strings[i]);
  free(f->strings);
  free(f);
}

int cc_mf_block(cc_mf *f) {
  if (f->nb == f->capb) {
    int cap = f->capb ? 2 * f->capb : 16;
    cc_mb *b = realloc(f->b, (size_t)cap * sizeof *b);
    if (!b) {
      f->oom = true;
      return 0;
    }
    f->b = b;
    f->capb = cap;
  }
  cc_mb *b = &f->b[f->nb];
  memset(b, 0, sizeof *b);
  b->rpc = -1;
  return f->nb++;
}

int cc_mf_vreg(cc_mf *f, int rc) {
  if (f->nvr == f->capvr) {
    int cap = 2 * f->capvr;
    int8_t *r = realloc(f->rc, (size_t)cap);
    if (!r) {
      f->oom = true;
      return CC_X(0);
    }
    f->rc = r;
    f->capvr = cap;
  }
  f->rc[f->nvr] = (int8_t)rc;
  return f->nvr++;
}

const char *cc_mf_str(cc_mf *f, const char *s) {
  if (f->nstrings == f->capstrings) {
    int cap = f->capstrings ? 2 * f->capstrings : 16;
    char **a = realloc(f->strings, (size_t)cap * sizeof *a);
    if (!a) {
      f->oom = true;
      return "";
    }
    f->strings = a;
    f->capstrings = cap;
  }
  char *c = strdup(s);
  if (!c) {
    f->oom = true;
    return "";
  }
  f->strings[f->nstrings++] = c;
  return c;
}

static bool grow(cc_mf *f, cc_mb *b) {
  if (b->n < b->cap) return true;
  int cap = b->cap ? 2 * b->cap : 16;
  cc_mi *m = realloc(b->mi, (size_t)cap * sizeof *m);
  if (!m) {
    f->oom = true;
    return false;
  }
  b->mi = m;
  b->cap = cap;
  return true;
}

cc_mi *cc_mb_push(cc_mf *f, int bi, const cc_mi *mi) {
  cc_mb *b = &f->b[bi];
  if (!grow(f, b)) return NULL;
  b->mi[b->n] = *mi;
  return &b->mi[b->n++];
}

cc_mi *cc_mb_insert(cc_mf *f, int bi, int at, const cc_mi *mi) {
  cc_mb *b = &f->b[bi];
  if (!grow(f, b)) return NULL;
  memmove(&b->mi[at + 1], &b->mi[at], (size_t)(b->n - at) * sizeof *mi);
  b->mi[at] = *mi;
  b->n++;
  return &b->mi[at];
}

bool cc_is_term(const cc_mi *mi) {
  uint8_t fmt = cc_ops[mi->op].fmt;
  return fmt == F_BR || fmt == F_VBR || fmt == F_J || mi->op == CC_RET;
}

void cc_mf_edges(cc_mf *f) {
  for (int i = 0; i < f->nb; i++) {
    free(f->b[i].pred);
    f->b[i].pred = NULL;
    f->b[i].npred = 0;
    f->b[i].nsucc = 0;
  }
  int *count = calloc((size_t)f->nb + 1, sizeof *count);
  if (!count) {
    f->oom = true;
    return;
  }
  for (int i = 0; i < f->nb; i++) {
    cc_mb *b = &f->b[i];
    const cc_mi *t = b->n ? &b->mi[b->n - 1] : NULL;
    if (!t || !cc_is_term(t) || t->op == CC_RET) continue;
    b->succ[b->nsucc++] = t->target;
    if (cc_ops[t->op].fmt != F_J && t->target2 != t->target) b->succ[b->nsucc++] = t->target2;
    for (int k = 0; k < b->nsucc; k++) count[b->succ[k]]++;
  }
  for (int i = 0; i < f->nb; i++) {
    f->b[i].pred = count[i] ? malloc((size_t)count[i] * sizeof(int)) : NULL;
    if (count[i] && !f->b[i].pred) f->oom = true;
  }
  for (int i = 0; i < f->nb; i++)
    for (int k = 0; k < f->b[i].nsucc; k++) {
      cc_mb *s = &f->b[f->b[i].succ[k]];
      if (s->pred) s->pred[s->npred++] = i;
    }
  free(count);
}

void cc_mf_dump(FILE *out, const cc_mf *f) {
  fprintf(out, "kernel %s: %d blocks, %d registers\n", f->name, f->nb, f->nvr);
  for (int b = 0; b < f->nb; b++) {
    fprintf(out, "B%d (key %d%s, rpc %d):\n", b, f->b[b].key, f->b[b].join ? ", join" : "", f->b[b].rpc);
    for (int i = 0; i < f->b[b].n; i++) {
      const cc_mi *mi = &f->b[b].mi[i];
      fprintf(out, "  %-14s d=%d s=%d,%d,%d imm=%d t=%d,%d%s%s\n", cc_ops[mi->op].mn[0] ? cc_ops[mi->op].mn : "copy",
              mi->d, mi->s[0], mi->s[1], mi->s[2], mi->imm, mi->target, mi->target2,
              mi->sym ? " " : "", mi->sym ? mi->sym : "");
    }
  }
}
