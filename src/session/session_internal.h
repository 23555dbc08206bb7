/* Internal state of a session (vt/session.h). */
#ifndef VT_SESSION_INTERNAL_H
#define VT_SESSION_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "vt/isa.h"
#include "vt/session.h"
#include "vt/timing.h"
#include "vt/trace.h"

struct vt_session {
  vt_settings settings;
  vt_device *dev;
  vt_timing *timing;          /* NULL: functional only */
  FILE *trace, *timeline;     /* the output files the settings name */
  vt_trace_writer *tracer;    /* writes the trace file */
  struct vt_dbg *dbg;         /* launches stop in this debugger */
  struct vt_gdb *gdb;         /* the GDB stub of the setting gdb (owns dbg) */
  volatile sig_atomic_t *interrupt;
  FILE *warnings, *progress;
  unsigned nwarnings;
  double start;               /* monotonic seconds at creation (time limit) */
  /* progress line */
  double launch_start, last_progress;
  bool progress_shown;
  unsigned launch_index;
  const char *launch_name;
  bool finished;
  int last_status;
};

/* the device's poll callback: interruption, time limit, progress line */
int vt_session_poll(void *ctx, const vt_run_progress *p, vt_error *err);
void vt_session_progress_clear(vt_session *s);
double vt_session_now(void);
#endif
