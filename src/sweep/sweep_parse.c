/* The sweep file (docs/sweep.md): '[section]' headers and 'key = value'
 * lines, '#' comments (at the start of a line or after a blank). Sections:
 * [sweep], [settings], [axes], [points], [workload NAME]. Workload keys are
 * read in sweep_workload.c, the whole is checked in sweep_check.c. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_parse.h"
#include "util/file.h"
#include "util/parse.h"

#define SWEEP_FILE_MAX (1u << 20)

int sweep_fail(sweep_parser *ps, unsigned line, const char *fmt, ...) {
  int n = snprintf(ps->err, ps->errn, "%s:%u: ", ps->sf->path, line);
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < ps->errn) vsnprintf(ps->err + n, ps->errn - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

char *sweep_trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) *--e = 0;
  return s;
}

static int set_string(sweep_parser *ps, char **field, const char *value, const char *key) {
  if (*field) return sweep_fail(ps, ps->line, "%s is given twice", key);
  *field = strdup(value);
  return *field ? 0 : sweep_fail(ps, ps->line, "out of memory");
}

static int parse_uint(sweep_parser *ps, const char *key, const char *value, unsigned max,
                      unsigned *out) {
  uint64_t v;
  if (vt_parse_u64(value, &v) || v > max)
    return sweep_fail(ps, ps->line, "%s = '%s' is not a whole number from 0 to %u", key, value, max);
  *out = (unsigned)v;
  return 0;
}

static int parse_yes_no(sweep_parser *ps, const char *key, const char *value, bool *out) {
  static const char *const yes[] = {"1", "yes", "on", "true"}, *const no[] = {"0", "no", "off", "false"};
  for (int i = 0; i < 4; i++) {
    if (!strcmp(value, yes[i])) return *out = true, 0;
    if (!strcmp(value, no[i])) return *out = false, 0;
  }
  return sweep_fail(ps, ps->line, "%s = '%s' is not yes or no", key, value);
}

/* [sweep] */
static int sweep_key(sweep_parser *ps, const char *key, const char *value) {
  sweep_file *sf = ps->sf;
  if (!strcmp(key, "name")) return set_string(ps, &sf->name, value, key);
  if (!strcmp(key, "output")) return set_string(ps, &sf->output, value, key);
  if (!strcmp(key, "baseline")) {
    sf->baseline_line = ps->line;
    return set_string(ps, &sf->baseline_text, value, key);
  }
  if (!strcmp(key, "mode")) {
    if (sf->mode_line) return sweep_fail(ps, ps->line, "mode is given twice");
    sf->mode_line = ps->line;
    if (strcmp(value, "timing") && strcmp(value, "functional"))
      return sweep_fail(ps, ps->line, "mode = '%s': expected functional or timing", value);
    sf->timing = !strcmp(value, "timing");
    return 0;
  }
  if (!strcmp(key, "repetitions")) {
    if (parse_uint(ps, key, value, 1000, &sf->repetitions)) return -1;
    return sf->repetitions ? 0 : sweep_fail(ps, ps->line, "repetitions must be at least 1");
  }
  if (!strcmp(key, "timeout")) return parse_uint(ps, key, value, 31536000, &sf->timeout);
  if (!strcmp(key, "timeline")) {
    sf->timeline_line = ps->line;
    return parse_yes_no(ps, key, value, &sf->timeline);
  }
  return sweep_fail(ps, ps->line, "unknown key '%s' in [sweep] (name, output, mode, repetitions, "
                    "timeout, timeline, baseline)", key);
}

/* [settings] KEY = VALUE and [axes] KEY = VALUES: the key is checked in
 * sweep_check.c (with the values) */
