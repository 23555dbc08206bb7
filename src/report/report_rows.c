/* A sweep's rows for vt report: DIR/plan.json and DIR/results.jsonl read
 * back (docs/sweep.md "Results"), axis values, baseline, labels with units
 * from the settings and counters tables, and the table of every point. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_rows.h"
#include "util/file.h"
#include "vt/counters.h"
#include "vt/settings.h"

#define RESULTS_MAX_BYTES (1ull << 30)

static int number_cmp(const void *a, const void *b) {
  double x = atof(*(char *const *)a), y = atof(*(char *const *)b);
  return x < y ? -1 : x > y;
}

bool rp_all_numbers(const sweep_strv *v) {
  for (size_t i = 0; i < v->n; i++) {
    char *end;
    strtod(v->v[i], &end);
    if (!v->v[i][0] || *end) return false;
  }
  return true;
}

static int push_unique(sweep_strv *v, const char *s) {
  for (size_t i = 0; i < v->n; i++)
    if (!strcmp(v->v[i], s)) return 0;
  return sweep_strv_push(v, s);
}

static int parse_lines(rp_rows *r, char *text, size_t len, char *err, size_t errn) {
  size_t lines = 1;
  for (size_t i = 0; i < len; i++) lines += text[i] == '\n';
  r->rows = calloc(lines, sizeof *r->rows);
  if (!r->rows) return snprintf(err, errn, "out of memory"), -1;
  unsigned lineno = 0;
  for (char *s = text; s && *s; lineno++) {
    char *nl = strchr(s, '\n'), jerr[300];
    if (nl) *nl = 0;
    if (*s && json_parse(s, strlen(s), &r->rows[r->n], jerr, sizeof jerr)) {
      snprintf(err, errn, "results.jsonl line %u: %s", lineno + 1, jerr);
      return -1;
    }
    if (*s && r->rows[r->n].type != JSON_OBJECT) {
      json_free(&r->rows[r->n]);
      snprintf(err, errn, "results.jsonl line %u: not an object", lineno + 1);
      return -1;
    }
    if (*s) r->n++;
    s = nl ? nl + 1 : NULL;
  }
  return 0;
}

static void apply_baseline(rp_rows *r, const char *baseline) {
  sweep_strv words = {0};
  if (baseline) sweep_split_words(baseline, &words);
  for (size_t i = 0; i < words.n; i++) {
    char *eq = strchr(words.v[i], '=');
    if (!eq) continue;
    *eq = 0;
    for (size_t k = 0; k < r->plan.axes.n; k++)
      if (!strcmp(r->plan.axes.v[k], words.v[i])) {
        free(r->plan.baseline.v[k]);
        r->plan.baseline.v[k] = strdup(eq + 1);
      }
  }
  sweep_strv_free(&words);
  r->baseline_label[0] = 0;
  for (size_t k = 0; k < r->plan.axes.n; k++) {
    size_t n = strlen(r->baseline_label);
    snprintf(r->baseline_label + n, sizeof r->baseline_label - n, "%s%s=%s", k ? " " : "",
             r->plan.axes.v[k], r->plan.baseline.v[k] ? r->plan.baseline.v[k] : "");
  }
  if (!r->plan.axes.n) snprintf(r->baseline_label, sizeof r->baseline_label, "(no axes)");
}

int rp_rows_read(const char *dir, const char *baseline, rp_rows *r, char *err, size_t errn) {
  memset(r, 0, sizeof *r);
  if (sweep_plan_read(dir, &r->plan, err, errn)) return -1;
  char path[4300];
  uint8_t *text;
  size_t len;
  snprintf(path, sizeof path, "%s/results.jsonl", dir);
  if (vt_read_file(path, (vt_file_limit){RESULTS_MAX_BYTES, "a results file", NULL}, &text, &len, err, errn)) {
    rp_rows_free(r);
    return -1;
  }
  int rc = parse_lines(r, (char *)text, len, err, errn);
  free(text);
  r->values = calloc(r->plan.axes.n + 1, sizeof *r->values);
  if (rc == 0 && !r->values) rc = -1, snprintf(err, errn, "out of memory");
  for (size_t i = 0; rc == 0 && i < r->n; i++) {
    r->ok += rp_row_ok(r, i);
    push_unique(&r->workloads, rp_row_str(r, i, "workload"));
    for (size_t k = 0; k < r->plan.axes.n; k++) push_unique(&r->values[k], rp_row_str(r, i, r->plan.axes.v[k]));
  }
  for (size_t k = 0; rc == 0 && k < r->plan.axes.n; k++)
    if (r->values[k].n && rp_all_numbers(&r->values[k])) qsort(r->values[k].v, r->values[k].n, sizeof(char *), number_cmp);
  if (rc == 0 && !r->n) rc = -1, snprintf(err, errn, "%s: no recorded point yet", path);
  if (rc) rp_rows_free(r);
  else apply_baseline(r, baseline);
  return rc;
}

void rp_rows_free(rp_rows *r) {
  for (size_t i = 0; i < r->n; i++) json_free(&r->rows[i]);
  free(r->rows);
  for (size_t k = 0; r->values && k < r->plan.axes.n; k++) sweep_strv_free(&r->values[k]);
  free(r->values);
  sweep_strv_free(&r->workloads);
  sweep_plan_free(&r->plan);
  memset(r, 0, sizeof *r);
}

const char *rp_row_str(const rp_rows *r, size_t i, const char *key) {
  const json_value *v = i < r->n ? json_get(&r->rows[i], key) : NULL;
  return v && (v->type == JSON_STRING || v->type == JSON_NUMBER) ? v->text : "";
}

double rp_row_num(const rp_rows *r, size_t i, const char *key) {
  const json_value *v = i < r->n ? json_get(&r->rows[i], key) : NULL;
  return v && v->type == JSON_NUMBER ? v->number : NAN;
}

bool rp_row_ok(const rp_rows *r, size_t i) { return !strcmp(rp_row_str(r, i, "status"), "ok"); }

size_t rp_baseline_row(const rp_rows *r, const char *w) {
  for (size_t i = 0; i < r->n; i++) {
    if (!rp_row_ok(r, i) || strcmp(rp_row_str(r, i, "workload"), w) || rp_row_num(r, i, "rep") != 0) continue;
    bool match = true;
    for (size_t k = 0; match && k < r->plan.axes.n; k++)
      match = !strcmp(rp_row_str(r, i, r->plan.axes.v[k]), r->plan.baseline.v[k]);
    if (match) return i;
  }
  return (size_t)-1;
}

void rp_axis_label(const char *key, char *buf, size_t n) {
  int id = vt_setting_find(key);
  const char *unit = id >= 0 ? vt_setting_info_of(id)->unit : "";
  snprintf(buf, n, "%s%s%s%s", key, *unit ? " [" : "", unit, *unit ? "]" : "");
}

void rp_metric_label(const char *m, char *buf, size_t n) {
  int c = vt_counter_find(m);
  const char *unit = c >= 0 ? vt_counter_info_of(c)->unit
                     : !strcmp(m, "host_time_s") ? "s"
                     : !strcmp(m, "peak_rss_kb") ? "KiB"
                     : !strcmp(m, "speedup") ? "x the baseline's cycles" : "";
  snprintf(buf, n, "%s [%s]", m, unit);
}

void rp_config_label(const rp_rows *r, size_t i, char *buf, size_t n) {
  buf[0] = 0;
  for (size_t k = 0; k < r->plan.axes.n; k++) {
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%s%s=%s", k ? " " : "", r->plan.axes.v[k], rp_row_str(r, i, r->plan.axes.v[k]));
  }
  if (!buf[0]) snprintf(buf, n, "default");
}

static void cell(FILE *f, const char *cls, const char *text) {
  fprintf(f, "<td%s%s%s>", cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
  rp_html_text(f, text);
  fputs("</td>", f);
}

static void number_cell(FILE *f, double v, const char *fmt) {
  char buf[64] = "";
  if (isfinite(v)) snprintf(buf, sizeof buf, fmt, v);
  cell(f, NULL, buf);
}

void rp_points_table(FILE *f, const rp_rows *r) {
  fprintf(f, "<p>%u of %zu points ok; failed points are highlighted. Speed-up: the baseline point's "
          "cycles (%s, same workload) over the point's.</p>\n<table class=\"points\">\n<tr>"
          "<th>point</th><th class=\"l\">workload</th>", r->ok, r->n, r->baseline_label);
  for (size_t k = 0; k < r->plan.axes.n; k++) {
    fputs("<th>", f);
    rp_html_text(f, r->plan.axes.v[k]);
    fputs("</th>", f);
  }
  fputs("<th>rep</th><th class=\"l\">status</th><th>cycles</th><th>IPC</th><th>speed-up</th>"
        "<th>host s</th><th>peak RSS KiB</th><th class=\"l\">message</th></tr>\n", f);
  for (size_t i = 0; i < r->n; i++) {
    const char *w = rp_row_str(r, i, "workload");
    bool ok = rp_row_ok(r, i), base = ok && rp_baseline_row(r, w) == i;
    double cyc = rp_row_num(r, i, "cycles"), b = rp_row_num(r, rp_baseline_row(r, w), "cycles");
    fprintf(f, "<tr%s>", ok ? base ? " class=\"base\"" : "" : " class=\"fail\"");
    cell(f, NULL, rp_row_str(r, i, "point"));
    cell(f, "l", w);
    for (size_t k = 0; k < r->plan.axes.n; k++) cell(f, NULL, rp_row_str(r, i, r->plan.axes.v[k]));
    cell(f, NULL, rp_row_str(r, i, "rep"));
    cell(f, ok ? "l" : "l bad", rp_row_str(r, i, "status"));
    number_cell(f, cyc, "%.0f");
    number_cell(f, rp_row_num(r, i, "ipc"), "%.4f");
    number_cell(f, cyc > 0 ? b / cyc : NAN, "%.3f");
    number_cell(f, rp_row_num(r, i, "host_time_s"), "%.3f");
    number_cell(f, rp_row_num(r, i, "peak_rss_kb"), "%.0f");
    cell(f, "l", rp_row_str(r, i, "message"));
    fputs("</tr>\n", f);
  }
  fputs("</table>\n", f);
}
