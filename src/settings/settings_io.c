/* Settings from configuration files ('KEY = VALUE' lines, '#' comments) and
 * from the environment (VT_CONFIG names a file, VT_<KEY> sets one key;
 * VT_TIMING may also name a preset, which turns timing on with it). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vt/settings.h"

#define CONFIG_MAX_BYTES (1u << 20) /* a configuration file is small */

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r')) *--e = 0;
  return s;
}

/* one line: 0 (also for blank and comment lines) or fn's / a parse failure */
static int parse_line(char *line, const char *where, vt_config_fn fn, void *ctx, char *err,
                      size_t errn) {
  char *h = strchr(line, '#');
  if (h) *h = 0;
  char *s = trim(line);
  if (!*s) return 0;
  char *eq = strchr(s, '=');
  if (!eq) {
    snprintf(err, errn, "%s: expected 'key = value'", where);
    return -1;
  }
  *eq = 0;
  return fn(ctx, trim(s), trim(eq + 1), where, err, errn);
}

int vt_config_file_parse(const char *path, vt_config_fn fn, void *ctx, char *err, size_t errn) {
  struct stat st;
  if (stat(path, &st) != 0) {
    snprintf(err, errn, "%s: %s", path, strerror(errno));
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errn, "%s: not a regular file", path);
    return -1;
  }
  if ((uint64_t)st.st_size > CONFIG_MAX_BYTES) {
    snprintf(err, errn, "%s: a configuration file of %lld bytes is larger than the limit (%u)",
             path, (long long)st.st_size, CONFIG_MAX_BYTES);
    return -1;
  }
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errn, "%s: %s", path, strerror(errno));
    return -1;
  }
  char line[1024];
  unsigned n = 0;
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    n++;
    char where[600];
    snprintf(where, sizeof where, "%s:%u", path, n);
    if (!strchr(line, '\n') && !feof(f)) {
      snprintf(err, errn, "%s: line longer than %zu characters", where, sizeof line - 2);
      rc = -1;
      break;
    }
    rc = parse_line(line, where, fn, ctx, err, errn);
  }
  if (rc == 0 && ferror(f)) {
    snprintf(err, errn, "%s: read error", path);
    rc = -1;
  }
  fclose(f);
  return rc;
}

static int set_from_file(void *ctx, const char *key, const char *value, const char *where,
                         char *err, size_t errn) {
  int rc = vt_settings_set(ctx, key, value, VT_SRC_FILE, where, err, errn);
  return rc == 0 ? 0 : -1;
}

int vt_settings_load(vt_settings *s, const char *path, char *err, size_t errn) {
  return vt_config_file_parse(path, set_from_file, s, err, errn);
}

int vt_settings_from_env(vt_settings *s, char *err, size_t errn) {
  const char *file = getenv("VT_CONFIG");
  if (file && *file && vt_settings_load(s, file, err, errn) != 0) return -1;
  /* the preset first, so that explicit parameters win whatever the order */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < VT_S_COUNT; i++) {
      if ((i == VT_S_preset) != (pass == 0)) continue;
      const vt_setting_info *in = vt_setting_info_of(i);
      char var[80];
      int n = snprintf(var, sizeof var, "VT_");
      for (const char *k = in->key; *k && n < (int)sizeof var - 1; k++) var[n++] = (char)toupper(*k);
      var[n] = 0;
      const char *v = getenv(var);
      if (!v || !*v) continue;
      /* VT_TIMING may name a preset: timing on with that preset */
      if (i == VT_S_timing && (!strcmp(v, "ventus-2025") || !strcmp(v, "verilog-2024"))) {
        if (vt_settings_set(s, "preset", v, VT_SRC_ENV, var, err, errn) != 0) return -1;
        v = "1";
      } else if (i == VT_S_timing && vt_settings_set(s, in->key, v, VT_SRC_ENV, var, err, errn)) {
        snprintf(err, errn, "VT_TIMING: '%s' is not 0, 1 or a preset (ventus-2025, verilog-2024)", v);
        return -1;
      }
      if (vt_settings_set(s, in->key, v, VT_SRC_ENV, var, err, errn) != 0) return -1;
    }
  return 0;
}
