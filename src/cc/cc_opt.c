/* Clean-ups on the machine IR after instruction selection: common
 * subexpressions within a block (the same operation on the same registers;
 * loads only until the next store, atomic, call or barrier) and dead
 * instructions. Only registers written once in the whole function take
 * part, so a reused result is never redefined in between; within a block
 * the SIMT mask is the same for every instruction, so this holds for
 * vector instructions too. */
#include <stdlib.h>
#include <string.h>

#include "cc_live.h"
#include "cc_mir.h"

static bool pure(const cc_mi *mi) {
  switch ((cc_fmt)cc_ops[mi->op].fmt) {
  case F_RRR: case F_RRI: case F_RI: case F_LA: case F_RR: case F_CSRR: case F_RRRR:
  case F_RR_RM: case F_VV: case F_VX: case F_VI: case F_VF: case F_V: case F_VS: case F_VIMM:
  case F_V1: case F_XV: case F_VD:
    return true; /* vmv.x.s too: the mask is the same within a block */
  default:
    return false;
  }
}

static bool is_load(const cc_mi *mi) { return cc_ops[mi->op].fmt == F_LD || cc_ops[mi->op].fmt == F_VLD; }

static bool clobbers_memory(const cc_mi *mi) {
  uint8_t f = cc_ops[mi->op].fmt;
  return f == F_ST || f == F_VST || f == F_AMO || f == F_LR || f == F_CALL || f == F_BARRIER ||
         mi->op == CC_FENCE;
}

static bool same(const cc_mi *a, const cc_mi *b) {
  return a->op == b->op && a->s[0] == b->s[0] && a->s[1] == b->s[1] && a->s[2] == b->s[2] &&
         a->imm == b->imm && a->target == b->target && a->sym == b->sym;
}

/* loads also depend on memory: the caller limits their reuse */
static bool cse_candidate(const cc_mi *mi, const int *ndefs) {
  if (mi->d < CC_VR_FIRST || ndefs[mi->d] != 1) return false;
  if (!pure(mi) && !is_load(mi)) return false;
  if (mi->op == CC_FSRMI) return false;
  for (int k = 0; k < 3; k++) {
    if (mi->s[k] >= CC_VR_FIRST && ndefs[mi->s[k]] != 1) return false;
    /* a physical register other than the fixed ones (the staging pairs of
     * 64-bit operations) is written again and again */
    if (mi->s[k] >= 0 && mi->s[k] < CC_VR_FIRST && !cc_reg_fixed(mi->s[k])) return false;
  }
  return true;
}

static void count_defs(const cc_mf *f, int *ndefs) {
  int tmp[32];
  memset(ndefs, 0, sizeof(int) * (size_t)f->nvr);
  for (int b = 0; b < f->nb; b++)
    for (int i = 0; i < f->b[b].n; i++) {
      int n = cc_mi_defs(&f->b[b].mi[i], tmp);
      for (int k = 0; k < n; k++) ndefs[tmp[k]]++;
    }
}

static void rename_uses(cc_mf *f, const int *map) {
  for (int b = 0; b < f->nb; b++)
    for (int i = 0; i < f->b[b].n; i++) {
      cc_mi *mi = &f->b[b].mi[i];
      for (int k = 0; k < 3; k++)
        if (mi->s[k] >= CC_VR_FIRST && map[mi->s[k]] >= 0) mi->s[k] = map[mi->s[k]];
    }
}

static int cse(cc_mf *f, int *ndefs, int *map) {
  int changed = 0;
  for (int r = 0; r < f->nvr; r++) map[r] = -1;
  for (int b = 0; b < f->nb; b++) {
    cc_mb *mb = &f->b[b];
    int w = 0, first_load = 0, first_any = 0;
    for (int i = 0; i < mb->n; i++) {
      cc_mi mi = mb->mi[i];
      for (int k = 0; k < 3; k++) /* earlier replacements in this block */
        if (mi.s[k] >= CC_VR_FIRST && map[mi.s[k]] >= 0) mi.s[k] = map[mi.s[k]];
      if (clobbers_memory(&mi)) first_load = w + 1;
      if (mi.op == CC_FSRMI) first_any = w + 1; /* the rounding mode changes */
      if (cse_candidate(&mi, ndefs)) {
        int j;
        int from = is_load(&mi) && first_load > first_any ? first_load : first_any;
        for (j = from; j < w; j++)
          if (same(&mb->mi[j], &mi) && mb->mi[j].d >= CC_VR_FIRST && ndefs[mb->mi[j].d] == 1 &&
              cc_vr_class(f, mb->mi[j].d) == cc_vr_class(f, mi.d))
            break;
        if (j < w) {
          map[mi.d] = mb->mi[j].d;
          changed++;
          continue;
        }
      }
      mb->mi[w++] = mi;
    }
    mb->n = w;
  }
  if (changed) rename_uses(f, map);
  return changed;
}

/* instructions whose only effect is a register nobody reads */
static int dce(cc_mf *f, int *uses) {
  int tmp[32], removed = 0;
  memset(uses, 0, sizeof(int) * (size_t)f->nvr);
  for (int b = 0; b < f->nb; b++)
    for (int i = 0; i < f->b[b].n; i++) {
      const cc_mi *mi = &f->b[b].mi[i];
      int n = cc_mi_uses(mi, tmp);
      for (int k = 0; k < n; k++) uses[tmp[k]]++;
    }
  for (int b = 0; b < f->nb; b++) {
    cc_mb *mb = &f->b[b];
    int w = 0;
    for (int i = 0; i < mb->n; i++) {
      const cc_mi *mi = &mb->mi[i];
      bool dead = mi->d >= CC_VR_FIRST && !uses[mi->d] && (pure(mi) || is_load(mi) || mi->op == CC_COPY);
      if (dead) {
        removed++;
        continue;
      }
      mb->mi[w++] = *mi;
    }
    mb->n = w;
  }
  return removed;
}

int cc_opt_local(cc_mf *f) {
  int *a = malloc(sizeof(int) * (size_t)f->nvr + 4), *b = malloc(sizeof(int) * (size_t)f->nvr + 4);
  if (!a || !b) {
    free(a);
    free(b);
    return -1;
  }
  for (int round = 0; round < 4; round++) {
    count_defs(f, a);
    int c = cse(f, a, b);
    int d = dce(f, a);
    if (!c && !d) break;
  }
  free(a);
  free(b);
  return 0;
}
