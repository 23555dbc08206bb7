/* Statistics of the timing model: storage per launch and SM, aggregation by
 * the kinds of vt/timing_counters.def, and every output generated from that
 * one table: text report, FIN line, JSON, CSV and the Markdown documentation. */
#include <stdlib.h>
#include <string.h>

#include "timing_internal.h"

enum { K_SUM, K_MAX, K_CYC, K_RATIO };

typedef struct counter_desc {
  const char *name, *unit, *desc;
  int kind;
} counter_desc;

static const counter_desc counters[VT_TC_COUNT] = {
#define VT_TC(name, kind, unit, desc) {#name, unit, desc, K_##kind},
#define VT_TR(name, unit, desc, num, den) {#name, unit, desc, K_RATIO},
#include "vt/timing_counters.def"
#undef VT_TC
#undef VT_TR
};

static const char *const kind_names[] = {"sum", "max", "max over SMs, sum over launches",
                                         "ratio"};

const char *vt_timing_counter_name(vt_timing_counter c) {
  return (unsigned)c < VT_TC_COUNT ? counters[c].name : "?";
}
const char *vt_timing_counter_unit(vt_timing_counter c) {
  return (unsigned)c < VT_TC_COUNT ? counters[c].unit : "?";
}
const char *vt_timing_counter_desc(vt_timing_counter c) {
  return (unsigned)c < VT_TC_COUNT ? counters[c].desc : "?";
}

void tm_stats_launch_begin(vt_timing *t, const char *name) {
  unsigned n = t->nlaunch + 1;
  uint64_t **ls = realloc(t->lstats, n * sizeof *ls);
  if (!ls) return;
  t->lstats = ls;
  char **ln = realloc(t->lnames, n * sizeof *ln);
  if (!ln) return;
  t->lnames = ln;
  unsigned *lsm = realloc(t->lsms, n * sizeof *lsm);
  if (!lsm) return;
  t->lsms = lsm;
  uint64_t *st = calloc((size_t)t->nsm * VT_TC_COUNT, sizeof *st);
  if (!st) return;
  ls[t->nlaunch] = st;
  ln[t->nlaunch] = name ? strdup(name) : NULL;
  lsm[t->nlaunch] = t->nsm;
  if (t->nsm > t->max_sms) t->max_sms = t->nsm;
  for (unsigned s = 0; s < t->nsm; s++) t->sms[s].c = &st[(size_t)s * VT_TC_COUNT];
  t->nlaunch = n;
}

unsigned vt_timing_launch_count(const vt_timing *t) { return t->nlaunch; }
unsigned vt_timing_sm_count(const vt_timing *t) { return t->max_sms; }

static double raw(const vt_timing *t, int launch, int sm, vt_timing_counter c) {
  int kind = counters[c].kind;
  double total = 0;
  for (unsigned L = 0; L < t->nlaunch; L++) {
    if (launch >= 0 && (unsigned)launch != L) continue;
    if (!t->lstats[L]) continue;
    double v = 0;
    for (unsigned s = 0; s < t->lsms[L]; s++) {
      if (sm >= 0 && (unsigned)sm != s) continue;
      double x = (double)t->lstats[L][(size_t)s * VT_TC_COUNT + c];
      v = kind == K_SUM ? v + x : (x > v ? x : v);
    }
    total = kind == K_MAX ? (v > total ? v : total) : total + v;
  }
  return total;
}

double vt_timing_counter_value(const vt_timing *t, int launch, int sm, vt_timing_counter c) {
  if ((unsigned)c >= VT_TC_COUNT) return 0;
  if (counters[c].kind != K_RATIO) return raw(t, launch, sm, c);
#define C(x) raw(t, launch, sm, VT_TC_##x)
  switch (c) {
#define VT_TC(name, kind, unit, desc)
#define VT_TR(name, unit, desc, num, den) \
  case VT_TC_##name: {                    \
    double n_ = (num), d_ = (den);        \
    return d_ != 0 ? n_ / d_ : 0;         \
  }
#include "vt/timing_counters.def"
#undef VT_TC
#undef VT_TR
  default: return 0;
  }
