/* Timing parameters: presets, setting by name, printing (the table is
 * vt/timing_params.def). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vt/timing.h"

typedef struct param_desc {
  const char *name, *desc;
  size_t offset;
  uint32_t v2025, v2024;
} param_desc;

static const param_desc params[] = {
#define VT_TP(name, a, b, desc) {#name, desc, offsetof(vt_timing_config, name), a, b},
#include "vt/timing_params.def"
#undef VT_TP
};
#define NPARAMS (sizeof params / sizeof params[0])

static uint32_t *field(vt_timing_config *c, size_t i) {
  return (uint32_t *)((char *)c + params[i].offset);
}

int vt_timing_config_preset(vt_timing_config *cfg, const char *name) {
  int which;
  if (!name || !strcmp(name, "ventus-2025"))
    which = 0;
  else if (!strcmp(name, "verilog-2024"))
    which = 1;
  else
    return -1;
  for (size_t i = 0; i < NPARAMS; i++) *field(cfg, i) = which ? params[i].v2024 : params[i].v2025;
  return 0;
}

int vt_timing_config_set(vt_timing_config *cfg, const char *key, const char *value,
                         const char *where, char *err, size_t errn) {
  char k[64];
  size_t n = strlen(key);
  if (n >= sizeof k) return 1;
  for (size_t i = 0; i <= n; i++) k[i] = key[i] == '-' ? '_' : key[i];
  for (size_t i = 0; i < NPARAMS; i++) {
    if (strcmp(k, params[i].name)) continue;
    char *end;
    errno = 0;
    unsigned long long v = value && *value && value[0] != '-' ? strtoull(value, &end, 0) : 0;
    if (!value || !*value || value[0] == '-' || errno || *end || v > 0xffffffffull) {
      snprintf(err, errn, "%s: '%s' is not a valid value for %s", where, value ? value : "",
               params[i].name);
      return -1;
    }
    if (v == 0 && (!strcmp(k, "line_bytes") || !strcmp(k, "l1d_sets") || !strcmp(k, "l1d_ways") ||
                   !strcmp(k, "l1i_sets") || !strcmp(k, "l1i_ways") || !strcmp(k, "l2_sets") ||
                   !strcmp(k, "l2_ways") || !strcmp(k, "fetch_bytes") ||
                   !strcmp(k, "reg_banks") || !strcmp(k, "dram_bytes_per_cycle") ||
                   !strcmp(k, "l1d_mshr") || !strcmp(k, "l1d_wshr") || !strcmp(k, "l1i_mshr") ||
                   !strcmp(k, "l2_mshr") || !strcmp(k, "dram_max_outstanding") ||
                   !strcmp(k, "lsu_per_warp") || !strcmp(k, "ibuffer_groups") ||
                   !strcmp(k, "wg_slots") || !strcmp(k, "l1d_mshr_sub"))) {
      snprintf(err, errn, "%s: %s must be at least 1", where, params[i].name);
      return -1;
    }
    bool pow2 = !strcmp(k, "line_bytes") || !strcmp(k, "fetch_bytes");
    if (pow2 && ((v & (v - 1)) || v < 4 || v > 4096)) {
      snprintf(err, errn, "%s: %s must be a power of two from 4 to 4096", where, params[i].name);
      return -1;
    }
    if (!strcmp(k, "ibuffer_groups") && v > 8) {
      snprintf(err, errn, "%s: ibuffer_groups must be at most 8", where);
      return -1;
    }
    if (v > 1000000) {
      snprintf(err, errn, "%s: %s = %llu is out of range", where, params[i].name, v);
      return -1;
    }
    *field(cfg, i) = (uint32_t)v;
    return 0;
  }
  return 1;
}

void vt_timing_config_print(FILE *f, const vt_timing_config *cfg) {
  for (size_t i = 0; i < NPARAMS; i++) {
    uint32_t v = *(const uint32_t *)((const char *)cfg + params[i].offset);
    fprintf(f, "%-22s = %-6u # %s\n", params[i].name, v, params[i].desc);
  }
}

void tm_config_json(FILE *f, const vt_timing_config *cfg, const char *indent);
void tm_config_json(FILE *f, const vt_timing_config *cfg, const char *indent) {
  fputs("{", f);
  for (size_t i = 0; i < NPARAMS; i++)
    fprintf(f, "%s\n%s  \"%s\": %u", i ? "," : "", indent, params[i].name,
            *(const uint32_t *)((const char *)cfg + params[i].offset));
  fprintf(f, "\n%s}", indent);
}
