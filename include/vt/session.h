/* vt/session.h - the one execution path of vt: a simulated device, the
 * timing model when the settings ask for it, and everything around a run
 * that must behave the same everywhere: the trace, the Perfetto timeline and
 * the statistics files, the progress line, the time limit, interruption
 * (Ctrl-C), memory checking and strict checks, warnings. `vt run`, the
 * driver API (and through it the runtime, `vt launch` and the OpenCL
 * platform) run their kernels through a session.
 *
 *   vt_session *s;
 *   vt_session_new(&settings, &s, err, sizeof err);
 *   ... load memory through vt_session_device(s) (vt/sim.h) ...
 *   vt_session_launch(s, &launch, "name", &e);   // once per launch
 *   vt_session_finish(s, err, sizeof err);       // statistics files, close outputs
 *   vt_session_report(s, stdout);                 // the counters
 *   vt_session_free(s);
 *
 * A session is used by one thread at a time; there is no global state. */
#ifndef VT_SESSION_H
#define VT_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "vt/counters.h"
#include "vt/settings.h"
#include "vt/sim.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vt_session vt_session;

/* Creates the device and, with settings->timing, the timing model, and opens
 * the output files the settings name (trace, timeline). 0, or -1 with err. */
int vt_session_new(const vt_settings *settings, vt_session **out, char *err, size_t errn);
void vt_session_free(vt_session *s);

vt_device *vt_session_device(vt_session *s);
const vt_settings *vt_session_settings(const vt_session *s);

/* Run one launch to completion. VT_OK or an error with *err filled, among
 * them VT_ERR_INTERRUPTED (the interrupt flag was set) and VT_ERR_TIMEOUT
 * (the settings' time limit passed). */
int vt_session_launch(vt_session *s, const vt_launch *l, const char *name, vt_error *err);

/* Load the PT_LOAD segments of an ELF program into the device's memory
 * (the file is parsed once). VT_OK or an error naming the file. */
int vt_session_load_elf(vt_session *s, const char *path, vt_error *err);
/* Run one test vector (NAME.metadata with NAME.data beside it: its buffers
 * are written into the device's memory, then the launch runs, named after
 * the file). */
int vt_session_run_testvec(vt_session *s, const char *metadata_path, vt_error *err);

/* The status of the last launch (VT_OK, or the error it ended with). */
int vt_session_last_status(const vt_session *s);

/* Stop the run when *flag becomes non-zero (set by a signal handler; the
 * session only reads it). NULL: never. */
void vt_session_set_interrupt(vt_session *s, volatile sig_atomic_t *flag);

/* After a launch stopped before completing (interrupted, time limit, budget,
 * deadlock): one line per live warp (SM, workgroup, warp, pc, disassembly,
 * SIMT depth, barrier state); "" when nothing was recorded. */
const char *vt_session_warp_dump(const vt_session *s);

struct vt_dbg;
/* Launches stop in debugger d (vt/debug.h): the session tells it when a
 * launch begins and ends and, in vt_session_finish, that the program ended.
 * NULL detaches. -1 with the timing model (the debugger stops the
 * functional one). With the setting gdb the session makes its own. */
int vt_session_set_debugger(vt_session *s, struct vt_dbg *d);
struct vt_dbg *vt_session_debugger(vt_session *s);

/* Warnings (e.g. a warp ending with SIMT entries pending) go to 'f'
 * (default stderr; NULL: discarded). */
void vt_session_set_warnings(vt_session *s, FILE *f);
/* The progress line goes to 'f' when it is a terminal and the settings'
 * progress is on (default stderr). */
void vt_session_set_progress(vt_session *s, FILE *f);

/* Write the statistics files the settings name and close the trace and the
 * timeline. Call once after the last launch. 0, or -1 with err. */
int vt_session_finish(vt_session *s, char *err, size_t errn);

const vt_stats *vt_session_stats(const vt_session *s);
/* "<prefix>: N launch(es), W workgroup(s), ... M warp-insn/s" (one line). */
void vt_session_summary(const vt_session *s, const char *prefix, FILE *f);
/* The timing model's cycles and FIN line (when a launch was timed) and the
 * table of every counter. */
void vt_session_report(const vt_session *s, FILE *f);
/* The FIN line of the timing model ("" when nothing ran timed). */
void vt_session_fin_line(const vt_session *s, char *buf, size_t n);

#ifdef __cplusplus
}
#endif
#endif
