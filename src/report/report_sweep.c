/* The report of a sweep (DIR/plan.json + DIR/results.jsonl): for each
 * workload, each metric against each axis with one line per value of a
 * second axis (the other axes at the baseline's values, repetitions
 * averaged), the stall breakdown of every configuration, then a table of
 * every point with failures highlighted and the speed-up over the baseline
 * point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_rows.h"
#include "vt/counters.h"
#include "vt/settings.h"

static const char *const TIMING_METRICS[] = {"cycles", "ipc", "l1d_hit_rate", "l2_hit_rate", "speedup"};
static const char *const FUNC_METRICS[] = {"warp_instructions", "thread_instructions", "host_time_s"};

/* the metric's value in a row (speedup: baseline cycles / cycles) */
static double metric(const rp_rows *r, size_t i, const char *m) {
  if (!strcmp(m, "speedup")) {
    double base = rp_row_num(r, rp_baseline_row(r, rp_row_str(r, i, "workload")), "cycles");
    double c = rp_row_num(r, i, "cycles");
    return c > 0 ? base / c : NAN;
  }
  return rp_row_num(r, i, m);
}

/* mean of the ok rows of workload w with axis a = va, axis b = vb (b < 0:
 * none), the other axes at the baseline */
static double mean_of(const rp_rows *r, const char *w, const char *m, int a, const char *va, int b,
                      const char *vb) {
  double sum = 0;
  unsigned n = 0;
  for (size_t i = 0; i < r->n; i++) {
    if (!rp_row_ok(r, i) || strcmp(rp_row_str(r, i, "workload"), w)) continue;
    bool match = true;
    for (size_t k = 0; match && k < r->plan.axes.n; k++) {
      const char *want = (int)k == a ? va : (int)k == b ? vb : r->plan.baseline.v[k];
      match = !strcmp(rp_row_str(r, i, r->plan.axes.v[k]), want);
    }
    double v = match ? metric(r, i, m) : NAN;
    if (isfinite(v)) sum += v, n++;
  }
  return n ? sum / n : NAN;
}

/* metric m of workload wi against axis a, one line per value of axis b */
static rp_chart *axis_chart(const rp_rows *r, size_t wi, const char *m, int a, int b) {
  const char *w = r->workloads.v[wi], *ak = r->plan.axes.v[a];
  char id[96], title[600], xl[200], yl[200];
  snprintf(id, sizeof id, "w%zu-%s-%s", wi, m, ak);
  snprintf(title, sizeof title, "%s: %s against %s%s%s", w, m, ak, b >= 0 ? ", one line per " : "",
           b >= 0 ? r->plan.axes.v[b] : "");
  rp_axis_label(ak, xl, sizeof xl);
  rp_metric_label(m, yl, sizeof yl);
  rp_chart *c = rp_chart_new(RP_LINE, id, title, xl, yl);
  if (!c) return NULL;
  const sweep_strv *xs = &r->values[a];
  c->xcat = !rp_all_numbers(xs);
  size_t nser = b >= 0 ? r->values[b].n : 1;
  for (size_t s = 0; s < nser; s++) {
    char label[300];
    snprintf(label, sizeof label, "%s = %s", b >= 0 ? r->plan.axes.v[b] : m,
             b >= 0 ? r->values[b].v[s] : "");
    int si = rp_series_of(c, b >= 0 ? label : m);
    for (size_t x = 0; x < xs->n; x++) {
      double y = mean_of(r, w, m, a, xs->v[x], b, b >= 0 ? r->values[b].v[s] : NULL);
      if (c->xcat) rp_add(c, si, xs->v[x], 0, y, 0);
      else rp_add(c, si, NULL, atof(xs->v[x]), y, 0);
    }
  }
  if (r->plan.axes.n > (b >= 0 ? 2u : 1u)) {
    char note[800] = "Other axes at the baseline:";
    for (size_t k = 0; k < r->plan.axes.n; k++)
      if ((int)k != a && (int)k != b) {
        size_t n = strlen(note);
        snprintf(note + n, sizeof note - n, " %s=%s", r->plan.axes.v[k], r->plan.baseline.v[k]);
      }
    c->note = strdup(note);
  }
  return c;
}

