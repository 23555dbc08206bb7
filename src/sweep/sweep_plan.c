/* The plan of a sweep: every point (workload x configuration x repetition)
 * with the exact argument vector of its `vt launch` / `vt run` child, its
 * verification and a key (hash of all that) that tells whether a recorded
 * result belongs to it. Written to DIR/plan.json, which array tasks read. */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "sweep.h"


void sweep_point_dir(const sweep_plan *p, unsigned index, char *buf, size_t n) {
  snprintf(buf, n, "%s/points/%04u", p->dir, index);
}

static int push2(sweep_strv *v, const char *a, const char *b) {
  return sweep_strv_push(v, a) || sweep_strv_push(v, b) ? -1 : 0;
}

static int workload_argv(const sweep_workload *w, sweep_strv *v) {
  int rc = 0;
  if (w->kind == SWEEP_LAUNCH) {
    rc |= push2(v, "launch", w->program);
    if (w->kernel) rc |= push2(v, "--kernel", w->kernel);
    rc |= push2(v, "--global", w->global);
    if (w->local) rc |= push2(v, "--local", w->local);
    if (w->offset) rc |= push2(v, "--offset", w->offset);
    for (size_t i = 0; i < w->args.n; i++) rc |= push2(v, "--arg", w->args.v[i]);
    rc |= push2(v, "--save", "save");
  } else {
    rc |= sweep_strv_push(v, "run");
    for (size_t i = 0; i < w->runs.n; i++) rc |= sweep_strv_push(v, w->runs.v[i]);
    for (size_t i = 0; i < w->elfs.n; i++) rc |= push2(v, "--elf", w->elfs.v[i]);
    for (size_t i = 0; i < w->dumps.n; i++) {
      char d[96];
      snprintf(d, sizeof d, "%s:dump%zu.bin", w->dumps.v[i], i);
      rc |= push2(v, "--dump", d);
    }
  }
  return rc;
}

/* the settings of the sweep and the configuration, then the outputs */
static int common_argv(const sweep_file *sf, size_t config, sweep_strv *v) {
  int rc = sweep_strv_push(v, "-q");
  rc |= push2(v, "--stats-json", "stats.json");
  if (sf->timing) rc |= sweep_strv_push(v, "--timing");
  if (sf->timeline) rc |= push2(v, "--timeline", "timeline.json");
  if (sf->timeout) {
    char t[32];
    snprintf(t, sizeof t, "%u", sf->timeout);
    rc |= push2(v, "--timeout", t);
  }
  for (size_t i = 0; i < sf->set_keys.n + sf->naxes; i++) {
    bool fixed = i < sf->set_keys.n;
    const char *k = fixed ? sf->set_keys.v[i] : sf->axes[i - sf->set_keys.n].key;
    const char *val = fixed ? sf->set_values.v[i] : sf->configs[config * sf->naxes + i - sf->set_keys.n];
    size_t n = strlen(k) + strlen(val) + 2;
    char *kv = malloc(n);
    if (!kv) return -1;
    snprintf(kv, n, "%s=%s", k, val);
    rc |= push2(v, "--set", kv);
    free(kv);
  }
  return rc;
}

/* the key: everything that defines the run, NUL-separated, hashed */
static void point_key(sweep_point *pt) {
  size_t n = strlen(pt->workload) + 32;
  for (size_t i = 0; i < pt->argv.n; i++) n += strlen(pt->argv.v[i]) + 1;
  for (size_t i = 0; i < pt->nexpect; i++)
    n += strlen(pt->expect[i].produced) + strlen(pt->expect[i].expected) + 2;
  for (size_t i = 0; i < pt->check.n; i++) n += strlen(pt->check.v[i]) + 1;
  char *buf = malloc(n), *p = buf;
  if (!buf) {
    memset(pt->key, '0', 16);
    pt->key[16] = 0;
    return;
  }
  p += snprintf(p, n, "%s%c%u%c%u", pt->workload, 0, pt->rep, 0, pt->timeout) + 1;
  for (size_t i = 0; i < pt->argv.n; i++) p = stpcpy(p, pt->argv.v[i]) + 1;
  for (size_t i = 0; i < pt->nexpect; i++) {
    p = stpcpy(p, pt->expect[i].produced) + 1;
    p = stpcpy(p, pt->expect[i].expected) + 1;
  }
  for (size_t i = 0; i < pt->check.n; i++) p = stpcpy(p, pt->check.v[i]) + 1;
  sweep_hash_hex(buf, (size_t)(p - buf), pt->key);
  free(buf);
}

static int build_point(const sweep_file *sf, size_t w, size_t c, unsigned rep, sweep_point *pt) {
  const sweep_workload *wl = &sf->workloads[w];
  pt->workload = strdup(wl->name);
  pt->rep = rep;
  pt->timeout = sf->timeout;
  int rc = !pt->workload || workload_argv(wl, &pt->argv) || common_argv(sf, c, &pt->argv);
  for (size_t a = 0; !rc && a < sf->naxes; a++)
    rc = sweep_strv_push(&pt->param_keys, sf->axes[a].key) ||
         sweep_strv_push(&pt->param_values, sf->configs[c * sf->naxes + a]);
  for (size_t i = 0; !rc && i < wl->check.n; i++) rc = sweep_strv_push(&pt->check, wl->check.v[i]);
  if (!rc && wl->nexpect) {
    pt->expect = calloc(wl->nexpect, sizeof *pt->expect);
    rc = !pt->expect;
    for (size_t i = 0; !rc && i < wl->nexpect; i++, pt->nexpect++) {
      pt->expect[i].produced = strdup(wl->expect[i].produced);
      pt->expect[i].expected = strdup(wl->expect[i].expected);
      rc = !pt->expect[i].produced || !pt->expect[i].expected;
    }
  }
  if (!rc) point_key(pt);
  return rc ? -1 : 0;
}

