/* The report of one run's statistics JSON (`--stats-json`, docs/counters.md):
 * per-SM utilisation (busy fraction, resident warps, active lanes), warp
 * states, cache hit rates, memory traffic, instruction mix per unit, the
 * launches, and every counter in a table. Timing charts appear when the
 * run was timed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sweep/json.h"
#include "vt/counters.h"

static double num(const json_value *o, const char *k) {
  const json_value *v = json_get(o, k);
  return v && v->type == JSON_NUMBER ? v->number : NAN;
}

static double ratio(double a, double b) { return b > 0 ? a / b : NAN; }

typedef struct stats_doc {
  const json_value *total, *sms, *launches;
  bool timed;
} stats_doc;

static void sm_name(size_t k, char *buf, size_t n) { snprintf(buf, n, "SM %zu", k); }

/* one bar per SM of f(sm) */
static rp_chart *per_sm(const stats_doc *d, const char *id, const char *title, const char *y,
                        const char *series, double (*f)(const json_value *)) {
  rp_chart *c = rp_chart_new(RP_BAR, id, title, "SM", y);
  int s = c ? rp_series_of(c, series) : -1;
  for (size_t k = 0; c && k < d->sms->n; k++) {
    char cat[32];
    sm_name(k, cat, sizeof cat);
    rp_add(c, s, cat, 0, f(&d->sms->items[k]), 0);
  }
  return c;
}

static double busy(const json_value *o) { return ratio(num(o, "sm_busy_cycles"), num(o, "cycles")); }
static double warps(const json_value *o) { return ratio(num(o, "warp_cycles"), num(o, "cycles")); }
static double lanes(const json_value *o) {
  return ratio(num(o, "thread_instructions"), num(o, "warp_instructions"));
}

/* several counters per SM: stacked, or side by side; 'den' divides */
static rp_chart *per_sm_counters(const stats_doc *d, rp_kind kind, const char *id, const char *title,
                                 const char *y, int first, int last, const char *den, size_t strip) {
  rp_chart *c = rp_chart_new(kind, id, title, "SM", y);
  for (size_t k = 0; c && k < d->sms->n; k++) {
    char cat[32];
    sm_name(k, cat, sizeof cat);
    rp_add_cat(c, cat);
    for (int i = first; i <= last; i++) {
      const char *name = vt_counter_info_of(i)->name;
      double v = num(&d->sms->items[k], name);
      if (den) v = ratio(v, num(&d->sms->items[k], den));
      if (v > 0 || (kind == RP_BAR && v == 0)) rp_add(c, rp_series_of(c, name + strip), cat, 0, v, 0);
    }
  }
  return c;
}

static rp_chart *memory(const stats_doc *d) {
  static const char *const names[] = {"l1d_accesses", "l1d_misses", "l2_accesses", "l2_misses",
                                      "dram_reads", "dram_writes", "smem_accesses"};
  rp_chart *c = rp_chart_new(RP_BAR, "memory", "Memory traffic per SM", "SM", "count [requests or lines]");
  for (size_t k = 0; c && k < d->sms->n; k++) {
    char cat[32];
    sm_name(k, cat, sizeof cat);
    for (int i = 0; i < 7; i++) rp_add(c, rp_series_of(c, names[i]), cat, 0, num(&d->sms->items[k], names[i]), 0);
  }
  return c;
}

static rp_chart *hit_rates(const stats_doc *d) {
  static const char *const names[] = {"l1i_hit_rate", "l1d_hit_rate", "l2_hit_rate"};
  static const char *const acc[] = {"l1i_accesses", "l1d_accesses", "l2_accesses"};
  rp_chart *c = rp_chart_new(RP_BAR, "hit-rates", "Cache hit rates per SM", "SM", "hit rate [ratio]");
  for (size_t k = 0; c && k < d->sms->n; k++) {
    char cat[32];
    sm_name(k, cat, sizeof cat);
    rp_add_cat(c, cat);
    for (int i = 0; i < 3; i++) /* a cache without accesses has no rate */
      if (num(&d->sms->items[k], acc[i]) > 0)
        rp_add(c, rp_series_of(c, names[i]), cat, 0, num(&d->sms->items[k], names[i]), 0);
  }
  return c;
}

static rp_chart *launches(const stats_doc *d) {
  const char *m = d->timed ? "cycles" : "warp_instructions";
  char y[64];
  snprintf(y, sizeof y, "%s [%s]", m, d->timed ? "cycles" : "warp-insns");
  rp_chart *c = rp_chart_new(RP_BAR, "launches", "Launches", "launch", y);
  int s = c ? rp_series_of(c, m) : -1;
  for (size_t l = 0; c && d->launches && l < d->launches->n; l++) {
    const json_value *L = &d->launches->items[l];
    char cat[300];
    snprintf(cat, sizeof cat, "%zu: %s", l, json_str(json_get(L, "name")) ? json_str(json_get(L, "name")) : "");
    rp_add(c, s, cat, 0, num(json_get(L, "total"), m), 0);
  }
  return c;
}