static int settings_key(sweep_parser *ps, const char *key, const char *value) {
  sweep_file *sf = ps->sf;
  for (size_t i = 0; i < sf->set_keys.n; i++)
    if (!strcmp(sf->set_keys.v[i], key)) return sweep_fail(ps, ps->line, "%s is given twice", key);
  unsigned *lines = realloc(sf->set_lines, (sf->set_keys.n + 1) * sizeof *lines);
  if (!lines) return sweep_fail(ps, ps->line, "out of memory");
  sf->set_lines = lines;
  lines[sf->set_keys.n] = ps->line;
  if (sweep_strv_push(&sf->set_keys, key) || sweep_strv_push(&sf->set_values, value))
    return sweep_fail(ps, ps->line, "out of memory");
  return 0;
}

static sweep_axis *add_axis(sweep_parser *ps, const char *key) {
  sweep_file *sf = ps->sf;
  for (size_t i = 0; i < sf->naxes; i++)
    if (!strcmp(sf->axes[i].key, key)) {
      sweep_fail(ps, ps->line, "axis %s is given twice", key);
      return NULL;
    }
  if (sf->naxes == SWEEP_MAX_AXES) {
    sweep_fail(ps, ps->line, "more than %d axes", SWEEP_MAX_AXES);
    return NULL;
  }
  sweep_axis *a = realloc(sf->axes, (sf->naxes + 1) * sizeof *a);
  if (!a) return NULL;
  sf->axes = a;
  a = &sf->axes[sf->naxes++];
  memset(a, 0, sizeof *a);
  a->key = strdup(key);
  a->line = ps->line;
  return a->key ? a : NULL;
}

static int axes_key(sweep_parser *ps, const char *key, const char *value) {
  sweep_axis *a = add_axis(ps, key);
  if (!a) return -1;
  char where[600];
  snprintf(where, sizeof where, "%s:%u", ps->sf->path, ps->line);
  return sweep_axis_values(value, where, &a->values, ps->err, ps->errn);
}

/* [points]: "KEY=VALUE KEY=VALUE ..." per line; every line names the same keys */
static int points_line(sweep_parser *ps, char *text) {
  sweep_strv words = {0};
  if (sweep_split_words(text, &words)) return sweep_fail(ps, ps->line, "out of memory");
  sweep_file *sf = ps->sf;
  bool first = ps->npoint_rows == 0;
  int rc = 0;
  if (!first && words.n != sf->naxes)
    rc = sweep_fail(ps, ps->line, "this point names %zu settings, the first point %zu", words.n,
                    sf->naxes);
  char **row = rc ? NULL : calloc(words.n ? words.n : 1, sizeof *row);
  for (size_t i = 0; !rc && i < words.n; i++) {
    char *eq = strchr(words.v[i], '=');
    if (!eq || eq == words.v[i] || !eq[1]) {
      rc = sweep_fail(ps, ps->line, "'%s': a point is KEY=VALUE words", words.v[i]);
      break;
    }
    *eq = 0;
    if (first && !add_axis(ps, words.v[i])) rc = -1;
    else if (!first && strcmp(sf->axes[i].key, words.v[i]))
      rc = sweep_fail(ps, ps->line, "setting %zu is %s, in the first point %s", i + 1, words.v[i],
                      sf->axes[i].key);
    else if (!(row[i] = strdup(eq + 1))) rc = sweep_fail(ps, ps->line, "out of memory");
  }
  if (!rc) rc = sweep_points_add_row(ps, row, words.n);
  else if (row) {
    for (size_t i = 0; i < words.n; i++) free(row[i]);
  }
  free(row);
  sweep_strv_free(&words);
  return rc;
}

