/* The report of a stop (why, then where) and the summary line of a
 * debugging session. */
#include <string.h>

#include "dbg_internal.h"

static void watch_report(vt_dbg *d, FILE *out) {
  const dbg_watch_hit *h = &d->watch_hit;
  vt_warp_info wi = {0};
  if (d->cur) vt_warp_get_info(d->cur, &wi);
  fprintf(out, "Watchpoint %d: warp %u (SM %u, WG %u, warp %u) at pc 0x%08x wrote:\n",
          d->stop.breakpoint, dbg_gwarp(d, wi.wg, wi.warp), wi.sm, wi.wg, wi.warp, h->pc);
  for (unsigned i = 0; i < h->n; i++)
    fprintf(out, "  lane %u: %u byte%s at 0x%08x = 0x%0*x\n", h->st[i].lane, h->st[i].size,
            h->st[i].size == 1 ? "" : "s", h->st[i].addr, 2 * h->st[i].size, h->st[i].value);
  if (h->total > h->n) fprintf(out, "  (and %u more stores)\n", h->total - h->n);
}

void vt_dbg_print_stop(vt_dbg *d, FILE *out) {
  vt_dbg_stop_info si;
  vt_dbg_stop_info_get(d, &si);
  vt_warp_info wi;
  if (d->cur) vt_warp_get_info(d->cur, &wi);
  switch (si.kind) {
  case VT_DBG_STOP_START: {
    const vt_launch *l = vt_device_launch(d->dev);
    fprintf(out, "Launch %u%s%s%s: %u x %u x %u workgroup(s) of %u warp(s) x %u thread(s); stopped "
                 "before the first instruction.\n",
            d->launches, *d->launch_name ? " (" : "", d->launch_name, *d->launch_name ? ")" : "",
            l ? l->num_wg[0] : 0,
            l ? l->num_wg[1] : 0, l ? l->num_wg[2] : 0, l ? l->warps_per_wg : 0,
            l ? l->threads_per_warp : 0);
    break;
  }
  case VT_DBG_STOP_BREAKPOINT:
    fprintf(out, "%s %d, ", d->stop_temporary ? "Temporary breakpoint" : "Breakpoint",
            si.breakpoint);
    break;
  case VT_DBG_STOP_WATCHPOINT: watch_report(d, out); break;
  case VT_DBG_STOP_FINISH: fprintf(out, "Workgroup %u finished.\n", d->tgt_wg); break;
  case VT_DBG_STOP_BARRIER:
    if (d->cur)
      fprintf(out, "Warp %u reached a barrier (%s).\n", si.gwarp,
              wi.state == VT_WARP_AT_BARRIER ? "waiting" : "the last to arrive: released");
    break;
  case VT_DBG_STOP_WARP_ENDED: fprintf(out, "Warp %u ended.\n", si.gwarp); break;
  case VT_DBG_STOP_INTERRUPT: fprintf(out, "Interrupted.\n"); break;
  case VT_DBG_STOP_FAULT: fprintf(out, "The launch fails: %s\n", si.error.message); break;
  case VT_DBG_STOP_ENDED:
    fprintf(out, "The program ended (%s).\n", d->program_status ? "failed" : "status 0");
    return;
  case VT_DBG_STOP_STEP: break;
  }
  if (si.kind == VT_DBG_STOP_FINISH && !d->cur) fprintf(out, "No warp is resident.\n");
  else if (si.kind != VT_DBG_STOP_FINISH || d->cur) dbg_show_location(d, d->cur, out);
}

void vt_dbg_summary(const vt_dbg *d, FILE *out) {
  static const char *const what[] = {"start", "breakpoint", "watchpoint", "step", "finish",
                                     "barrier", "warp end", "interrupt", "fault", "end"};
  unsigned total = 0;
  for (int k = 0; k < VT_DBG_STOP_ENDED; k++) total += d->stops[k];
  fprintf(out, "Debugger: %u launch%s, %u stop%s", d->launches, d->launches == 1 ? "" : "es",
          total, total == 1 ? "" : "s");
  const char *sep = " (";
  for (int k = 0; k < VT_DBG_STOP_ENDED; k++)
    if (d->stops[k]) {
      fprintf(out, "%s%u %s", sep, d->stops[k], what[k]);
      sep = ", ";
    }
  fprintf(out, "%s; the program %s.\n", total ? ")" : "",
          d->quitting            ? "did not end (quit)"
          : d->state != DBG_ENDED ? "did not end"
          : d->program_status     ? "failed"
                                  : "ended normally");
}
