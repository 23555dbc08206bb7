/* Device statistics through the counters API (vt/counters.h). */
#include "rt_internal.h"
#include "vt/driver_ext.h"

vt_session *vt_rt_session(vt_rt *rt) { return vt_dev_session(rt->dev); }

double vt_rt_counter(vt_rt *rt, vt_counter c) {
  vt_session *s = vt_dev_session(rt->dev);
  return s ? vt_stats_value(vt_session_stats(s), -1, -1, c) : 0;
}

int vt_rt_timing_cycles(vt_rt *rt, uint64_t *cycles, int *timed) {
  vt_session *s = vt_dev_session(rt->dev);
  *timed = s && vt_session_settings(s)->timing;
  *cycles = *timed ? (uint64_t)vt_stats_value(vt_session_stats(s), -1, -1, VT_C_cycles) : 0;
  return s ? 0 : rt_fail(rt, "the device has no session");
}
