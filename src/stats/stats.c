/* Statistics storage: counters per launch and SM (vt/counters.def), and
 * their aggregation as the table's kinds say. Emitters: stats_emit.c. */
#include <stdlib.h>
#include <string.h>

#include "stats_internal.h"

const vt_counter_info vt_counter_table[VT_C_COUNT] = {
#define VT_COUNTER(name, model, kind, unit, desc) {#name, unit, desc, VT_CM_##model, VT_CK_##kind},
#define VT_RATIO(name, model, unit, desc, num, den) {#name, unit, desc, VT_CM_##model, VT_CK_RATIO},
#include "vt/counters.def"
#undef VT_COUNTER
#undef VT_RATIO
};

const vt_counter_info *vt_counter_info_of(vt_counter c) {
  return (unsigned)c < VT_C_COUNT ? &vt_counter_table[c] : NULL;
}

int vt_counter_find(const char *name) {
  for (int c = 0; c < VT_C_COUNT; c++)
    if (!strcmp(vt_counter_table[c].name, name)) return c;
  return -1;
}

vt_stats *vt_stats_new(void) { return calloc(1, sizeof(vt_stats)); }

void vt_stats_free(vt_stats *s) {
  if (!s) return;
  for (unsigned i = 0; i < s->n; i++) {
    free(s->l[i].rows);
    free(s->l[i].name);
  }
  free(s->l);
  free(s);
}

uint64_t *vt_stats_launch_begin(vt_stats *s, const char *name, unsigned nsm, bool timed) {
  if (s->n == s->cap) {
    unsigned cap = s->cap ? 2 * s->cap : 8;
    vt_stats_launch *l = realloc(s->l, cap * sizeof *l);
    if (!l) return NULL;
    s->l = l;
    s->cap = cap;
  }
  uint64_t *rows = calloc((size_t)(nsm ? nsm : 1) * VT_C_COUNT, sizeof *rows);
  char *copy = name ? strdup(name) : NULL;
  if (!rows || (name && !copy)) {
    free(rows);
    free(copy);
    return NULL;
  }
  s->l[s->n++] = (vt_stats_launch){copy, nsm, timed, rows};
  if (nsm > s->max_sms) s->max_sms = nsm;
  s->timed |= timed;
  return rows;
}

unsigned vt_stats_launch_count(const vt_stats *s) { return s->n; }
unsigned vt_stats_sm_count(const vt_stats *s) { return s->max_sms; }
bool vt_stats_timed(const vt_stats *s) { return s->timed; }
const char *vt_stats_launch_name(const vt_stats *s, unsigned launch) {
  return launch < s->n && s->l[launch].name ? s->l[launch].name : "";
}

static double raw(const vt_stats *s, int launch, int sm, vt_counter c) {
  vt_counter_kind kind = vt_counter_table[c].kind;
  double total = 0;
  for (unsigned L = 0; L < s->n; L++) {
    if (launch >= 0 && (unsigned)launch != L) continue;
    double v = 0;
    for (unsigned k = 0; k < s->l[L].nsm; k++) {
      if (sm >= 0 && (unsigned)sm != k) continue;
      double x = (double)s->l[L].rows[(size_t)k * VT_C_COUNT + c];
      v = kind == VT_CK_SUM || kind == VT_CK_SEC ? v + x : (x > v ? x : v);
    }
    total = kind == VT_CK_MAX ? (v > total ? v : total) : total + v;
  }
  return kind == VT_CK_SEC ? total * 1e-9 : total;
}

double vt_stats_value(const vt_stats *s, int launch, int sm, vt_counter c) {
  if ((unsigned)c >= VT_C_COUNT) return 0;
  if (vt_counter_table[c].kind != VT_CK_RATIO) return raw(s, launch, sm, c);
#define C(x) raw(s, launch, sm, VT_C_##x)
  switch (c) {
#define VT_COUNTER(...)
#define VT_RATIO(name, model, unit, desc, num, den) \
  case VT_C_##name: {                               \
    double n_ = (num), d_ = (den);                  \
    return d_ != 0 ? n_ / d_ : 0;                   \
  }
#include "vt/counters.def"
#undef VT_COUNTER
#undef VT_RATIO
  default: return 0;
  }
#undef C
}
