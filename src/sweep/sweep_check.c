/* Checks of a whole sweep file before anything runs: every [settings] and
 * axis key is a setting of vt/settings.def that a sweep may vary, every
 * value is in the setting's range (vt_settings_set), settings of the timing
 * model need mode = timing; then the configurations (the product of the
 * axes or the [points]) and the baseline. Errors name the line. */
#include <stdlib.h>
#include <string.h>

#include "sweep_parse.h"
#include "vt/settings.h"

/* may a sweep set this setting? the outputs, the mode and the run control
 * belong to the sweep itself */
static int key_allowed(sweep_parser *ps, unsigned line, char **key) {
  int id = vt_setting_find(*key);
  if (id < 0) return sweep_fail(ps, line, "unknown setting '%s' (vt help settings lists them)", *key);
  const vt_setting_info *in = vt_setting_info_of(id);
  if (in->owner == VT_OWNER_OUTPUT || id == VT_S_progress)
    return sweep_fail(ps, line, "%s is chosen by vt sweep itself (timeline = yes in [sweep] writes "
                      "timelines)", in->key);
  if (id == VT_S_timing)
    return sweep_fail(ps, line, "timing is the sweep's mode: 'mode = timing' in [sweep]");
  if (id == VT_S_timeout)
    return sweep_fail(ps, line, "the time limit of a point is 'timeout = SECONDS' in [sweep]");
  if (in->owner == VT_OWNER_TIMING && !ps->sf->timing)
    return sweep_fail(ps, line, "%s is a timing-model setting: it needs 'mode = timing' in [sweep]",
                      in->key);
  for (size_t w = 0; in->owner == VT_OWNER_RUNTIME && w < ps->sf->nworkloads; w++)
    if (ps->sf->workloads[w].kind == SWEEP_RUN)
      return sweep_fail(ps, line, "%s is a runtime setting of vt launch; workload '%s' runs test "
                        "vectors with vt run", in->key, ps->sf->workloads[w].name);
  if (strcmp(*key, in->key)) { /* "warp-slots" -> "warp_slots" */
    char *canonical = strdup(in->key);
    if (!canonical) return sweep_fail(ps, line, "out of memory");
    free(*key);
    *key = canonical;
  }
  return 0;
}

static int value_ok(sweep_parser *ps, unsigned line, const char *key, const char *value) {
  vt_settings s;
  char where[600];
  vt_settings_default(&s);
  snprintf(where, sizeof where, "%s:%u", ps->sf->path, line);
  return vt_settings_set(&s, key, value, VT_SRC_FILE, where, ps->err, ps->errn) ? -1 : 0;
}

static int check_settings(sweep_parser *ps) {
  sweep_file *sf = ps->sf;
  for (size_t i = 0; i < sf->set_keys.n; i++)
    if (key_allowed(ps, sf->set_lines[i], &sf->set_keys.v[i]) ||
        value_ok(ps, sf->set_lines[i], sf->set_keys.v[i], sf->set_values.v[i]))
      return -1;
  for (size_t a = 0; a < sf->naxes; a++) {
    sweep_axis *ax = &sf->axes[a];
    if (key_allowed(ps, ax->line, &ax->key)) return -1;
    for (size_t i = 0; i < sf->set_keys.n; i++)
      if (!strcmp(sf->set_keys.v[i], ax->key))
        return sweep_fail(ps, ax->line, "%s is both an axis and in [settings] (line %u)", ax->key,
                          sf->set_lines[i]);
    for (size_t b = 0; b < a; b++)
      if (!strcmp(sf->axes[b].key, ax->key)) return sweep_fail(ps, ax->line, "axis %s is given twice", ax->key);
    for (size_t i = 0; i < ax->values.n; i++)
      if (value_ok(ps, ax->line, ax->key, ax->values.v[i])) return -1;
  }
  return 0;
}

int sweep_points_add_row(sweep_parser *ps, char **row, size_t nvalues) {
  char ***rows = realloc(ps->point_rows, (ps->npoint_rows + 1) * sizeof *rows);
  unsigned *lines = rows ? realloc(ps->point_lines, (ps->npoint_rows + 1) * sizeof *lines) : NULL;
  if (rows) ps->point_rows = rows;
  if (lines) ps->point_lines = lines;
  char **copy = lines ? malloc((nvalues ? nvalues : 1) * sizeof *copy) : NULL;
  if (!copy) return sweep_fail(ps, ps->line, "out of memory");
  memcpy(copy, row, nvalues * sizeof *copy);
  ps->point_rows[ps->npoint_rows] = copy;
  ps->point_lines[ps->npoint_rows++] = ps->line;
  return ps->npoint_rows > SWEEP_MAX_POINTS ? sweep_fail(ps, ps->line, "more than %d points",
                                                         SWEEP_MAX_POINTS) : 0;
}

