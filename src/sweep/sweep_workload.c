/* [workload NAME] sections of a sweep file: a `vt launch` kernel (launch,
 * kernel, global, local, offset, arg) or `vt run` test vectors (run, elf,
 * dump), and how the output is verified (expect, check). Input files must
 * exist; relative paths are relative to the working directory. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep_parse.h"
#include "util/parse.h"

static sweep_workload *current(sweep_parser *ps) {
  return &ps->sf->workloads[ps->sf->nworkloads - 1];
}

int sweep_workload_begin(sweep_parser *ps, const char *name) {
  sweep_file *sf = ps->sf;
  if (!*name) return sweep_fail(ps, ps->line, "a workload needs a name: [workload NAME]");
  for (size_t i = 0; i < sf->nworkloads; i++)
    if (!strcmp(sf->workloads[i].name, name))
      return sweep_fail(ps, ps->line, "workload '%s' appears twice (line %u)", name,
                        sf->workloads[i].line);
  sweep_workload *w = realloc(sf->workloads, (sf->nworkloads + 1) * sizeof *w);
  if (!w) return sweep_fail(ps, ps->line, "out of memory");
  sf->workloads = w;
  w = &w[sf->nworkloads++];
  memset(w, 0, sizeof *w);
  w->kind = (sweep_kind)-1;
  w->line = ps->line;
  ps->launch_key_line = ps->run_key_line = 0;
  return (w->name = strdup(name)) ? 0 : sweep_fail(ps, ps->line, "out of memory");
}

/* an input file: absolute path into *out, and it must be a readable file */
static int input_file(sweep_parser *ps, const char *path, char **out) {
  struct stat sb;
  if (!*path) return sweep_fail(ps, ps->line, "empty file name");
  if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
    return sweep_fail(ps, ps->line, "%s: no such file", path);
  *out = sweep_abspath(path);
  return *out ? 0 : sweep_fail(ps, ps->line, "out of memory");
}

static int push_input(sweep_parser *ps, sweep_strv *v, const char *prefix, const char *path) {
  char *abs;
  if (input_file(ps, path, &abs)) return -1;
  size_t n = strlen(prefix) + strlen(abs) + 1;
  char *s = malloc(n);
  int rc = s ? (snprintf(s, n, "%s%s", prefix, abs), sweep_strv_push(v, s)) : -1;
  free(s);
  free(abs);
  return rc ? sweep_fail(ps, ps->line, "out of memory") : 0;
}

static int set_kind(sweep_parser *ps, sweep_workload *w, sweep_kind k) {
  if (w->kind == k && k == SWEEP_RUN) return 0;
  if (w->kind != (sweep_kind)-1)
    return sweep_fail(ps, ps->line, "a workload has one 'launch = ELF' or 'run = ...' lines, "
                      "not both and not two launches");
  w->kind = k;
  return 0;
}

/* "X[,Y[,Z]]" of whole numbers >= 1 */
static int dims(sweep_parser *ps, char **field, const char *key, const char *v) {
  ps->launch_key_line = ps->launch_key_line ? ps->launch_key_line : ps->line;
  if (*field) return sweep_fail(ps, ps->line, "%s is given twice", key);
  unsigned n = 0;
  bool ok = true;
  for (const char *p = v;; n++) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char num[32];
    uint64_t x;
    if (len == 0 || len >= sizeof num) ok = false;
    else {
      memcpy(num, p, len);
      num[len] = 0;
      ok = ok && !vt_parse_u64(sweep_trim(num), &x) && x >= 1 && x <= 0xffffffffu;
    }
    if (!e || !ok) break;
    p = e + 1;
  }
  if (!ok || n > 2)
    return sweep_fail(ps, ps->line, "%s = '%s': expected 1 to 3 numbers X[,Y[,Z]], each at least 1",
                      key, v);
  return (*field = strdup(v)) ? 0 : sweep_fail(ps, ps->line, "out of memory");
}

