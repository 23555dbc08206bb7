/* Device statistics through the counters API (vt/counters.h). */
#include "rt_internal.h"
#include "vt/driver_ext.h"

vt_session *vt_rt_session(vt_rt *rt) { return vt_dev_session(rt->dev); }

double vt_rt_counter(vt_rt *rt, vt_counter c) {
  vt_session *s = vt_dev_session(rt->dev);
  return s ? vt_stats_value(vt_session_stats(s), -1, -1, c) : 0;
}