#undef C
}

uint64_t vt_timing_cycles(const vt_timing *t) {
  return (uint64_t)vt_timing_counter_value(t, -1, -1, VT_TC_cycles);
}

void vt_timing_fin_line(const vt_timing *t, char *buf, size_t n) {
  size_t off = 0;
  int k = snprintf(buf, n, "FIN %llu |", (unsigned long long)vt_timing_cycles(t));
  if (k < 0) return;
  off = (size_t)k < n ? (size_t)k : n;
  for (unsigned s = 0; s < t->max_sms && off < n; s++) {
    k = snprintf(buf + off, n - off, " [i: X: %.0f V: %.0f]",
                 vt_timing_counter_value(t, -1, (int)s, VT_TC_fin_x),
                 vt_timing_counter_value(t, -1, (int)s, VT_TC_fin_v));
    if (k < 0) return;
    off += (size_t)k < n - off ? (size_t)k : n - off;
  }
}

static void fmt_value(char *buf, size_t n, const vt_timing *t, int launch, int sm,
                      vt_timing_counter c) {
  double v = vt_timing_counter_value(t, launch, sm, c);
  if (counters[c].kind == K_RATIO)
    snprintf(buf, n, "%.4f", v);
  else
    snprintf(buf, n, "%.0f", v);
}