/* where the resident warp-cycles went, for every configuration (rep 0) */
static rp_chart *stall_chart(const rp_rows *r, size_t wi) {
  char id[64], title[400];
  snprintf(id, sizeof id, "w%zu-stalls", wi);
  snprintf(title, sizeof title, "%s: warp states (fraction of resident warp-cycles)", r->workloads.v[wi]);
  rp_chart *c = rp_chart_new(RP_STACKED, id, title, "configuration", "fraction of warp-cycles [ratio]");
  for (size_t i = 0; c && i < r->n; i++) {
    if (!rp_row_ok(r, i) || strcmp(rp_row_str(r, i, "workload"), r->workloads.v[wi]) ||
        rp_row_num(r, i, "rep") != 0)
      continue;
    char cat[600];
    rp_config_label(r, i, cat, sizeof cat);
    double wc = rp_row_num(r, i, "warp_cycles");
    for (int k = VT_C_st_issue; k <= VT_C_st_ended; k++) {
      const char *name = vt_counter_info_of(k)->name;
      double v = rp_row_num(r, i, name);
      if (wc > 0 && v > 0) rp_add(c, rp_series_of(c, name + 3), cat, 0, v / wc, 0);
      else rp_add_cat(c, cat);
    }
  }
  return c;
}

static int emit(rp_page *pg, rp_chart *c) {
  if (!c) return -1;
  if (rp_points(c)) rp_chart_html(pg->f, c);
  rp_chart_free(c);
  return 0;
}

static int workload_section(rp_page *pg, const rp_rows *r, size_t wi, const sweep_strv *metrics) {
  char title[400], anchor[32];
  snprintf(title, sizeof title, "Workload %s", r->workloads.v[wi]);
  snprintf(anchor, sizeof anchor, "w%zu", wi);
  rp_section(pg, title, anchor);
  unsigned ok = 0;
  for (size_t i = 0; i < r->n; i++) ok += rp_row_ok(r, i) && !strcmp(rp_row_str(r, i, "workload"), r->workloads.v[wi]);
  if (!ok) {
    fputs("<p class=\"bad\">No point of this workload succeeded: see the table of every point.</p>\n", pg->f);
    return 0;
  }
  rp_grid(pg, true);
  int rc = 0;
  for (size_t m = 0; m < metrics->n; m++)
    for (size_t a = 0; a < r->plan.axes.n; a++) {
      if (r->values[a].n < 2) continue;
      int b = -1; /* the first other axis with several values */
      for (size_t k = 0; k < r->plan.axes.n && b < 0; k++)
        if (k != a && r->values[k].n > 1) b = (int)k;
      rc |= emit(pg, axis_chart(r, wi, metrics->v[m], (int)a, b));
    }
  if (r->plan.timing) rc |= emit(pg, stall_chart(r, wi));
  rp_grid(pg, false);
  return rc;
}

static int check_metrics(const rp_rows *r, const rp_opts *o, sweep_strv *m, char *err, size_t errn) {
  for (size_t i = 0; i < o->metrics.n; i++) {
    const char *name = o->metrics.v[i];
    if (vt_counter_find(name) < 0 && strcmp(name, "host_time_s") && strcmp(name, "peak_rss_kb") &&
        strcmp(name, "speedup"))
      return snprintf(err, errn, "unknown metric '%s' (a counter of `vt help counters`, host_time_s, "
                      "peak_rss_kb or speedup)", name), -1;
    sweep_strv_push(m, name);
  }
  if (!o->metrics.n)
    for (size_t i = 0; i < (r->plan.timing ? 5u : 3u); i++)
      sweep_strv_push(m, r->plan.timing ? TIMING_METRICS[i] : FUNC_METRICS[i]);
  return 0;
}

int rp_sweep_report(const char *dir, const rp_opts *o, const char *chartjs, FILE *f, char *err,
                    size_t errn) {
  rp_rows r;
  if (rp_rows_read(dir, o->baseline, &r, err, errn)) return -1;
  sweep_strv metrics = {0};
  int rc = check_metrics(&r, o, &metrics, err, errn);
  if (rc == 0) {
    rp_page pg;
    char title[600], sub[800];
    snprintf(title, sizeof title, "vt sweep: %s", r.plan.name);
    snprintf(sub, sizeof sub, "%s: %zu points (%u ok, %u failed) of %zu planned, %s mode; baseline %s",
             dir, r.n, r.ok, (unsigned)(r.n - r.ok), r.plan.npoints,
             r.plan.timing ? "timing" : "functional", r.baseline_label);
    rp_page_begin(&pg, f, title, sub, chartjs);
    for (size_t w = 0; w < r.workloads.n; w++) rc |= workload_section(&pg, &r, w, &metrics);
    rp_section(&pg, "Every point", "points");
    rp_points_table(f, &r);
    rp_page_end(&pg);
  }
  sweep_strv_free(&metrics);
  rp_rows_free(&r);
  if (rc && !err[0]) snprintf(err, errn, "out of memory");
  return rc;
}
