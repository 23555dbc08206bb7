/* Command-line options from the settings table (vt/settings.def), shared by
 * vt run and vt launch: --KEY VALUE for every setting of the command's
 * owners ('_' written '-'), --KEY / --no-KEY for switches, --set KEY=VALUE
 * (--tcfg is the same) for any of them, --config FILE. Options override
 * configuration files whatever their order. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* "--foo-bar" -> the setting foo_bar of the allowed owners, or -1 */
static int option_setting(const char *opt, unsigned owners, bool *negated) {
  *negated = false;
  if (strncmp(opt, "--", 2) != 0) return -1;
  const char *k = opt + 2;
  int id = vt_setting_find(k);
  if (id < 0 && !strncmp(k, "no-", 3)) {
    id = vt_setting_find(k + 3);
    if (id >= 0 && vt_setting_info_of(id)->type != VT_ST_BOOL) id = -1;
    *negated = id >= 0;
  }
  if (id < 0 || !(vt_setting_info_of(id)->owner & owners)) return -1;
  return id;
}

static int set_pair(vt_settings *s, const char *cmd, const char *opt, const char *pair) {
  char buf[VT_SETTING_STR_MAX + 64], err[800];
  snprintf(buf, sizeof buf, "%s", pair);
  char *eq = strchr(buf, '=');
  if (!eq) {
    fprintf(stderr, "%s: bad %s '%s' (expected KEY=VALUE)\n", cmd, opt, pair);
    return -1;
  }
  *eq = 0;
  if (vt_settings_set(s, buf, eq + 1, VT_SRC_OPTION, opt, err, sizeof err) != 0) {
    fprintf(stderr, "%s: %s\n", cmd, err);
    return -1;
  }
  return 0;
}

int cli_load_configs(vt_settings *s, const char *cmd, int argc, char **argv) {
  for (int i = 1; i + 1 < argc; i++) {
    if (strcmp(argv[i], "--config") != 0) continue;
    char err[800];
    if (vt_settings_load(s, argv[++i], err, sizeof err) != 0) {
      fprintf(stderr, "%s: %s\n", cmd, err);
      return -1;
    }
  }
  return 0;
}

int cli_setting_option(vt_settings *s, unsigned owners, const char *cmd, int argc, char **argv,
                       int *i) {
  const char *a = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
  bool config = !strcmp(a, "--config"), pair = !strcmp(a, "--set") || !strcmp(a, "--tcfg");
  bool negated;
  int id = config || pair ? -1 : option_setting(a, owners, &negated);
  if (!config && !pair && id < 0) return 0;
  if (id >= 0 && vt_setting_info_of(id)->type == VT_ST_BOOL) {
    char err[800];
    vt_settings_set(s, vt_setting_info_of(id)->key, negated ? "0" : "1", VT_SRC_OPTION, a, err,
                    sizeof err);
    return 1;
  }
  if (!v) {
    fprintf(stderr, "%s: %s needs a value\n", cmd, a);
    return -1;
  }
  (*i)++;
  if (config) return 1; /* loaded by cli_load_configs */
  if (pair) return set_pair(s, cmd, a, v) == 0 ? 1 : -1;
  char err[800];
  if (vt_settings_set(s, vt_setting_info_of(id)->key, v, VT_SRC_OPTION, a, err, sizeof err) != 0) {
    fprintf(stderr, "%s: %s\n", cmd, err);
    return -1;
  }
  return 1;
}

int cli_check_settings(const vt_settings *s, const char *cmd) {
  if (s->timing) return 0;
  for (int i = 0; i < VT_S_COUNT; i++) {
    const vt_setting_info *in = vt_setting_info_of(i);
    bool needs_timing = (in->owner == VT_OWNER_TIMING && i != VT_S_timing) || i == VT_S_timeline;
    if (needs_timing && s->source[i] == VT_SRC_OPTION) {
      fprintf(stderr, "%s: %s has no effect without --timing\n", cmd, in->key);
      return -1;
    }
  }
  return 0;
}

void cli_settings_usage(FILE *f, unsigned owners) {
  for (int i = 0; i < VT_S_COUNT; i++) {
    const vt_setting_info *in = vt_setting_info_of(i);
    if (!(in->owner & owners) || in->preset_param) continue;
    char opt[64];
    snprintf(opt, sizeof opt, "--%s", in->key);
    for (char *c = opt + 2; *c; c++)
      if (*c == '_') *c = '-';
    if (in->type != VT_ST_BOOL) {
      size_t n = strlen(opt);
      snprintf(opt + n, sizeof opt - n, " %s", in->type == VT_ST_STR ? "X" : "N");
    }
    fprintf(f, "  %-22s %s\n", opt, in->help);
  }
  if (owners & VT_OWNER_TIMING)
    fprintf(f, "  --KEY N                any timing parameter (`vt help settings` lists them)\n");
  fprintf(f,
          "  --set KEY=VALUE        any setting (--tcfg KEY=VALUE is the same)\n"
          "  --config FILE          'KEY = VALUE' lines (--dump-config prints them); options win\n"
          "  --dump-config          print every setting as 'KEY = VALUE' and exit\n");
}
