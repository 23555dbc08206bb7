/* vt report: one self-contained HTML file from a sweep's results folder, a
 * run's statistics JSON or a timeline (docs/report.md). */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report/report.h"
#include "tools.h"
#include "util/file.h"

#define INPUT_MAX (4ull << 30)

static void usage(FILE *f) {
  fprintf(f,
          "usage: vt report [options] RESULTS_DIR | STATS.json | TIMELINE.json\n"
          "Writes one HTML file that opens offline in a browser: for a vt sweep folder,\n"
          "metrics against every axis per workload and a table of every point; for a\n"
          "statistics file (--stats-json), utilisation, stalls, caches and instruction mix\n"
          "per SM; for a timeline (--timeline), activity over time (docs/report.md).\n\n"
          "options:\n"
          "  -o FILE              the HTML file (default: RESULTS_DIR/report.html, or the\n"
          "                       input's name with .html instead of .json)\n"
          "  --metric NAME        a metric of the sweep charts (repeatable): a counter,\n"
          "                       host_time_s, peak_rss_kb or speedup (default: cycles, ipc,\n"
          "                       l1d_hit_rate, l2_hit_rate, speedup; functional sweeps:\n"
          "                       warp_instructions, thread_instructions, host_time_s)\n"
          "  --baseline \"K=V ...\" the speed-up baseline (default: the sweep file's)\n"
          "  --chartjs FILE       Chart.js to put into the page (default: $VT_CHARTJS, then\n"
          "                       Debian's libjs-chart.js)\n");
}

typedef struct report_cli {
  const char *input, *output;
  rp_opts o;
} report_cli;

static int parse(report_cli *c, int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout), 1;
    bool valued = !strcmp(a, "-o") || !strcmp(a, "--metric") || !strcmp(a, "--baseline") ||
                  !strcmp(a, "--chartjs");
    if (valued && !v) return fprintf(stderr, "vt report: %s needs a value\n", a), -1;
    if (valued) i++;
    if (!strcmp(a, "-o")) c->output = v;
    else if (!strcmp(a, "--metric")) sweep_strv_push(&c->o.metrics, v);
    else if (!strcmp(a, "--baseline")) c->o.baseline = v;
    else if (!strcmp(a, "--chartjs")) c->o.chartjs = v;
    else if (a[0] == '-' && a[1]) return fprintf(stderr, "vt report: unknown option %s (vt help report)\n", a), -1;
    else if (c->input) return fprintf(stderr, "vt report: more than one input ('%s', '%s')\n", c->input, a), -1;
    else c->input = a;
  }
  return c->input ? 0 : (usage(stderr), -1);
}

/* DIR/report.html, or X.json -> X.html (X.html beside anything else) */
static char *default_output(const char *in, bool dir) {
  size_t n = strlen(in);
  char *out = malloc(n + 16);
  if (!out) return NULL;
  if (dir) snprintf(out, n + 16, "%s/report.html", in);
  else if (n > 5 && !strcmp(in + n - 5, ".json")) snprintf(out, n + 16, "%.*s.html", (int)(n - 5), in);
  else snprintf(out, n + 16, "%s.html", in);
  return out;
}

/* the page into a memory buffer */
static int make(const report_cli *c, bool dir, const char *js, char **page, size_t *len, char *err,
                size_t errn) {
  FILE *f = open_memstream(page, len);
  if (!f) return snprintf(err, errn, "out of memory"), -1;
  int rc;
  if (dir) {
    rc = rp_sweep_report(c->input, &c->o, js, f, err, errn);
  } else {
    uint8_t *text;
    size_t n;
    rc = vt_read_file(c->input, (vt_file_limit){INPUT_MAX, "a statistics or timeline file", NULL}, &text,
                      &n, err, errn);
    if (rc == 0) {
      char head[4097]; /* a timeline names its traceEvents first */
      snprintf(head, sizeof head, "%s", (char *)text);
      bool timeline = strstr(head, "\"traceEvents\"") != NULL;
      rc = timeline ? rp_timeline_report(c->input, (char *)text, n, js, f, err, errn)
                    : rp_stats_report(c->input, (char *)text, n, js, f, err, errn);
      free(text);
    }
  }
  if (fclose(f) != 0 && rc == 0) rc = -1, snprintf(err, errn, "out of memory");
  return rc;
}

int vt_cmd_report(int argc, char **argv) {
  report_cli c = {0};
  int rc = parse(&c, argc, argv);
  if (rc) {
    sweep_strv_free(&c.o.metrics);
    return rc > 0 ? 0 : 2;
  }
  struct stat sb;
  bool dir = stat(c.input, &sb) == 0 && S_ISDIR(sb.st_mode);
  char *out = c.output ? strdup(c.output) : default_output(c.input, dir), *js = NULL, *page = NULL;
  char err[1500] = "";
  size_t len = 0;
  rc = !out ? (snprintf(err, sizeof err, "out of memory"), -1) : rp_load_chartjs(&c.o, &js, err, sizeof err);
  if (rc == 0) rc = make(&c, dir, js, &page, &len, err, sizeof err);
  if (rc == 0) rc = sweep_write_atomic(out, page, len, err, sizeof err);
  if (rc == 0) printf("vt report: open %s in a browser\n", out);
  else fprintf(stderr, "vt report: %s\n", err);
  free(page);
  free(js);
  free(out);
  sweep_strv_free(&c.o.metrics);
  return rc ? 1 : 0;
}
