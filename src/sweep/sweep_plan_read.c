/* Reading DIR/plan.json back (array tasks, --status, --collect): the same
 * points as sweep_plan_build made, checked field by field. */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "sweep.h"
#include "util/file.h"

#define PLAN_MAX_BYTES (1ull << 30)

static int strv_from(const json_value *a, sweep_strv *out) {
  if (!a || a->type != JSON_ARRAY) return -1;
  for (size_t i = 0; i < a->n; i++)
    if (a->items[i].type != JSON_STRING || sweep_strv_push(out, a->items[i].text)) return -1;
  return 0;
}

static int number_from(const json_value *v, unsigned *out) {
  if (!v || v->type != JSON_NUMBER || v->number < 0 || v->number > 4e9) return -1;
  *out = (unsigned)v->number;
  return 0;
}

static int expect_from(const json_value *a, sweep_point *pt) {
  if (!a || a->type != JSON_ARRAY) return -1;
  pt->expect = calloc(a->n ? a->n : 1, sizeof *pt->expect);
  if (!pt->expect) return -1;
  for (size_t i = 0; i < a->n; i++) {
    const json_value *pair = &a->items[i];
    if (pair->type != JSON_ARRAY || pair->n != 2 || !json_str(&pair->items[0]) ||
        !json_str(&pair->items[1]))
      return -1;
    pt->expect[i].produced = strdup(pair->items[0].text);
    pt->expect[i].expected = strdup(pair->items[1].text);
    pt->nexpect++;
    if (!pt->expect[i].produced || !pt->expect[i].expected) return -1;
  }
  return 0;
}

static int point_from(const json_value *o, sweep_point *pt) {
  const json_value *params = json_get(o, "params");
  const char *key = json_str(json_get(o, "key")), *wl = json_str(json_get(o, "workload"));
  if (!key || strlen(key) != 16 || !wl || !params || params->type != JSON_OBJECT) return -1;
  memcpy(pt->key, key, 17);
  if (!(pt->workload = strdup(wl)) || number_from(json_get(o, "index"), &pt->index) ||
      number_from(json_get(o, "rep"), &pt->rep) || number_from(json_get(o, "timeout"), &pt->timeout))
    return -1;
  for (size_t i = 0; i < params->n; i++)
    if (!json_str(&params->items[i]) || sweep_strv_push(&pt->param_keys, params->keys[i]) ||
        sweep_strv_push(&pt->param_values, params->items[i].text))
      return -1;
  if (strv_from(json_get(o, "argv"), &pt->argv) || !pt->argv.n ||
      strv_from(json_get(o, "check"), &pt->check) || expect_from(json_get(o, "expect"), pt))
    return -1;
  return 0;
}

static int plan_from(const json_value *root, sweep_plan *p) {
  const json_value *points = json_get(root, "points"), *timing = json_get(root, "timing");
  const char *name = json_str(json_get(root, "name")), *vt = json_str(json_get(root, "vt"));
  if (!name || !vt || !points || points->type != JSON_ARRAY || !timing || timing->type != JSON_BOOL ||
      points->n > SWEEP_MAX_POINTS)
    return -1;
  p->timing = timing->boolean;
  if (!(p->name = strdup(name)) || !(p->vt = strdup(vt)) || strv_from(json_get(root, "axes"), &p->axes) ||
      strv_from(json_get(root, "baseline"), &p->baseline) || p->baseline.n != p->axes.n)
    return -1;
  p->points = calloc(points->n ? points->n : 1, sizeof *p->points);
  if (!p->points) return -1;
  for (size_t i = 0; i < points->n; i++) {
    p->npoints++;
    if (point_from(&points->items[i], &p->points[i]) || p->points[i].index != i ||
        p->points[i].param_keys.n != p->axes.n)
      return -1;
  }
  return 0;
}

int sweep_plan_read(const char *dir, sweep_plan *p, char *err, size_t errn) {
  memset(p, 0, sizeof *p);
  char path[4200];
  snprintf(path, sizeof path, "%s/plan.json", dir);
  uint8_t *text;
  size_t len;
  if (vt_read_file(path, (vt_file_limit){PLAN_MAX_BYTES, "a sweep plan", NULL}, &text, &len, err,
                   errn) != 0)
    return -1;
  json_value root;
  char jerr[300];
  int rc = json_parse((const char *)text, len, &root, jerr, sizeof jerr);
  free(text);
  if (rc != 0) {
    snprintf(err, errn, "%s: %s", path, jerr);
    return -1;
  }
  rc = plan_from(&root, p);
  json_free(&root);
  if (rc == 0 && !(p->dir = strdup(dir))) rc = -1;
  if (rc != 0) {
    sweep_plan_free(p);
    snprintf(err, errn, "%s: not a sweep plan written by vt sweep", path);
  }
  return rc;
}
