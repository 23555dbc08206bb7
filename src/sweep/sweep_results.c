/* Recorded results: the state of each point (its result.json, when its key
 * matches the plan's) and the tables results.jsonl and results.csv made
 * from them in plan order (docs/sweep.md, "Results"). */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "sweep_row.h"
#include "util/file.h"

#define RESULT_MAX_BYTES (1u << 20)

/* the parsed result.json of point i when it belongs to the plan's point */
static int read_result(const sweep_plan *p, unsigned i, json_value *v, char **line) {
  char dir[4200], path[4300];
  uint8_t *text;
  size_t len;
  sweep_point_dir(p, i, dir, sizeof dir);
  snprintf(path, sizeof path, "%s/result.json", dir);
  if (vt_read_file(path, (vt_file_limit){RESULT_MAX_BYTES, "a result", NULL}, &text, &len, NULL, 0))
    return -1;
  char err[300];
  int rc = json_parse((const char *)text, len, v, err, sizeof err);
  const char *key = rc ? NULL : json_str(json_get(v, "key"));
  if (rc == 0 && (!key || strcmp(key, p->points[i].key))) {
    json_free(v);
    rc = -1;
  }
  while (len && (text[len - 1] == '\n' || text[len - 1] == '\r')) text[--len] = 0;
  if (rc == 0 && line) *line = (char *)text;
  else free(text);
  return rc;
}

static sweep_status status_of(const json_value *v) {
  const char *s = json_str(json_get(v, "status"));
  for (int st = SWEEP_OK; s && st <= SWEEP_TIMEOUT; st++)
    if (!strcmp(s, sweep_status_name((sweep_status)st))) return (sweep_status)st;
  return SWEEP_MISSING;
}

sweep_status sweep_point_state(const sweep_plan *p, unsigned index) {
  json_value v;
  if (read_result(p, index, &v, NULL)) return SWEEP_MISSING;
  sweep_status s = status_of(&v);
  json_free(&v);
  return s;
}

bool sweep_point_needed(const sweep_plan *p, unsigned index, bool retry_failed) {
  sweep_status s = sweep_point_state(p, index);
  return s == SWEEP_MISSING || (retry_failed && s != SWEEP_OK);
}

static void csv_text(FILE *f, const char *s) {
  if (!s[strcspn(s, ",\"\r\n")] && s[0] != ' ' && (!*s || s[strlen(s) - 1] != ' ')) {
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

static void csv_value(FILE *f, const json_value *v) {
  if (!v || v->type == JSON_NULL) return;
  if (v->type == JSON_STRING || v->type == JSON_NUMBER) csv_text(f, v->text);
  else if (v->type == JSON_BOOL) fputs(v->boolean ? "true" : "false", f);
}

static void csv_header(FILE *f, const sweep_plan *p) {
  fputs("point,workload,rep", f);
  for (size_t a = 0; a < p->axes.n; a++) fprintf(f, ",%s", p->axes.v[a]);
  fputs(",status,message,exit_status,host_time_s,peak_rss_kb", f);
  for (int c = 0; c < VT_C_COUNT; c++) fprintf(f, ",%s", vt_counter_info_of(c)->name);
  fputc('\n', f);
}

static void csv_row(FILE *f, const sweep_plan *p, const json_value *v) {
  static const char *const fixed[] = {"status", "message", "exit_status", "host_time_s", "peak_rss_kb"};
  csv_value(f, json_get(v, "point"));
  fputc(',', f);
  csv_value(f, json_get(v, "workload"));
  fputc(',', f);
  csv_value(f, json_get(v, "rep"));
  for (size_t a = 0; a < p->axes.n; a++) {
    fputc(',', f);
    csv_value(f, json_get(v, p->axes.v[a]));
  }
  for (int i = 0; i < 5; i++) {
    fputc(',', f);
    csv_value(f, json_get(v, fixed[i]));
  }
  for (int c = 0; c < VT_C_COUNT; c++) {
    fputc(',', f);
    csv_value(f, json_get(v, vt_counter_info_of(c)->name));
  }
  fputc('\n', f);
}

/* close the memory stream (which sets *buf, *len) and write it to DIR/name */
static int finish(FILE *f, char **buf, size_t *len, const sweep_plan *p, const char *name,
                  char *err, size_t errn) {
  int rc = fclose(f);
  char path[4300];
  snprintf(path, sizeof path, "%s/%s", p->dir, name);
  if (rc == 0) rc = sweep_write_atomic(path, *buf, *len, err, errn);
  else snprintf(err, errn, "out of memory");
  free(*buf);
  return rc;
}

int sweep_collect(const sweep_plan *p, sweep_tally *t, char *err, size_t errn) {
  char *jbuf = NULL, *cbuf = NULL;
  size_t jlen = 0, clen = 0;
  FILE *jf = open_memstream(&jbuf, &jlen), *cf = open_memstream(&cbuf, &clen);
  if (!jf || !cf) {
    if (jf) fclose(jf), free(jbuf);
    if (cf) fclose(cf), free(cbuf);
    return snprintf(err, errn, "out of memory"), -1;
  }
  memset(t, 0, sizeof *t);
  t->total = (unsigned)p->npoints;
  csv_header(cf, p);
  for (unsigned i = 0; i < p->npoints; i++) {
    json_value v;
    char *line;
    if (read_result(p, i, &v, &line)) {
      t->missing++;
      continue;
    }
    if (status_of(&v) == SWEEP_OK) t->ok++;
    else t->failed++;
    fprintf(jf, "%s\n", line);
    csv_row(cf, p, &v);
    free(line);
    json_free(&v);
  }
  int rc = finish(jf, &jbuf, &jlen, p, "results.jsonl", err, errn);
  int rc2 = finish(cf, &cbuf, &clen, p, "results.csv", rc ? NULL : err, rc ? 0 : errn);
  return rc || rc2 ? -1 : 0;
}
