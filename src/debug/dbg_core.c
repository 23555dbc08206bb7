/* The debugger's core: the device hooks decide when to stop (breakpoints,
 * watchpoints, the end of a step, next, finish or run-to-barrier, faults,
 * interrupts) and hand the stop to the front end; launches and the end of
 * the program are announced by whoever runs them (vt_session). */
#include <stdlib.h>
#include <string.h>

#include "dbg_internal.h"
#include "util/error.h"

#define POLL_INTERVAL 4096u /* instructions between front-end polls */

vt_device *vt_dbg_device(vt_dbg *d) { return d->dev; }
bool vt_dbg_quit_requested(const vt_dbg *d) { return d->quitting; }
void vt_dbg_set_interrupt(vt_dbg *d, volatile sig_atomic_t *flag) { d->interrupt = flag; }

unsigned dbg_gwarp(const vt_dbg *d, unsigned wg, unsigned warp) {
  return wg * d->warps_per_wg + warp;
}

vt_warp *dbg_find(vt_dbg *d, unsigned wg, unsigned warp) {
  return d->state == DBG_IN_LAUNCH ? vt_device_find_warp(d->dev, wg, warp) : NULL;
}

bool dbg_select(vt_dbg *d, unsigned wg, unsigned warp) {
  vt_warp *w = dbg_find(d, wg, warp);
  if (!w) return false;
  d->has_cur = true;
  d->cur_wg = wg;
  d->cur_warp = warp;
  d->cur = w;
  return true;
}

void dbg_resume(vt_dbg *d, dbg_mode mode, uint64_t count) {
  d->mode = mode;
  d->tgt_wg = d->cur_wg;
  d->tgt_warp = d->cur_warp;
  if (!d->cur) return;
  vt_warp_info wi;
  vt_warp_get_info(d->cur, &wi);
  d->tgt_count = wi.instret + count;
  d->next_depth = wi.simt_depth;
}

/* the error that ends a launch the user quit */
static int quit_error(vt_error *err) {
  vt_err_set(err, VT_ERR_INTERRUPTED, "stopped by the debugger (quit)");
  return VT_ERR_INTERRUPTED;
}

/* hand a stop at warp w (may be NULL) to the front end; fault: the error
 * the launch ends with */
static int stop(vt_dbg *d, vt_warp *w, vt_dbg_stop_kind kind, int point, const vt_error *fault,
                vt_error *err) {
  if (d->mode == DBG_DETACHED) return VT_OK;
  memset(&d->stop, 0, sizeof d->stop);
  d->stop.kind = kind;
  d->stop.breakpoint = point;
  if (fault) d->stop.error = *fault;
  if (w) {
    vt_warp_info wi;
    vt_warp_get_info(w, &wi);
    d->has_cur = true;
    d->cur_wg = wi.wg;
    d->cur_warp = wi.warp;
  } else if (d->has_cur && !dbg_find(d, d->cur_wg, d->cur_warp)) {
    d->has_cur = false;
  }
  if (!d->has_cur) { /* the first resident warp */
    vt_warp *first = NULL;
    if (vt_device_warps(d->dev, &first, 1) > 0) w = first;
    if (w) {
      vt_warp_info wi;
      vt_warp_get_info(w, &wi);
      d->has_cur = true;
      d->cur_wg = wi.wg;
      d->cur_warp = wi.warp;
    }
  }
  d->cur = d->has_cur ? (w ? w : dbg_find(d, d->cur_wg, d->cur_warp)) : NULL;
  d->stops[kind]++;
  if (d->interrupt) *d->interrupt = 0;
  d->mode = DBG_CONTINUE;
  d->in_stop = true;
  int rc = d->fe.stopped ? d->fe.stopped(d->fe.ctx, d) : 0;
  d->in_stop = false;
  d->cur = NULL;
  if (rc < 0) d->quitting = true;
  return d->quitting ? quit_error(err) : VT_OK;
}

static bool is_target(const vt_dbg *d, const vt_warp_info *wi) {
  return wi->wg == d->tgt_wg && wi->warp == d->tgt_warp;
}

static int before(void *ctx, vt_warp *w, vt_error *err) {
  vt_dbg *d = ctx;
  if (d->quitting) return quit_error(err);
  if (d->mode == DBG_DETACHED) return VT_OK;
  vt_warp_info wi;
  vt_warp_get_info(w, &wi);
  d->warps_per_wg = wi.warps_per_wg;
  if (!d->started) {
    d->started = true;
    return stop(d, w, VT_DBG_STOP_START, 0, NULL, err);
  }
  if ((d->interrupt && *d->interrupt) ||
      (++d->since_poll >= POLL_INTERVAL && d->fe.poll && (d->since_poll = 0, d->fe.poll(d->fe.ctx, d))))
    return stop(d, w, VT_DBG_STOP_INTERRUPT, 0, NULL, err);
  if ((d->mode == DBG_STEP && is_target(d, &wi) && wi.instret >= d->tgt_count) ||
      (d->mode == DBG_NEXT && is_target(d, &wi) && wi.instret >= d->tgt_count &&
       wi.simt_depth <= d->next_depth && (!d->next_pc || wi.pc == d->next_pc)))
    return stop(d, w, VT_DBG_STOP_STEP, 0, NULL, err);
  dbg_point *bp = d->npoints ? dbg_break_at(d, &wi) : NULL;
  if (!bp) return VT_OK;
  bp->hits++;
  int id = bp->id;
  d->stop_temporary = bp->temporary;
  if (bp->temporary) dbg_point_delete(d, id);
  return stop(d, w, VT_DBG_STOP_BREAKPOINT, id, NULL, err);
}