/* [points]: each value checked; the axes list the distinct values */
static int points_configs(sweep_parser *ps) {
  sweep_file *sf = ps->sf;
  sf->nconfigs = ps->npoint_rows;
  sf->configs = calloc(sf->nconfigs * sf->naxes + 1, sizeof *sf->configs);
  if (!sf->configs) return sweep_fail(ps, ps->line, "out of memory");
  for (size_t r = 0; r < ps->npoint_rows; r++)
    for (size_t a = 0; a < sf->naxes; a++) {
      char *v = ps->point_rows[r][a];
      ps->point_rows[r][a] = NULL;
      sf->configs[r * sf->naxes + a] = v;
      if (value_ok(ps, ps->point_lines[r], sf->axes[a].key, v)) return -1;
      bool seen = false;
      for (size_t i = 0; i < sf->axes[a].values.n; i++) seen |= !strcmp(sf->axes[a].values.v[i], v);
      if (!seen && sweep_strv_push(&sf->axes[a].values, v)) return sweep_fail(ps, ps->line, "out of memory");
    }
  return 0;
}

/* [axes]: the product, the first axis varying slowest */
static int product_configs(sweep_parser *ps) {
  sweep_file *sf = ps->sf;
  size_t n = 1;
  for (size_t a = 0; a < sf->naxes; a++) {
    if (n > SWEEP_MAX_POINTS / sf->axes[a].values.n)
      return sweep_fail(ps, sf->axes[a].line, "the axes make more than %d configurations",
                        SWEEP_MAX_POINTS);
    n *= sf->axes[a].values.n;
  }
  sf->nconfigs = n;
  sf->configs = calloc(n * sf->naxes + 1, sizeof *sf->configs);
  if (!sf->configs) return sweep_fail(ps, ps->line, "out of memory");
  for (size_t c = 0; c < n; c++) {
    size_t rest = c;
    for (size_t a = sf->naxes; a-- > 0;) {
      const sweep_strv *vals = &sf->axes[a].values;
      if (!(sf->configs[c * sf->naxes + a] = strdup(vals->v[rest % vals->n])))
        return sweep_fail(ps, ps->line, "out of memory");
      rest /= vals->n;
    }
  }
  return 0;
}

/* baseline = KEY=VALUE ...: the first configuration with those values */
static int baseline(sweep_parser *ps) {
  sweep_file *sf = ps->sf;
  if (!sf->baseline_text) return 0;
  sweep_strv words = {0};
  int rc = sweep_split_words(sf->baseline_text, &words) ? sweep_fail(ps, sf->baseline_line, "out of memory") : 0;
  for (size_t c = 0; rc == 0 && c < sf->nconfigs; c++) {
    bool match = true;
    for (size_t i = 0; match && i < words.n; i++) {
      char *eq = strchr(words.v[i], '=');
      size_t klen = eq ? (size_t)(eq - words.v[i]) : 0;
      int axis = -1;
      for (size_t a = 0; eq && a < sf->naxes; a++)
        if (strlen(sf->axes[a].key) == klen && !strncmp(sf->axes[a].key, words.v[i], klen)) axis = (int)a;
      if (axis < 0) {
        rc = sweep_fail(ps, sf->baseline_line, "baseline: '%s' is not AXIS=VALUE of an axis", words.v[i]);
        break;
      }
      match = !strcmp(sf->configs[c * sf->naxes + (size_t)axis], eq + 1);
    }
    if (rc == 0 && match) {
      sf->baseline = c;
      sweep_strv_free(&words);
      return 0;
    }
  }
  if (rc == 0) rc = sweep_fail(ps, sf->baseline_line, "baseline: no configuration has %s", sf->baseline_text);
  sweep_strv_free(&words);
  return rc;
}

int sweep_check(sweep_parser *ps) {
  sweep_file *sf = ps->sf;
  if (ps->section == SEC_WORKLOAD && sweep_workload_end(ps)) return -1;
  ps->section = SEC_NONE;
  if (!sf->nworkloads) return sweep_fail(ps, ps->line, "no [workload NAME] section");
  if (sf->timeline && !sf->timing)
    return sweep_fail(ps, sf->timeline_line, "timelines come from the timing model: mode = timing");
  if (ps->seen[3] && !ps->npoint_rows) return sweep_fail(ps, sf->points_line, "[points] lists no point");
  if (check_settings(ps) || (ps->seen[3] ? points_configs(ps) : product_configs(ps)) || baseline(ps))
    return -1;
  if ((uint64_t)sf->nconfigs * sf->nworkloads * sf->repetitions > SWEEP_MAX_POINTS)
    return sweep_fail(ps, ps->line, "%zu configurations x %zu workloads x %u repetitions is more "
                      "than %d points", sf->nconfigs, sf->nworkloads, sf->repetitions, SWEEP_MAX_POINTS);
  return 0;
}

void sweep_parser_free(sweep_parser *ps) {
  for (size_t r = 0; r < ps->npoint_rows; r++) {
    for (size_t a = 0; a < ps->sf->naxes; a++) free(ps->point_rows[r][a]);
    free(ps->point_rows[r]);
  }
  free(ps->point_rows);
  free(ps->point_lines);
}
