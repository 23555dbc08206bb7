/* A point's result row: its counters read from the run's statistics JSON
 * (docs/counters.md) and the row written as one JSON line (result.json). */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "sweep_row.h"
#include "util/file.h"

const char *sweep_status_name(sweep_status s) {
  static const char *const names[] = {"missing", "ok", "verify_failed", "error", "timeout", "interrupted"};
  return (unsigned)s < 6 ? names[s] : "missing";
}

void sweep_row_init(sweep_row *r, const sweep_point *pt) {
  memset(r, 0, sizeof *r);
  r->pt = pt;
}

void sweep_row_free(sweep_row *r) {
  for (int c = 0; c < VT_C_COUNT; c++) free(r->counters[c]);
  memset(r->counters, 0, sizeof r->counters);
}

void sweep_row_read_stats(sweep_row *r, const char *dir) {
  char path[4300];
  uint8_t *text;
  size_t len;
  snprintf(path, sizeof path, "%s/stats.json", dir);
  if (vt_read_file(path, (vt_file_limit){256u << 20, "a statistics file", NULL}, &text, &len, NULL, 0))
    return;
  json_value root;
  char err[300];
  int rc = json_parse((const char *)text, len, &root, err, sizeof err);
  free(text);
  if (rc) return;
  const json_value *total = json_get(&root, "total");
  for (size_t i = 0; total && total->type == JSON_OBJECT && i < total->n; i++) {
    int c = vt_counter_find(total->keys[i]);
    if (c >= 0 && total->items[i].type == JSON_NUMBER && !r->counters[c])
      r->counters[c] = strdup(total->items[i].text);
  }
  json_free(&root);
}

/* a JSON number when the text is a plain whole number, else a string */
static void write_value(FILE *f, const char *v) {
  size_t n = strlen(v);
  bool number = n > 0 && n < 16 && strspn(v, "0123456789") == n && (v[0] != '0' || n == 1);
  if (number) fputs(v, f);
  else json_write_string(f, v, false);
}

void sweep_row_json(FILE *f, const sweep_row *r) {
  const sweep_point *pt = r->pt;
  fprintf(f, "{\"point\":%u,\"workload\":", pt->index);
  json_write_string(f, pt->workload, false);
  fprintf(f, ",\"rep\":%u", pt->rep);
  for (size_t i = 0; i < pt->param_keys.n; i++) {
    fputc(',', f);
    json_write_string(f, pt->param_keys.v[i], false);
    fputc(':', f);
    write_value(f, pt->param_values.v[i]);
  }
  fprintf(f, ",\"status\":\"%s\",\"message\":", sweep_status_name(r->status));
  json_write_string(f, r->message, false);
  fprintf(f, ",\"exit_status\":%d,\"host_time_s\":%.6f,\"peak_rss_kb\":%ld", r->exit_status,
          r->host_time, r->peak_rss_kb);
  for (int c = 0; c < VT_C_COUNT; c++)
    fprintf(f, ",\"%s\":%s", vt_counter_info_of(c)->name, r->counters[c] ? r->counters[c] : "null");
  fprintf(f, ",\"key\":\"%s\"}", pt->key);
}

int sweep_row_write(const sweep_row *r, const char *dir, char *err, size_t errn) {
  char *buf = NULL, path[4300];
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return snprintf(err, errn, "out of memory"), -1;
  sweep_row_json(f, r);
  fputc('\n', f);
  int rc = fclose(f);
  snprintf(path, sizeof path, "%s/result.json", dir);
  if (rc == 0) rc = sweep_write_atomic(path, buf, len, err, errn);
  else snprintf(err, errn, "out of memory");
  free(buf);
  return rc;
}
