/* Expected MMA/MMA64 fields from the assembly text of isa2025.md 3.6.3 and
 * 3.7.2, for the decoding tests: "mma.<shape>.<atype>.<ctype>[.relu][.sat]
 * vd, vs1, vs2" and "mma64.<shape>.<alayout>.<blayout>.<atype>.<ctype>.<rnd>
 * vd, vs1, vs2, vs3". Uses the test's own table (mma_forms.h). */
#ifndef VT_TEST_MMA_TEXT_H
#define VT_TEST_MMA_TEXT_H
#include <stdio.h>
#include <string.h>

#include "mma_forms.h"

typedef struct mma_text {
  int is64, type, shape, ct, al, bl, relu, sat, rnd; /* rnd: 0 rn 1 rz 2 rm 3 rp, -1 none */
  unsigned vd, vs1, vs2, vs3;
} mma_text;

/* Splits "a.b.c" into at most 8 parts (in place). */
static int mma_text_split(char *s, char **part) {
  int n = 0;
  for (char *p = s; n < 8;) {
    part[n++] = p;
    p = strchr(p, '.');
    if (!p) break;
    *p++ = '\0';
  }
  return n;
}

static int mma_text_type(const char *name, const char *shape, int *type, int *code) {
  for (size_t i = 0; i < N_TFORMS; i++)
    if (!strcmp(TFORMS[i].tname, name) && !strcmp(TFORMS[i].sname, shape)) {
      *type = (int)TFORMS[i].type;
      *code = TFORMS[i].shape;
      return 1;
    }
  return 0;
}

/* Parses one line; returns 1 when it is a well-formed mma/mma64 line. */
static int mma_text_parse(const char *line, mma_text *t) {
  char mn[128], *part[8];
  unsigned r[4];
  memset(t, 0, sizeof *t);
  t->rnd = -1;
  int nr = sscanf(line, "%127s v%u, v%u, v%u, v%u", mn, &r[0], &r[1], &r[2], &r[3]);
  int np = mma_text_split(mn, part);
  if (!strcmp(part[0], "mma") && nr == 4 && np >= 4) {
    if (!mma_text_type(part[2], part[1], &t->type, &t->shape)) return 0;
    t->ct = strcmp(part[3], "f16") != 0;
    for (int i = 4; i < np; i++) {
      if (!strcmp(part[i], "relu")) t->relu = 1;
      else if (!strcmp(part[i], "sat")) t->sat = 1;
      else return 0;
    }
    t->vd = t->vs3 = r[0];
    t->vs1 = r[1];
    t->vs2 = r[2];
    return 1;
  }
  if (!strcmp(part[0], "mma64") && nr == 5 && np == 7) {
    t->is64 = 1;
    if (!mma_text_type(part[4], part[1], &t->type, &t->shape)) return 0;
    t->al = !strcmp(part[2], "col");
    t->bl = !strcmp(part[3], "row");
    t->ct = strcmp(part[5], "f16") != 0;
    static const char *const rn[6] = {"rn", "rz", "rm", "rp", "sat", "wrap"};
    for (int i = 0; i < 6; i++)
      if (!strcmp(part[6], rn[i])) {
        if (i < 4) t->rnd = i;
        else t->sat = i == 4;
      }
    t->vd = r[0];
    t->vs1 = r[1];
    t->vs2 = r[2];
    t->vs3 = r[3];
    return 1;
  }
  return 0;
}

#endif