static int arg_spec(sweep_parser *ps, sweep_workload *w, const char *v) {
  static const char *const kinds[] = {"in", "io", "out", "local", "i32", "u32", "f32", "i64", "u64", "f64"};
  ps->launch_key_line = ps->launch_key_line ? ps->launch_key_line : ps->line;
  const char *colon = strchr(v, ':');
  for (int i = 0; colon && i < 10; i++)
    if (strlen(kinds[i]) == (size_t)(colon - v) && !strncmp(v, kinds[i], (size_t)(colon - v))) {
      if (i < 2) {
        char prefix[4] = {v[0], v[1], ':', 0};
        return push_input(ps, &w->args, prefix, colon + 1);
      }
      return sweep_strv_push(&w->args, v) ? sweep_fail(ps, ps->line, "out of memory") : 0;
    }
  return sweep_fail(ps, ps->line, "arg = '%s': expected in:FILE, io:FILE, out:SIZE, local:SIZE or "
                    "TYPE:VALUE with TYPE i32, u32, f32, i64, u64, f64 (docs/launch.md)", v);
}

static int dump_spec(sweep_parser *ps, sweep_workload *w, const char *v) {
  char buf[64];
  uint64_t a, l;
  ps->run_key_line = ps->run_key_line ? ps->run_key_line : ps->line;
  snprintf(buf, sizeof buf, "%s", v);
  char *c = strchr(buf, ':');
  if (c) *c = 0;
  if (!c || strlen(v) >= sizeof buf || vt_parse_u64(buf, &a) || vt_parse_u64(c + 1, &l) ||
      a > 0xffffffffu || l == 0 || l > 0x100000000ull - a)
    return sweep_fail(ps, ps->line, "dump = '%s': expected ADDR:LEN inside the 32-bit address "
                      "space, LEN at least 1", v);
  return sweep_strv_push(&w->dumps, v) ? sweep_fail(ps, ps->line, "out of memory") : 0;
}

/* expect = argK:FILE | dumpN:FILE (K, N checked at the end of the workload) */
static int expect_spec(sweep_parser *ps, sweep_workload *w, const char *v) {
  const char *colon = strchr(v, ':');
  uint64_t k;
  char idx[32], produced[64];
  bool arg = !strncmp(v, "arg", 3), dump = !strncmp(v, "dump", 4);
  size_t skip = arg ? 3 : 4;
  if (!colon || (!arg && !dump) || (size_t)(colon - v) - skip >= sizeof idx)
    return sweep_fail(ps, ps->line, "expect = '%s': expected argK:FILE (launch) or dumpN:FILE (run)", v);
  memcpy(idx, v + skip, (size_t)(colon - v) - skip);
  idx[colon - v - (long)skip] = 0;
  if (vt_parse_u64(idx, &k) || k > 63)
    return sweep_fail(ps, ps->line, "expect = '%s': bad index '%s'", v, idx);
  snprintf(produced, sizeof produced, arg ? "save/arg%u.bin" : "dump%u.bin", (unsigned)k);
  sweep_expect *e = realloc(w->expect, (w->nexpect + 1) * sizeof *e);
  if (!e) return sweep_fail(ps, ps->line, "out of memory");
  w->expect = e;
  e = &e[w->nexpect];
  e->produced = strdup(produced);
  if (!e->produced) return sweep_fail(ps, ps->line, "out of memory");
  if (input_file(ps, colon + 1, &e->expected)) {
    free(e->produced);
    return -1;
  }
  w->nexpect++;
  unsigned *kind_line = arg ? &ps->launch_key_line : &ps->run_key_line;
  if (!*kind_line) *kind_line = ps->line;
  return 0;
}

static int check_cmd(sweep_parser *ps, sweep_workload *w, const char *v) {
  if (w->check.n) return sweep_fail(ps, ps->line, "check is given twice");
  if (sweep_split_words(v, &w->check) || !w->check.n)
    return sweep_fail(ps, ps->line, "check = PROGRAM [ARGUMENTS...]");
  if (strchr(w->check.v[0], '/')) {
    char *abs;
    if (input_file(ps, w->check.v[0], &abs)) return -1;
    free(w->check.v[0]);
    w->check.v[0] = abs;
  }
  return 0;
}