static void emit(FILE *f, rp_chart *c) {
  if (c && rp_points(c)) rp_chart_html(f, c);
  rp_chart_free(c);
}

static void counter_table(FILE *f, const stats_doc *d) {
  fputs("<table>\n<tr><th class=\"l\">counter</th><th class=\"l\">unit</th><th>total</th>"
        "<th class=\"l\">description</th></tr>\n", f);
  for (int c = 0; c < VT_C_COUNT; c++) {
    const vt_counter_info *in = vt_counter_info_of(c);
    const json_value *v = json_get(d->total, in->name);
    if (!v || v->type != JSON_NUMBER) continue;
    fprintf(f, "<tr><td class=\"l\">%s</td><td class=\"l\">%s</td><td>%s</td><td class=\"l\">", in->name,
            in->unit, v->text);
    rp_html_text(f, in->desc);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void charts(rp_page *pg, const stats_doc *d) {
  FILE *f = pg->f;
  rp_section(pg, "Utilisation per SM", "sms");
  rp_grid(pg, true);
  if (d->timed) {
    emit(f, per_sm(d, "sm-busy", "Busy fraction per SM (sm_busy_cycles / cycles)", "busy [ratio]", "busy", busy));
    emit(f, per_sm(d, "sm-warps", "Resident warps per SM (warp_cycles / cycles)", "warps [warps]",
                   "average resident warps", warps));
  }
  emit(f, per_sm(d, "sm-lanes", "Active lanes per warp-instruction (thread / warp instructions)",
                 "lanes [lanes]", "lanes", lanes));
  emit(f, per_sm_counters(d, RP_STACKED, "sm-insns", "Warp-instructions per SM: scalar and vector",
                          "warp-instructions [warp-insns]", VT_C_scalar_instructions,
                          VT_C_vector_instructions, NULL, 0));
  rp_grid(pg, false);
  if (d->timed) {
    rp_section(pg, "Stalls, caches, memory, instruction mix", "timing");
    rp_grid(pg, true);
    emit(f, per_sm_counters(d, RP_STACKED, "stalls", "Warp states per SM (fraction of resident warp-cycles)",
                            "fraction of warp-cycles [ratio]", VT_C_st_issue, VT_C_st_ended, "warp_cycles", 3));
    emit(f, hit_rates(d));
    emit(f, memory(d));
    emit(f, per_sm_counters(d, RP_STACKED, "units", "Instruction mix: instructions issued per unit",
                            "instructions [insns]", VT_C_u_alu, VT_C_u_tc, NULL, 2));
    rp_grid(pg, false);
  }
  if (d->launches && d->launches->n > 1) {
    rp_section(pg, "Launches", "launches");
    rp_grid(pg, true);
    emit(f, launches(d));
    rp_grid(pg, false);
  }
}

int rp_stats_report(const char *path, const char *text, size_t len, const char *chartjs, FILE *f,
                    char *err, size_t errn) {
  json_value root;
  char jerr[300];
  if (json_parse(text, len, &root, jerr, sizeof jerr)) {
    snprintf(err, errn, "%s: %s", path, jerr);
    return -1;
  }
  stats_doc d = {json_get(&root, "total"), json_get(&root, "sms"), json_get(&root, "launches"), false};
  if (!d.total || d.total->type != JSON_OBJECT || !d.sms || d.sms->type != JSON_ARRAY ||
      (d.launches && d.launches->type != JSON_ARRAY)) {
    json_free(&root);
    snprintf(err, errn, "%s: not a statistics file of vt (--stats-json, docs/counters.md)", path);
    return -1;
  }
  d.timed = json_get(d.total, "cycles") != NULL;
  rp_page pg;
  char sub[4400];
  const char *fin = json_str(json_get(&root, "fin"));
  snprintf(sub, sizeof sub, "%s: %g launch(es) on %zu SM(s), %s%s%s", path, num(d.total, "launches"),
           d.sms->n, d.timed ? "timing model" : "functional simulator (timing charts need --timing)",
           fin ? "; " : "", fin ? fin : "");
  rp_page_begin(&pg, f, "vt statistics", sub, chartjs);
  charts(&pg, &d);
  rp_section(&pg, "Every counter", "counters");
  counter_table(f, &d);
  rp_page_end(&pg);
  json_free(&root);
  return 0;
}
