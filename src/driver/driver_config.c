/* Driver settings from the environment (no recompiling needed): defaults,
 * then the settings table's VT_CONFIG file and VT_<KEY> variables. */
#include "driver_config.h"

int vt_driver_config(vt_settings *s, char *err, size_t errn) {
  vt_settings_default(s);
  return vt_settings_from_env(s, err, errn);
}
