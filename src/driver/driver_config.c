/* Driver configuration from the environment (no recompiling needed). */
#include "driver_config.h"

#include <stdio.h>
#include <stdlib.h>

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
