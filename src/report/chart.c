/* The chart model of vt report and its HTML: a <figure> with a canvas that
 * the page's script draws with Chart.js from the JSON spec beside it, and
 * the same data as CSV (one row per plotted point, bar or span) in the page
 * and as a download link. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sweep/json.h"

rp_chart *rp_chart_new(rp_kind kind, const char *id, const char *title, const char *xlabel,
                       const char *ylabel) {
  rp_chart *c = calloc(1, sizeof *c);
  if (!c) return NULL;
  c->kind = kind;
  snprintf(c->id, sizeof c->id, "%s", id);
  for (char *p = c->id; *p; p++) /* an id and a file name: plain characters */
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-'))
      *p = '_';
  c->title = strdup(title);
  c->xlabel = strdup(xlabel);
  c->ylabel = strdup(ylabel);
  if (!c->title || !c->xlabel || !c->ylabel) {
    rp_chart_free(c);
    return NULL;
  }
  return c;
}

void rp_chart_free(rp_chart *c) {
  if (!c) return;
  for (size_t i = 0; i < c->ns; i++) {
    for (size_t k = 0; k < c->s[i].n; k++) free(c->s[i].p[k].cat);
    free(c->s[i].p);
    free(c->s[i].label);
  }
  free(c->s);
  sweep_strv_free(&c->cats);
  free(c->title);
  free(c->xlabel);
  free(c->ylabel);
  free(c->note);
  free(c);
}

int rp_series_of(rp_chart *c, const char *label) {
  for (size_t i = 0; i < c->ns; i++)
    if (!strcmp(c->s[i].label, label)) return (int)i;
  rp_series *s = realloc(c->s, (c->ns + 1) * sizeof *s);
  if (!s) return -1;
  c->s = s;
  memset(&s[c->ns], 0, sizeof *s);
  if (!(s[c->ns].label = strdup(label))) return -1;
  return (int)c->ns++;
}

int rp_add_cat(rp_chart *c, const char *cat) {
  for (size_t i = 0; i < c->cats.n; i++)
    if (!strcmp(c->cats.v[i], cat)) return 0;
  return sweep_strv_push(&c->cats, cat);
}

int rp_add(rp_chart *c, int series, const char *cat, double x, double y, double x2) {
  if (series < 0 || (size_t)series >= c->ns) return -1;
  bool gantt = c->kind == RP_GANTT;
  if ((!cat && !isfinite(x)) || (!gantt && !isfinite(y)) || (gantt && (!isfinite(x) || !isfinite(x2))))
    return 0; /* nothing to draw */
  rp_series *s = &c->s[series];
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    rp_point *p = realloc(s->p, cap * sizeof *p);
    if (!p) return -1;
    s->p = p;
    s->cap = cap;
  }
  rp_point *p = &s->p[s->n];
  *p = (rp_point){cat ? strdup(cat) : NULL, x, y, x2};
  if ((cat && !p->cat) || (cat && rp_add_cat(c, cat))) return -1;
  s->n++;
  return 0;
}

size_t rp_points(const rp_chart *c) {
  size_t n = 0;
  for (size_t i = 0; i < c->ns; i++) n += c->s[i].n;
  return n;
}

static void csv_cell(FILE *f, const char *s) {
  if (!s[strcspn(s, ",\"\n\r")]) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

static void csv_point(FILE *f, const rp_chart *c, const rp_series *s, const rp_point *p) {
  csv_cell(f, c->kind == RP_GANTT ? p->cat : s->label);
  fputc(',', f);
  if (p->cat && c->kind != RP_GANTT) csv_cell(f, p->cat);
  else fprintf(f, "%.10g", p->x);
  fprintf(f, ",%.10g", c->kind == RP_GANTT ? p->x2 : p->y);
  if (c->kind == RP_GANTT) fputc(',', f), csv_cell(f, s->label);
  fputc('\n', f);
}

/* the CSV text (malloc'd): a header, then one row per point */
static char *csv_text(const rp_chart *c) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return NULL;
  if (c->kind == RP_GANTT) {
    csv_cell(f, c->ylabel);
    fputs(",start,end,series\n", f);
  } else {
    fputs("series,", f);
    csv_cell(f, c->xlabel);
    fputc(',', f);
    csv_cell(f, c->ylabel);
    fputc('\n', f);
  }
  for (size_t i = 0; i < c->ns; i++)
    for (size_t k = 0; k < c->s[i].n; k++) csv_point(f, c, &c->s[i], &c->s[i].p[k]);
  fclose(f);
  return buf;
}