/* did every warp of workgroup wg end? */
static bool workgroup_ended(vt_dbg *d, unsigned wg) {
  for (unsigned i = 0; i < d->warps_per_wg; i++) {
    vt_warp *o = dbg_find(d, wg, i);
    vt_warp_info oi;
    if (!o) continue;
    vt_warp_get_info(o, &oi);
    if (oi.state != VT_WARP_ENDED) return false;
  }
  return true;
}

static bool is_barrier(uint32_t word) {
  vt_insn_id id = vt_decode(word);
  return id != VT_INSN_INVALID && vt_isa_insn(id)->exec_class == VT_EX_BARRIER;
}

static int after(void *ctx, vt_warp *w, const vt_trace_event *ev, vt_error *err) {
  vt_dbg *d = ctx;
  if (d->tracer) vt_trace_writer_event(d->tracer, ev);
  if (d->mode == DBG_DETACHED) return VT_OK;
  if (d->any_watch) {
    dbg_point *wp = dbg_watch_check(d, ev, &d->watch_hit);
    if (wp) {
      wp->hits++;
      return stop(d, w, VT_DBG_STOP_WATCHPOINT, wp->id, NULL, err);
    }
  }
  if (d->mode == DBG_CONTINUE) return VT_OK;
  vt_warp_info wi;
  vt_warp_get_info(w, &wi);
  if (d->mode == DBG_FINISH) {
    if (wi.wg == d->tgt_wg && wi.state == VT_WARP_ENDED && workgroup_ended(d, wi.wg))
      return stop(d, w, VT_DBG_STOP_FINISH, 0, NULL, err);
    return VT_OK;
  }
  if (!is_target(d, &wi)) return VT_OK;
  if (d->mode == DBG_BARRIER && is_barrier(ev->insn))
    return stop(d, w, VT_DBG_STOP_BARRIER, 0, NULL, err);
  if (wi.state == VT_WARP_ENDED) return stop(d, w, VT_DBG_STOP_WARP_ENDED, 0, NULL, err);
  return VT_OK;
}

static void failed(void *ctx, const vt_error *err) {
  vt_dbg *d = ctx;
  if (d->quitting) return;
  vt_warp *w = err->has_location ? dbg_find(d, err->wg, err->warp) : NULL;
  vt_error ignored;
  stop(d, w, VT_DBG_STOP_FAULT, 0, err, &ignored);
}

vt_dbg *vt_dbg_new(vt_device *dev, const vt_dbg_frontend *fe) {
  vt_dbg *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->dev = dev;
  if (fe) d->fe = *fe;
  d->next_id = 1;
  vt_sim_hooks h = {before, after, failed, d};
  vt_device_set_hooks(dev, &h);
  return d;
}

void vt_dbg_free(vt_dbg *d) {
  if (!d) return;
  vt_device_set_hooks(d->dev, NULL);
  for (size_t i = 0; i < d->nelfs; i++) vt_elf_free(d->elfs[i]);
  free(d->elfs);
  dbg_lines_free(&d->lines);
  free(d->points);
  vt_trace_writer_free(d->tracer);
  if (d->trace) fclose(d->trace);
  free(d);
}

int vt_dbg_load_program(vt_dbg *d, const char *path, char *err, size_t errn) {
  vt_elf *elf = NULL;
  if (vt_elf_open_file(path, &elf, err, errn) != 0) return -1;
  vt_elf **e = realloc(d->elfs, (d->nelfs + 1) * sizeof *e);
  if (!e) {
    vt_elf_free(elf);
    snprintf(err, errn, "out of memory");
    return -1;
  }
  d->elfs = e;
  d->elfs[d->nelfs++] = elf;
  char why[256];
  if (dbg_lines_load(&d->lines, elf, why, sizeof why) != 0) {
    snprintf(err, errn, "%s: %s", path, why);
    return -1;
  }
  return 0;
}

void vt_dbg_launch_begin(vt_dbg *d, const char *name) {
  d->state = DBG_IN_LAUNCH;
  d->launches++;
  snprintf(d->launch_name, sizeof d->launch_name, "%s", name ? name : "");
  d->has_cur = false;
  if (d->mode != DBG_DETACHED) d->mode = DBG_CONTINUE;
  if (d->started && d->fe.notice) {
    char text[256];
    snprintf(text, sizeof text, "launch %u%s%s%s begins", d->launches,
             *d->launch_name ? " (" : "", d->launch_name, *d->launch_name ? ")" : "");
    d->fe.notice(d->fe.ctx, d, text);
  }
}

void vt_dbg_launch_end(vt_dbg *d, int status) {
  (void)status;
  d->state = DBG_IDLE;
  d->has_cur = false;
}

void vt_dbg_program_end(vt_dbg *d, int status) {
  if (d->state == DBG_ENDED) return;
  d->state = DBG_ENDED;
  d->program_status = status;
  memset(&d->stop, 0, sizeof d->stop);
  d->stop.kind = VT_DBG_STOP_ENDED;
  d->stops[VT_DBG_STOP_ENDED]++;
  /* nothing ran (a missing file, a bad argument): nothing to look at */
  if (d->fe.ended && !d->quitting && d->launches) d->fe.ended(d->fe.ctx, d, status);
}

void vt_dbg_stop_info_get(const vt_dbg *d, vt_dbg_stop_info *out) {
  *out = d->stop;
  out->has_warp = d->has_cur;
  out->wg = d->cur_wg;
  out->warp = d->cur_warp;
  out->gwarp = dbg_gwarp(d, d->cur_wg, d->cur_warp);
}