int sweep_plan_build(const sweep_file *sf, const char *vt, const char *dir, sweep_plan *p,
                     char *err, size_t errn) {
  memset(p, 0, sizeof *p);
  size_t n = sf->nworkloads * sf->nconfigs * sf->repetitions;
  p->name = strdup(sf->name ? sf->name : "sweep");
  p->vt = strdup(vt);
  p->dir = strdup(dir);
  p->timing = sf->timing;
  p->points = calloc(n ? n : 1, sizeof *p->points);
  int rc = !p->name || !p->vt || !p->dir || !p->points;
  for (size_t a = 0; !rc && a < sf->naxes; a++)
    rc = sweep_strv_push(&p->axes, sf->axes[a].key) ||
         sweep_strv_push(&p->baseline, sf->configs[sf->baseline * sf->naxes + a]);
  /* workload, then configuration, then repetition */
  for (size_t w = 0; !rc && w < sf->nworkloads; w++)
    for (size_t c = 0; !rc && c < sf->nconfigs; c++)
      for (unsigned r = 0; !rc && r < sf->repetitions; r++) {
        sweep_point *pt = &p->points[p->npoints];
        pt->index = (unsigned)p->npoints++;
        rc = build_point(sf, w, c, r, pt);
      }
  if (rc) snprintf(err, errn, "out of memory");
  return rc ? -1 : 0;
}

void sweep_plan_free(sweep_plan *p) {
  for (size_t i = 0; i < p->npoints; i++) {
    sweep_point *pt = &p->points[i];
    free(pt->workload);
    sweep_strv_free(&pt->param_keys);
    sweep_strv_free(&pt->param_values);
    sweep_strv_free(&pt->argv);
    sweep_strv_free(&pt->check);
    for (size_t e = 0; e < pt->nexpect; e++) {
      free(pt->expect[e].produced);
      free(pt->expect[e].expected);
    }
    free(pt->expect);
  }
  free(p->points);
  sweep_strv_free(&p->axes);
  sweep_strv_free(&p->baseline);
  free(p->name);
  free(p->vt);
  free(p->dir);
  memset(p, 0, sizeof *p);
}

static void write_strv(FILE *f, const sweep_strv *v) {
  fputc('[', f);
  for (size_t i = 0; i < v->n; i++) {
    if (i) fputc(',', f);
    json_write_string(f, v->v[i], false);
  }
  fputc(']', f);
}

static void write_point(FILE *f, const sweep_point *pt) {
  fprintf(f, "{\"index\":%u,\"workload\":", pt->index);
  json_write_string(f, pt->workload, false);
  fprintf(f, ",\"rep\":%u,\"timeout\":%u,\"key\":\"%s\",\"params\":{", pt->rep, pt->timeout, pt->key);
  for (size_t i = 0; i < pt->param_keys.n; i++) {
    fprintf(f, "%s", i ? "," : "");
    json_write_string(f, pt->param_keys.v[i], false);
    fputc(':', f);
    json_write_string(f, pt->param_values.v[i], false);
  }
  fputs("},\n   \"argv\":", f);
  write_strv(f, &pt->argv);
  fputs(",\n   \"expect\":[", f);
  for (size_t i = 0; i < pt->nexpect; i++) {
    fprintf(f, "%s[", i ? "," : "");
    json_write_string(f, pt->expect[i].produced, false);
    fputc(',', f);
    json_write_string(f, pt->expect[i].expected, false);
    fputc(']', f);
  }
  fputs("],\"check\":", f);
  write_strv(f, &pt->check);
  fputc('}', f);
}

int sweep_plan_write(const sweep_plan *p, char *err, size_t errn) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return snprintf(err, errn, "out of memory"), -1;
  fputs("{\"name\":", f);
  json_write_string(f, p->name, false);
  fputs(",\"vt\":", f);
  json_write_string(f, p->vt, false);
  fprintf(f, ",\"timing\":%s,\"axes\":", p->timing ? "true" : "false");
  write_strv(f, &p->axes);
  fputs(",\"baseline\":", f);
  write_strv(f, &p->baseline);
  fputs(",\"points\":[\n", f);
  for (size_t i = 0; i < p->npoints; i++) {
    fputs(i ? ",\n  " : "  ", f);
    write_point(f, &p->points[i]);
  }
  fputs("\n]}\n", f);
  int rc = fclose(f);
  char path[4200];
  snprintf(path, sizeof path, "%s/plan.json", p->dir);
  if (rc == 0) rc = sweep_write_atomic(path, buf, len, err, errn);
  else snprintf(err, errn, "out of memory");
  free(buf);
  return rc;
}