static void json_number(FILE *f, double v) { fprintf(f, "%.10g", v); }

static void spec_json(FILE *f, const rp_chart *c) {
  static const char *const kinds[] = {"line", "bar", "stacked", "gantt"};
  fprintf(f, "{\"kind\":\"%s\",\"xcat\":%s,\"xlabel\":", kinds[c->kind], c->xcat ? "true" : "false");
  json_write_string(f, c->xlabel, true);
  fputs(",\"ylabel\":", f);
  json_write_string(f, c->ylabel, true);
  fputs(",\"cats\":[", f);
  for (size_t i = 0; i < c->cats.n; i++) {
    if (i) fputc(',', f);
    json_write_string(f, c->cats.v[i], true);
  }
  fputs("],\"series\":[", f);
  for (size_t i = 0; i < c->ns; i++) {
    const rp_series *s = &c->s[i];
    fputs(i ? ",\n{\"label\":" : "\n{\"label\":", f);
    json_write_string(f, s->label, true);
    fputs(",\"data\":[", f);
    for (size_t k = 0; k < s->n; k++) {
      const rp_point *p = &s->p[k];
      fputs(k ? ",[" : "[", f);
      if (p->cat) json_write_string(f, p->cat, true);
      else json_number(f, p->x);
      fputc(',', f);
      json_number(f, c->kind == RP_GANTT ? p->x : p->y);
      if (c->kind == RP_GANTT) fputc(',', f), json_number(f, p->x2);
      fputc(']', f);
    }
    fputs("]}", f);
  }
  fputs("]}", f);
}

/* percent-encoding for a data: URI */
static void uri_text(FILE *f, const char *s) {
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    bool plain = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 strchr("-_.~,:", ch);
    if (plain) fputc(ch, f);
    else fprintf(f, "%%%02X", ch);
  }
}

void rp_chart_html(FILE *f, const rp_chart *c) {
  char *csv = csv_text(c);
  size_t rows = rp_points(c);
  unsigned height = 320;
  if (c->kind == RP_GANTT && c->cats.n * 16 + 120 > height) height = (unsigned)(c->cats.n * 16 + 120);
  fprintf(f, "<figure class=\"chart\" id=\"%s\">\n<figcaption>", c->id);
  rp_html_text(f, c->title);
  fputs("</figcaption>\n", f);
  if (c->note) {
    fputs("<p class=\"note\">", f);
    rp_html_text(f, c->note);
    fputs("</p>\n", f);
  }
  fprintf(f, "<div class=\"plot\" style=\"height:%upx\"><canvas role=\"img\" aria-label=\"", height);
  rp_html_text(f, c->title);
  fprintf(f, "\"></canvas></div>\n<details><summary>Data: %zu row%s as CSV</summary>\n"
          "<p><a download=\"%s.csv\" href=\"data:text/csv;charset=utf-8,", rows, rows == 1 ? "" : "s", c->id);
  if (csv) uri_text(f, csv);
  fprintf(f, "\">download %s.csv</a></p>\n<pre class=\"csv\">", c->id);
  if (csv) rp_html_text(f, csv);
  fputs("</pre></details>\n<script type=\"application/json\" class=\"chart-spec\">", f);
  spec_json(f, c);
  fputs("</script>\n</figure>\n", f);
  free(csv);
}
