/* Device configuration as 'key = value' settings: one parser for the
 * command line (vt run, vt launch), configuration files and the driver's
 * environment (docs/run.md lists the keys). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/sim.h"
#include "util/parse.h"

int vt_dev_config_set(vt_dev_config *cfg, const char *key, const char *val, const char *where,
                      char *err, size_t errn) {
  uint64_t v;
  if (vt_parse_u64(val, &v) != 0) {
    snprintf(err, errn, "%s: '%s' is not a number for %s", where, val, key);
    return -1;
  }
  if (!strcmp(key, "sms") || !strcmp(key, "num_sms")) {
    if (v == 0 || v > 1024) goto range;
    cfg->num_sms = (unsigned)v;
  } else if (!strcmp(key, "warp_slots") || !strcmp(key, "warp-slots")) {
    if (v == 0 || v > 1024) goto range;
    cfg->warp_slots = (unsigned)v;
    cfg->fixed = true;
  } else if (!strcmp(key, "threads") || !strcmp(key, "threads_per_warp")) {
    if (v == 0 || v > 32 || (v & (v - 1))) goto range;
    cfg->threads_per_warp = (unsigned)v;
    cfg->fixed = true;
  } else if (!strcmp(key, "lds_bytes") || !strcmp(key, "lds-bytes")) {
    if (v > 0x10000000u) goto range;
    cfg->lds_bytes = (uint32_t)v;
  } else if (!strcmp(key, "simt_depth") || !strcmp(key, "simt-depth")) {
    if (v == 0 || v > 1u << 20) goto range;
    cfg->simt_depth = (unsigned)v;
  } else if (!strcmp(key, "max_insns") || !strcmp(key, "max-insns")) {
    cfg->max_insns = v;
  } else {
    snprintf(err, errn, "%s: unknown setting '%s'", where, key);
    return -1;
  }
  return 0;
range:
  snprintf(err, errn, "%s: %s = %s is out of range", where, key, val);
  return -1;
}

int vt_config_file_parse(const char *path, vt_config_fn fn, void *ctx, char *err, size_t errn) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errn, "%s: %s", path, strerror(errno));
    return -1;
  }
  char line[512];
  unsigned n = 0;
  int rc = 0;
  while (rc == 0 && fgets(line, sizeof line, f)) {
    if (++n > 65536) { /* an endless input such as /dev/zero (issue 10) */
      snprintf(err, errn, "%s: more than 65536 lines, the size limit of a configuration file",
               path);
      rc = -1;
      break;
    }
    char *h = strchr(line, '#');
    if (h) *h = 0;
    char *s = line;
    while (*s == ' ' || *s == '\t') s++;
    if (!*s || *s == '\n' || *s == '\r') continue;
    char where[600];
    snprintf(where, sizeof where, "%s:%u", path, n);
    char *eq = strchr(s, '=');
    if (!eq) {
      snprintf(err, errn, "%s: expected 'key = value'", where);
      rc = -1;
      break;
    }
    *eq = 0;
    char *k = s, *v = eq + 1;
    char *ke = k + strlen(k);
    while (ke > k && (ke[-1] == ' ' || ke[-1] == '\t')) *--ke = 0;
    while (*v == ' ' || *v == '\t') v++;
    char *ve = v + strlen(v);
    while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\n' || ve[-1] == '\r'))
      *--ve = 0;
    rc = fn(ctx, k, v, where, err, errn);
  }
  fclose(f);
  return rc;
}

static int dev_set(void *ctx, const char *k, const char *v, const char *where, char *err,
                   size_t errn) {
  return vt_dev_config_set(ctx, k, v, where, err, errn);
}

int vt_dev_config_load(vt_dev_config *cfg, const char *path, char *err, size_t errn) {
  return vt_config_file_parse(path, dev_set, cfg, err, errn);
}

void vt_dev_config_print(FILE *f, const vt_dev_config *c) {
  fprintf(f,
          "sms = %u\nwarp_slots = %u\nthreads = %u\nlds_bytes = %u\nsgprs = %u\nvgprs = %u\n"
          "max_insns = %llu\nsimt_depth = %u\nfixed = %s\n",
          c->num_sms, c->warp_slots, c->threads_per_warp, c->lds_bytes, c->sgprs, c->vgprs,
          (unsigned long long)c->max_insns, c->simt_depth ? c->simt_depth : 1024u,
          c->fixed ? "yes" : "no");
}
