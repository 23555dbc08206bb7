/* Driver configuration from the environment (no recompiling needed). */
#include "driver_config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/timing.h"

int vt_driver_config(vt_dev_config *cfg, char *err, size_t errn) {
  vt_dev_config_default(cfg);
  const char *file = getenv("VT_CONFIG");
  if (file && *file && vt_dev_config_load(cfg, file, err, errn) != 0) return -1;
  static const struct {
    const char *env, *key;
  } vars[] = {{"VT_SMS", "sms"},           {"VT_WARP_SLOTS", "warp_slots"},
              {"VT_THREADS", "threads"},   {"VT_LDS_BYTES", "lds_bytes"},
              {"VT_MAX_INSNS", "max_insns"}, {"VT_SIMT_DEPTH", "simt_depth"}};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
    const char *v = getenv(vars[i].env);
    if (v && *v && vt_dev_config_set(cfg, vars[i].key, v, vars[i].env, err, errn) != 0) return -1;
  }
  return 0;
}

int vt_driver_timing_config(vt_timing_config *tcfg, bool *timed, char *err, size_t errn) {
  const char *preset = getenv("VT_TIMING");
  *timed = preset && *preset && strcmp(preset, "0") != 0;
  if (!*timed) return 0;
  if (strcmp(preset, "1") == 0) preset = "ventus-2025";
  if (vt_timing_config_preset(tcfg, preset) != 0) {
    snprintf(err, errn, "VT_TIMING: unknown preset '%s' (ventus-2025, verilog-2024)", preset);
    return -1;
  }
  const char *list = getenv("VT_TCFG");
  if (!list || !*list) return 0;
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", list);
  for (char *item = strtok(buf, ","); item; item = strtok(NULL, ",")) {
    char *eq = strchr(item, '=');
    if (!eq) {
      snprintf(err, errn, "VT_TCFG: expected key=value, got '%s'", item);
      return -1;
    }
    *eq = 0;
    int rc = vt_timing_config_set(tcfg, item, eq + 1, "VT_TCFG", err, errn);
    if (rc == 1) snprintf(err, errn, "VT_TCFG: unknown timing parameter '%s'", item);
    if (rc != 0) return -1;
  }
  return 0;
}
