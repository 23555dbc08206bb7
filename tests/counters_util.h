/* Test helper: every counter of a device's statistics as totals (one double
 * per counter of vt/counters.def, indexed by VT_C_*). */
#ifndef VT_TESTS_COUNTERS_UTIL_H
#define VT_TESTS_COUNTERS_UTIL_H
#include "vt/counters.h"
#include "vt/sim.h"

static inline void vt_test_counters(const vt_device *dev, double out[VT_C_COUNT]) {
  for (int c = 0; c < VT_C_COUNT; c++)
    out[c] = vt_stats_value(vt_device_stats(dev), -1, -1, (vt_counter)c);
}
/* default settings with a timing preset; 0 or -1 for an unknown preset */
static inline int vt_test_settings_preset(vt_settings *s, const char *preset) {
  char err[256];
  vt_settings_default(s);
  return vt_settings_set(s, "preset", preset ? preset : "ventus-2025", VT_SRC_API, "test", err,
                         sizeof err) == 0 ? 0 : -1;
}
#endif
