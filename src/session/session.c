/* A session: the device, the timing model when asked for, the run's output
 * files, warnings, and the statistics at the end (vt/session.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session_internal.h"
#include "util/error.h"
#include "vt/debug.h"
#include "vt/elf.h"
#include "vt/testvec.h"

static void warn_to_file(void *ctx, const char *msg) {
  vt_session *s = ctx;
  if (!s->warnings) return;
  vt_session_progress_clear(s);
  if (++s->nwarnings <= 20) fprintf(s->warnings, "vt: warning: %s\n", msg);
  else if (s->nwarnings == 21) fprintf(s->warnings, "vt: warning: further warnings not shown\n");
}

static FILE *open_output(const char *path, const char *what, char *err, size_t errn) {
  FILE *f = fopen(path, "w");
  if (!f) snprintf(err, errn, "%s %s: %s", what, path, strerror(errno));
  return f;
}

/* the setting gdb: a stub serving the session's device */
static int start_gdb(vt_session *s, char *err, size_t errn) {
  if (s->timing) {
    snprintf(err, errn, "gdb: the debugger stops the functional model; switch timing off");
    return -1;
  }
  char why[512];
  s->gdb = vt_gdb_new(s->dev, s->settings.gdb, s->warnings ? s->warnings : stderr, why, sizeof why);
  if (!s->gdb) {
    snprintf(err, errn, "gdb %s: %s", s->settings.gdb, why);
    return -1;
  }
  s->dbg = vt_gdb_debugger(s->gdb);
  return 0;
}

struct vt_dbg *vt_session_debugger(vt_session *s) { return s->dbg; }

int vt_session_set_debugger(vt_session *s, struct vt_dbg *d) {
  if (d && s->timing) return -1;
  s->dbg = d;
  return 0;
}

int vt_session_new(const vt_settings *settings, vt_session **out, char *err, size_t errn) {
  *out = NULL;
  vt_session *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(err, errn, "out of host memory");
    return -1;
  }
  if (settings) s->settings = *settings;
  else vt_settings_default(&s->settings);
  const vt_settings *c = &s->settings;
  s->warnings = s->progress = stderr;
  s->start = vt_session_now();
  s->dev = vt_device_new(c);
  if (c->timing) s->timing = vt_timing_new(c);
  if (!s->dev || (c->timing && !s->timing)) {
    snprintf(err, errn, "out of host memory");
    vt_session_free(s);
    return -1;
  }
  if (c->timeline[0] && !c->timing) {
    snprintf(err, errn, "a timeline (%s) needs the timing model (timing)", c->timeline);
    vt_session_free(s);
    return -1;
  }
  if ((c->trace[0] && !(s->trace = open_output(c->trace, "trace", err, errn))) ||
      (c->timeline[0] && !(s->timeline = open_output(c->timeline, "timeline", err, errn)))) {
    vt_session_free(s);
    return -1;
  }
  vt_trace_format format = VT_TRACE_TEXT;
  vt_trace_format_parse(c->trace_format, &format);
  if (s->trace && !(s->tracer = vt_trace_writer_new(s->trace, format))) {
    snprintf(err, errn, "out of host memory");
    vt_session_free(s);
    return -1;
  }
  if (s->tracer) vt_device_set_trace(s->dev, vt_trace_writer_event, s->tracer);
  if (c->gdb[0] && start_gdb(s, err, errn) != 0) {
    vt_session_free(s);
    return -1;
  }
  if (s->timeline) vt_timing_set_timeline(s->timing, s->timeline);
  vt_device_set_poll(s->dev, vt_session_poll, s);
  vt_device_set_warn(s->dev, warn_to_file, s);
  *out = s;
  return 0;
}

void vt_session_free(vt_session *s) {
  if (!s) return;
  if (s->trace) fclose(s->trace);
  vt_trace_writer_free(s->tracer);
  if (s->timeline) {
    vt_timing_close_timeline(s->timing);
    fclose(s->timeline);
  }
  vt_timing_free(s->timing);
  vt_gdb_free(s->gdb);
  vt_device_free(s->dev);
  free(s);
}

vt_device *vt_session_device(vt_session *s) { return s->dev; }
const vt_settings *vt_session_settings(const vt_session *s) { return &s->settings; }
const vt_stats *vt_session_stats(const vt_session *s) { return vt_device_stats(s->dev); }
int vt_session_last_status(const vt_session *s) { return s->last_status; }
const char *vt_session_warp_dump(const vt_session *s) { return vt_device_warp_dump(s->dev); }
void vt_session_set_interrupt(vt_session *s, volatile sig_atomic_t *flag) { s->interrupt = flag; }
void vt_session_set_warnings(vt_session *s, FILE *f) { s->warnings = f; }
void vt_session_set_progress(vt_session *s, FILE *f) { s->progress = f; }

