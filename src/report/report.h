/* vt report (docs/report.md): one self-contained HTML file from a sweep's
 * results folder, a run's statistics JSON or a timing timeline. Charts are
 * drawn in the browser by Chart.js (Debian's libjs-chart.js), whose file is
 * copied into the page with the charts' data, so the page needs nothing
 * else. Every chart has its data as CSV beside it, one row per plotted
 * point (or bar, or span).
 *
 *   chart.c            the chart model and its HTML/JSON/CSV
 *   page.c             the page: Chart.js, style, the script that draws
 *   report_sweep.c     metrics against axes per workload, the table of points
 *   report_stats.c     per-SM utilisation, stalls, caches, instruction mix
 *   report_timeline.c  occupancy over time, warp-slot states, workgroups
 */
#ifndef VT_REPORT_H
#define VT_REPORT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "sweep/sweep.h"

/* ---------------- charts ---------------- */

typedef enum rp_kind {
  RP_LINE,    /* numbers x (or categories x, xcat) against y, one line per series */
  RP_BAR,     /* categories x, one bar per series */
  RP_STACKED, /* categories x, series stacked */
  RP_GANTT    /* rows (categories) with spans [x, x2] */
} rp_kind;

typedef struct rp_point {
  char *cat; /* category (bars, category lines) or row (gantt) */
  double x, y, x2;
} rp_point;

typedef struct rp_series {
  char *label;
  rp_point *p;
  size_t n, cap;
} rp_series;

typedef struct rp_chart {
  char id[96];
  char *title, *xlabel, *ylabel, *note;
  rp_kind kind;
  bool xcat;       /* RP_LINE with category x values */
  sweep_strv cats; /* category order */
  rp_series *s;
  size_t ns;
} rp_chart;

rp_chart *rp_chart_new(rp_kind kind, const char *id, const char *title, const char *xlabel,
                       const char *ylabel);
void rp_chart_free(rp_chart *c);
/* the series called 'label' (created at first use); -1 when out of memory */
int rp_series_of(rp_chart *c, const char *label);
/* a point: x for number lines; cat for categories (also added to cats);
 * gantt: cat = row, x..x2. Non-finite values are left out. 0 or -1. */
int rp_add(rp_chart *c, int series, const char *cat, double x, double y, double x2);
int rp_add_cat(rp_chart *c, const char *cat);
size_t rp_points(const rp_chart *c);
/* <figure>: title, canvas, CSV (details + download link), JSON spec */
void rp_chart_html(FILE *f, const rp_chart *c);

/* ---------------- the page ---------------- */

typedef struct rp_opts {
  const char *chartjs;   /* Chart.js file (NULL: $VT_CHARTJS, then Debian's) */
  sweep_strv metrics;    /* vt report --metric, for sweeps */
  const char *baseline;  /* KEY=VALUE words, overrides the sweep's */
} rp_opts;

typedef struct rp_page {
  FILE *f;
  unsigned nsections;
} rp_page;

/* Chart.js's text from the file named by the options; 0 or -1 with err */
int rp_load_chartjs(const rp_opts *o, char **text, char *err, size_t errn);
void rp_page_begin(rp_page *pg, FILE *f, const char *title, const char *subtitle, const char *chartjs);
void rp_page_end(rp_page *pg);
void rp_html_text(FILE *f, const char *s); /* HTML-escaped */
void rp_section(rp_page *pg, const char *title, const char *anchor);
/* <div class="grid"> around a section's charts */
void rp_grid(rp_page *pg, bool open);

/* ---------------- the three reports ---------------- */

/* Each writes the whole page to f. 0 or -1 with err. */
int rp_sweep_report(const char *dir, const rp_opts *o, const char *chartjs, FILE *f, char *err,
                    size_t errn);
int rp_stats_report(const char *path, const char *text, size_t len, const char *chartjs, FILE *f,
                    char *err, size_t errn);
int rp_timeline_report(const char *path, const char *text, size_t len, const char *chartjs, FILE *f,
                       char *err, size_t errn);
#endif
