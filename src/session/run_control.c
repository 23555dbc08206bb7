/* Run control of a session, called by the run loops every few thousand
 * instructions: the host's interrupt flag (Ctrl-C), the time limit, and the
 * progress line on a terminal (after ~2 s, updated about once a second). */
#include <stdio.h>
#include <unistd.h>

#include "session_internal.h"
#include "util/error.h"

#define PROGRESS_DELAY 2.0    /* seconds before the first progress line */
#define PROGRESS_PERIOD 1.0

double vt_session_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void vt_session_progress_clear(vt_session *s) {
  if (!s->progress_shown) return;
  fputs("\r\033[K", s->progress);
  fflush(s->progress);
  s->progress_shown = false;
}

static void show_progress(vt_session *s, const vt_run_progress *p, double now) {
  double el = now - s->launch_start;
  fprintf(s->progress,
          "\r\033[Kvt: launch %u%s%s: %.1f M warp-insns, %.1f M/s, workgroups %llu/%llu, %.0f s",
          s->launch_index, s->launch_name ? " " : "", s->launch_name ? s->launch_name : "",
          (double)p->warp_insns / 1e6, el > 0 ? (double)p->warp_insns / el / 1e6 : 0.0,
          (unsigned long long)p->workgroups_done, (unsigned long long)p->workgroups_total, el);
  fflush(s->progress);
  s->progress_shown = true;
  s->last_progress = now;
}

int vt_session_poll(void *ctx, const vt_run_progress *p, vt_error *err) {
  vt_session *s = ctx;
  if (s->interrupt && *s->interrupt) {
    vt_session_progress_clear(s);
    vt_err_set(err, VT_ERR_INTERRUPTED, "interrupted after %llu warp instructions",
                      (unsigned long long)p->warp_insns);
    return VT_ERR_INTERRUPTED;
  }
  double now = vt_session_now();
  if (s->settings.timeout && now - s->start >= (double)s->settings.timeout) {
    vt_session_progress_clear(s);
    vt_err_set(err, VT_ERR_TIMEOUT, "time limit of %u s reached (timeout) after %llu warp "
                      "instructions of this launch", s->settings.timeout,
                      (unsigned long long)p->warp_insns);
    return VT_ERR_TIMEOUT;
  }
  if (s->progress && s->settings.progress && now - s->launch_start >= PROGRESS_DELAY &&
      now - s->last_progress >= PROGRESS_PERIOD && isatty(fileno(s->progress)))
    show_progress(s, p, now);
  return VT_OK;
}