int sweep_workload_key(sweep_parser *ps, const char *key, const char *value) {
  sweep_workload *w = current(ps);
  if (!strcmp(key, "launch")) {
    if (set_kind(ps, w, SWEEP_LAUNCH)) return -1;
    return input_file(ps, value, &w->program);
  }
  if (!strcmp(key, "run")) {
    if (set_kind(ps, w, SWEEP_RUN)) return -1;
    size_t n = strlen(value);
    if (n > 9 && !strcmp(value + n - 9, ".metadata")) { /* vt run reads NAME.data beside it */
      char data[4200];
      struct stat sb;
      snprintf(data, sizeof data, "%.*s.data", (int)(n - 9), value);
      if (stat(data, &sb) != 0) return sweep_fail(ps, ps->line, "%s: no such file (beside %s)", data, value);
    }
    return push_input(ps, &w->runs, "", value);
  }
  if (!strcmp(key, "kernel")) {
    ps->launch_key_line = ps->launch_key_line ? ps->launch_key_line : ps->line;
    if (w->kernel) return sweep_fail(ps, ps->line, "kernel is given twice");
    return (w->kernel = strdup(value)) ? 0 : sweep_fail(ps, ps->line, "out of memory");
  }
  if (!strcmp(key, "global")) return dims(ps, &w->global, key, value);
  if (!strcmp(key, "local")) return dims(ps, &w->local, key, value);
  if (!strcmp(key, "offset")) return dims(ps, &w->offset, key, value);
  if (!strcmp(key, "arg")) return arg_spec(ps, w, value);
  if (!strcmp(key, "elf")) {
    ps->run_key_line = ps->run_key_line ? ps->run_key_line : ps->line;
    return push_input(ps, &w->elfs, "", value);
  }
  if (!strcmp(key, "dump")) return dump_spec(ps, w, value);
  if (!strcmp(key, "expect")) return expect_spec(ps, w, value);
  if (!strcmp(key, "check")) return check_cmd(ps, w, value);
  return sweep_fail(ps, ps->line, "unknown key '%s' in a workload (launch, kernel, global, local, "
                    "offset, arg, run, elf, dump, expect, check)", key);
}

/* the workload is complete: one kind, its keys only, valid expect indices */
int sweep_workload_end(sweep_parser *ps) {
  sweep_workload *w = current(ps);
  if (w->kind == (sweep_kind)-1)
    return sweep_fail(ps, w->line, "workload '%s' has neither 'launch = ELF' nor 'run = FILE.metadata'",
                      w->name);
  bool launch = w->kind == SWEEP_LAUNCH;
  unsigned wrong = launch ? ps->run_key_line : ps->launch_key_line;
  if (wrong)
    return sweep_fail(ps, wrong, "this key belongs to %s workloads; '%s' is a %s workload",
                      launch ? "run" : "launch", w->name, launch ? "launch" : "run");
  if (launch && !w->global)
    return sweep_fail(ps, w->line, "workload '%s' needs 'global = X[,Y[,Z]]'", w->name);
  for (size_t i = 0; i < w->nexpect; i++) {
    unsigned k = (unsigned)atoi(w->expect[i].produced + (launch ? 8 : 4));
    bool buffer = launch && k < w->args.n &&
                  (!strncmp(w->args.v[k], "in:", 3) || !strncmp(w->args.v[k], "io:", 3) ||
                   !strncmp(w->args.v[k], "out:", 4));
    if (launch ? !buffer : k >= w->dumps.n)
      return sweep_fail(ps, w->line, "workload '%s': expect names %s %u, which is not %s",
                        w->name, launch ? "argument" : "dump", k,
                        launch ? "a buffer argument (in:, io:, out:)" : "one of its dumps");
  }
  return 0;
}

void sweep_workload_free(sweep_workload *w) {
  free(w->name);
  free(w->program);
  free(w->kernel);
  free(w->global);
  free(w->local);
  free(w->offset);
  sweep_strv_free(&w->args);
  sweep_strv_free(&w->runs);
  sweep_strv_free(&w->elfs);
  sweep_strv_free(&w->dumps);
  for (size_t i = 0; i < w->nexpect; i++) {
    free(w->expect[i].produced);
    free(w->expect[i].expected);
  }
  free(w->expect);
  sweep_strv_free(&w->check);
}