int vt_session_launch(vt_session *s, const vt_launch *l, const char *name, vt_error *err) {
  s->launch_start = s->last_progress = vt_session_now();
  s->launch_name = name;
  if (s->dbg) vt_dbg_launch_begin(s->dbg, name);
  int rc = s->timing ? vt_timing_run(s->timing, s->dev, l, name, err)
                     : vt_device_run(s->dev, l, name, err);
  vt_session_progress_clear(s);
  if (s->dbg) vt_dbg_launch_end(s->dbg, rc);
  s->last_status = rc;
  s->launch_index++;
  s->launch_name = NULL;
  return rc;
}

int vt_session_load_elf(vt_session *s, const char *path, vt_error *err) {
  char msg[512];
  vt_elf *elf = NULL;
  if (vt_elf_open_file(path, &elf, msg, sizeof msg) != 0) {
    vt_err_set(err, VT_ERR_FORMAT, "%s", msg);
    return VT_ERR_FORMAT;
  }
  int rc = vt_device_load_elf(s->dev, elf, err);
  if (rc != VT_OK) vt_err_prefix(err, "%s: ", path);
  vt_elf_free(elf);
  return rc;
}

int vt_session_run_testvec(vt_session *s, const char *metadata_path, vt_error *err) {
  vt_testvec *tv = NULL;
  vt_launch l;
  int rc = vt_testvec_load(metadata_path, NULL, &tv, err);
  if (rc == VT_OK) rc = vt_testvec_apply(s->dev, tv, &l, err);
  vt_testvec_free(tv);
  if (rc != VT_OK) return rc;
  const char *base = strrchr(metadata_path, '/');
  char name[256];
  snprintf(name, sizeof name, "%s", base ? base + 1 : metadata_path);
  char *dot = strrchr(name, '.');
  if (dot && !strcmp(dot, ".metadata")) *dot = 0;
  return vt_session_launch(s, &l, name, err);
}

static int write_stats(const vt_session *s, const char *path, bool csv, char *err, size_t errn) {
  FILE *f = fopen(path, "w");
  if (!f) {
    snprintf(err, errn, "%s: %s", path, strerror(errno));
    return -1;
  }
  char fin[1024];
  vt_session_fin_line(s, fin, sizeof fin);
  int rc = csv ? vt_stats_write_csv(vt_session_stats(s), f)
               : vt_stats_write_json(vt_session_stats(s), &s->settings, fin, f);
  if (fclose(f) != 0 || rc != 0) {
    snprintf(err, errn, "%s: write error", path);
    return -1;
  }
  return 0;
}

int vt_session_finish(vt_session *s, char *err, size_t errn) {
  if (s->finished) return 0;
  s->finished = true;
  if (s->dbg) vt_dbg_program_end(s->dbg, s->last_status != VT_OK);
  int rc = 0;
  if (s->trace && fclose(s->trace) != 0 && rc == 0) {
    snprintf(err, errn, "%s: write error", s->settings.trace);
    rc = -1;
  }
  s->trace = NULL;
  vt_device_set_trace(s->dev, NULL, NULL);
  vt_trace_writer_free(s->tracer);
  s->tracer = NULL;
  if (s->timeline) {
    if ((vt_timing_close_timeline(s->timing) != 0 || fclose(s->timeline) != 0) && rc == 0) {
      snprintf(err, errn, "%s: write error", s->settings.timeline);
      rc = -1;
    }
    s->timeline = NULL;
  }
  if (rc == 0 && s->settings.stats_json[0])
    rc = write_stats(s, s->settings.stats_json, false, err, errn);
  if (rc == 0 && s->settings.stats_csv[0])
    rc = write_stats(s, s->settings.stats_csv, true, err, errn);
  return rc;
}

void vt_session_fin_line(const vt_session *s, char *buf, size_t n) {
  if (s->timing) vt_timing_fin_line(s->timing, buf, n);
  else if (n) buf[0] = 0;
}

void vt_session_summary(const vt_session *s, const char *prefix, FILE *f) {
  const vt_stats *st = vt_session_stats(s);
  double secs = vt_stats_value(st, -1, -1, VT_C_host_seconds);
  double wi = vt_stats_value(st, -1, -1, VT_C_warp_instructions);
  fprintf(f,
          "%s: %.0f launch(es), %.0f workgroup(s), %.0f warp-instructions, %.0f "
          "thread-instructions, %.3f s host, %.2f M warp-insn/s\n",
          prefix, vt_stats_value(st, -1, -1, VT_C_launches),
          vt_stats_value(st, -1, -1, VT_C_workgroups), wi,
          vt_stats_value(st, -1, -1, VT_C_thread_instructions), secs,
          secs > 0 ? wi / secs / 1e6 : 0.0);
}

void vt_session_report(const vt_session *s, FILE *f) {
  if (s->timing) vt_timing_report(s->timing, f);
  vt_stats_report(vt_session_stats(s), f);
}