static int section(sweep_parser *ps, char *s) {
  if (ps->section == SEC_WORKLOAD && sweep_workload_end(ps)) return -1;
  char *close = strchr(s, ']');
  if (!close || sweep_trim(close + 1)[0])
    return sweep_fail(ps, ps->line, "a section header is [NAME] alone on its line");
  *close = 0;
  char *name = sweep_trim(s + 1);
  static const char *const plain[] = {"sweep", "settings", "axes", "points"};
  for (int i = 0; i < 4; i++)
    if (!strcmp(name, plain[i])) {
      if (ps->seen[i]) return sweep_fail(ps, ps->line, "[%s] appears twice", name);
      if ((i == 2 && ps->seen[3]) || (i == 3 && ps->seen[2]))
        return sweep_fail(ps, ps->line, "[axes] and [points] exclude each other (the product of "
                          "the axes, or a list of points)");
      ps->seen[i] = true;
      ps->section = SEC_SWEEP + i;
      if (i == 3) ps->sf->points_line = ps->line;
      return 0;
    }
  if (!strncmp(name, "workload", 8) && (name[8] == ' ' || name[8] == '\t')) {
    ps->section = SEC_WORKLOAD;
    return sweep_workload_begin(ps, sweep_trim(name + 8));
  }
  return sweep_fail(ps, ps->line, "unknown section [%s] ([sweep], [settings], [axes], [points], "
                    "[workload NAME])", name);
}

/* a comment starts with '#' at the start or after a blank */
static void strip_comment(char *s) {
  for (char *p = s; *p; p++)
    if (*p == '#' && (p == s || p[-1] == ' ' || p[-1] == '\t')) {
      *p = 0;
      return;
    }
}

static int line(sweep_parser *ps, char *text) {
  strip_comment(text);
  char *s = sweep_trim(text);
  if (!*s) return 0;
  if (*s == '[') return section(ps, s);
  if (ps->section == SEC_POINTS) return points_line(ps, s);
  char *eq = strchr(s, '=');
  if (!eq) return sweep_fail(ps, ps->line, "expected 'key = value'");
  *eq = 0;
  char *key = sweep_trim(s), *value = sweep_trim(eq + 1);
  if (!*key) return sweep_fail(ps, ps->line, "expected 'key = value'");
  switch (ps->section) {
  case SEC_SWEEP: return sweep_key(ps, key, value);
  case SEC_SETTINGS: return settings_key(ps, key, value);
  case SEC_AXES: return axes_key(ps, key, value);
  case SEC_WORKLOAD: return sweep_workload_key(ps, key, value);
  default: return sweep_fail(ps, ps->line, "'%s = ...' before any [section]", key);
  }
}

static int parse_text(sweep_parser *ps, char *text, size_t len) {
  if (memchr(text, 0, len)) return sweep_fail(ps, 1, "not a text file (NUL byte)");
  char *s = text;
  while (*s) {
    char *nl = strchr(s, '\n');
    if (nl) *nl = 0;
    ps->line++;
    if (line(ps, s) != 0) return -1;
    if (!nl) break;
    s = nl + 1;
  }
  return 0;
}

int sweep_file_parse(const char *path, sweep_file *sf, char *err, size_t errn) {
  memset(sf, 0, sizeof *sf);
  sf->repetitions = 1;
  sf->path = strdup(path);
  uint8_t *text = NULL;
  size_t len = 0;
  if (!sf->path) return snprintf(err, errn, "out of memory"), -1;
  if (vt_read_file(path, (vt_file_limit){SWEEP_FILE_MAX, "a sweep file", NULL}, &text, &len, err,
                   errn) != 0)
    return -1;
  sweep_parser ps = {.sf = sf, .err = err, .errn = errn};
  int rc = parse_text(&ps, (char *)text, len);
  free(text);
  if (rc == 0) rc = sweep_check(&ps);
  sweep_parser_free(&ps);
  return rc;
}

void sweep_file_free(sweep_file *sf) {
  free(sf->path);
  free(sf->name);
  free(sf->output);
  free(sf->baseline_text);
  free(sf->set_lines);
  sweep_strv_free(&sf->set_keys);
  sweep_strv_free(&sf->set_values);
  for (size_t i = 0; i < sf->naxes; i++) {
    free(sf->axes[i].key);
    sweep_strv_free(&sf->axes[i].values);
  }
  free(sf->axes);
  for (size_t i = 0; i < sf->nconfigs * sf->naxes; i++) free(sf->configs[i]);
  free(sf->configs);
  for (size_t i = 0; i < sf->nworkloads; i++) sweep_workload_free(&sf->workloads[i]);
  free(sf->workloads);
  memset(sf, 0, sizeof *sf);
}