void vt_timing_report(const vt_timing *t, FILE *f) {
  char fin[512];
  vt_timing_fin_line(t, fin, sizeof fin);
  fprintf(f, "timing: %u launch(es), %llu cycles\n", t->nlaunch,
          (unsigned long long)vt_timing_cycles(t));
  for (unsigned L = 0; L < t->nlaunch; L++)
    fprintf(f, "  launch %u%s%s%s: %.0f cycles, IPC %.3f\n", L, t->lnames[L] ? " (" : "",
            t->lnames[L] ? t->lnames[L] : "", t->lnames[L] ? ")" : "",
            vt_timing_counter_value(t, (int)L, -1, VT_TC_cycles),
            vt_timing_counter_value(t, (int)L, -1, VT_TC_ipc));
  fprintf(f, "%s\n", fin);
  fprintf(f, "%-18s %-18s %14s", "counter", "unit", "total");
  for (unsigned s = 0; s < t->max_sms; s++) {
    char h[16];
    snprintf(h, sizeof h, "sm%u", s);
    fprintf(f, " %14s", h);
  }
  fputc('\n', f);
  for (unsigned c = 0; c < VT_TC_COUNT; c++) {
    char v[64];
    fmt_value(v, sizeof v, t, -1, -1, (vt_timing_counter)c);
    fprintf(f, "%-18s %-18s %14s", counters[c].name, counters[c].unit, v);
    for (unsigned s = 0; s < t->max_sms; s++) {
      fmt_value(v, sizeof v, t, -1, (int)s, (vt_timing_counter)c);
      fprintf(f, " %14s", v);
    }
    fputc('\n', f);
  }
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

static void json_counters(FILE *f, const vt_timing *t, int launch, int sm, const char *indent) {
  fputs("{", f);
  for (unsigned c = 0; c < VT_TC_COUNT; c++) {
    char v[64];
    fmt_value(v, sizeof v, t, launch, sm, (vt_timing_counter)c);
    fprintf(f, "%s\n%s  \"%s\": %s", c ? "," : "", indent, counters[c].name, v);
  }
  fprintf(f, "\n%s}", indent);
}

int vt_timing_write_json(const vt_timing *t, FILE *f) {
  char fin[512];
  vt_timing_fin_line(t, fin, sizeof fin);
  fprintf(f, "{\n  \"cycles\": %llu,\n  \"fin\": ", (unsigned long long)vt_timing_cycles(t));
  json_string(f, fin);
  fputs(",\n  \"config\": ", f);
  tm_config_json(f, &t->cfg, "  ");
  fputs(",\n  \"total\": ", f);
  json_counters(f, t, -1, -1, "  ");
  fputs(",\n  \"sms\": [", f);
  for (unsigned s = 0; s < t->max_sms; s++) {
    fprintf(f, "%s\n    ", s ? "," : "");
    json_counters(f, t, -1, (int)s, "    ");
  }
  fputs("\n  ],\n  \"launches\": [", f);
  for (unsigned L = 0; L < t->nlaunch; L++) {
    fprintf(f, "%s\n    {\n      \"name\": ", L ? "," : "");
    json_string(f, t->lnames[L] ? t->lnames[L] : "");
    fprintf(f, ",\n      \"cycles\": %.0f,\n      \"total\": ",
            vt_timing_counter_value(t, (int)L, -1, VT_TC_cycles));
    json_counters(f, t, (int)L, -1, "      ");
    fputs(",\n      \"sms\": [", f);
    for (unsigned s = 0; s < t->lsms[L]; s++) {
      fprintf(f, "%s\n        ", s ? "," : "");
      json_counters(f, t, (int)L, (int)s, "        ");
    }
    fputs("\n      ]\n    }", f);
  }
  fputs("\n  ]\n}\n", f);
  return ferror(f) ? -1 : 0;
}

static void csv_row(FILE *f, const vt_timing *t, const char *scope, int launch, int sm) {
  fprintf(f, "%s,", scope);
  if (launch >= 0) {
    fprintf(f, "%d,", launch);
    const char *n = t->lnames[launch] ? t->lnames[launch] : "";
    fputc('"', f);
    for (; *n; n++) {
      if (*n == '"') fputc('"', f);
      fputc(*n, f);
    }
    fputc('"', f);
  } else {
    fputs(",", f);
  }
  if (sm >= 0)
    fprintf(f, ",%d", sm);
  else
    fputs(",all", f);
  for (unsigned c = 0; c < VT_TC_COUNT; c++) {
    char v[64];
    fmt_value(v, sizeof v, t, launch, sm, (vt_timing_counter)c);
    fprintf(f, ",%s", v);
  }
  fputc('\n', f);
}

int vt_timing_write_csv(const vt_timing *t, FILE *f) {
  fputs("scope,launch,name,sm", f);
  for (unsigned c = 0; c < VT_TC_COUNT; c++) fprintf(f, ",%s", counters[c].name);
  fputc('\n', f);
  csv_row(f, t, "total", -1, -1);
  for (unsigned s = 0; s < t->max_sms; s++) csv_row(f, t, "total", -1, (int)s);
  for (unsigned L = 0; L < t->nlaunch; L++) {
    csv_row(f, t, "launch", (int)L, -1);
    for (unsigned s = 0; s < t->lsms[L]; s++) csv_row(f, t, "launch", (int)L, (int)s);
  }
  return ferror(f) ? -1 : 0;
}

void vt_timing_counters_markdown(FILE *f) {
  fputs("# Timing-model counters\n\n"
        "Generated from `include/vt/timing_counters.def` by `vt run --counters-doc`; do not\n"
        "edit by hand (test_timing_report checks that this file is in sync).\n\n"
        "Every counter exists per launch and SM; totals aggregate as the third column says.\n"
        "`vt run --timing` prints them (text), `--stats-json` and `--stats-csv` write them;\n"
        "docs/timing.md describes the model.\n\n"
        "| counter | unit | aggregation | description |\n"
        "|---|---|---|---|\n",
        f);
  for (unsigned c = 0; c < VT_TC_COUNT; c++)
    fprintf(f, "| `%s` | %s | %s | %s |\n", counters[c].name, counters[c].unit,
            kind_names[counters[c].kind], counters[c].desc);
}
