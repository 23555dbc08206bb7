/* vt/debug.h - the debugger of `vt debug` as a library: breakpoints (by
 * address, symbol or FILE:LINE from the DWARF line table), watchpoints,
 * stepping warps one instruction at a time, inspecting and changing warps,
 * lanes, the SIMT stack, barriers and every memory space, and stopping at
 * faults, deadlocks and budget errors at the faulting instruction
 * (docs/debug.md). It works on a device through its hooks
 * (vt/sim_debug.h); a front end talks to the user whenever it stops: the
 * command line of `vt debug` or the GDB remote stub (vt_gdb_*).
 *
 *   vt_dbg_frontend fe = {stopped, poll, notice, ended, ctx};
 *   vt_dbg *d = vt_dbg_new(device, &fe);
 *   vt_session_set_debugger(session, d);     // launches now stop in d
 *   ... launches (fe.stopped runs inside them) ...
 *   vt_session_finish(...);                   // fe.ended: the program ended
 *   vt_dbg_free(d);
 *
 * Inside fe.stopped, vt_dbg_command runs commands ("break 0x80000010",
 * "print v3", "continue", ...) until one resumes the device. No global
 * state; one thread at a time. */
#ifndef VT_DEBUG_H
#define VT_DEBUG_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "vt/sim.h"
#include "vt/sim_debug.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vt_dbg vt_dbg;

typedef struct vt_dbg_frontend {
  /* The device stopped (vt_dbg_stop_info says why). Run commands; return 0
   * when one resumed the device, -1 to end the program (quit). */
  int (*stopped)(void *ctx, vt_dbg *d);
  /* Called every few thousand instructions while the device runs; non-zero
   * stops it (an interrupt). May be NULL. */
  int (*poll)(void *ctx, vt_dbg *d);
  /* A line of information while running (a launch begins). May be NULL. */
  void (*notice)(void *ctx, vt_dbg *d, const char *text);
  /* The program ended with exit status 'status' (0 or 1): the last chance
   * for commands (memory is still readable). May be NULL. */
  void (*ended)(void *ctx, vt_dbg *d, int status);
  void *ctx;
} vt_dbg_frontend;

/* A debugger on dev (hooks installed; vt_dbg_free removes them). The first
 * launch stops before its first instruction. NULL when out of memory. */
vt_dbg *vt_dbg_new(vt_device *dev, const vt_dbg_frontend *fe);
void vt_dbg_free(vt_dbg *d);
vt_device *vt_dbg_device(vt_dbg *d);

/* Symbols and the DWARF line table of an ELF program (repeatable). 0, or -1
 * with err (a file without a line table is fine). */
int vt_dbg_load_program(vt_dbg *d, const char *elf_path, char *err, size_t errn);
/* Stop the device when *flag becomes non-zero (Ctrl-C); the debugger
 * clears it when it stops. */
void vt_dbg_set_interrupt(vt_dbg *d, volatile sig_atomic_t *flag);

/* Did the user end the program (quit, or GDB's kill)? */
bool vt_dbg_quit_requested(const vt_dbg *d);

/* What runs launches tells the debugger (vt_session does): a launch
 * begins, a launch ended with a status, the program ended (calls
 * fe.ended). */
void vt_dbg_launch_begin(vt_dbg *d, const char *name);
void vt_dbg_launch_end(vt_dbg *d, int status);
void vt_dbg_program_end(vt_dbg *d, int status);

/* Run one command line, writing its output to out. */
typedef enum vt_dbg_cmd_result {
  VT_DBG_STAY,   /* stay stopped (also after an error, which was printed) */
  VT_DBG_RESUME, /* the command resumed the device: return from fe.stopped */
  VT_DBG_QUIT    /* end the program */
} vt_dbg_cmd_result;
vt_dbg_cmd_result vt_dbg_command(vt_dbg *d, const char *line, FILE *out);

/* Why the device stopped. */
typedef enum vt_dbg_stop_kind {
  VT_DBG_STOP_START,      /* before the first instruction of the program */
  VT_DBG_STOP_BREAKPOINT,
  VT_DBG_STOP_WATCHPOINT,
  VT_DBG_STOP_STEP,       /* step, stepi, next */
  VT_DBG_STOP_FINISH,     /* the workgroup of finish ended */
  VT_DBG_STOP_BARRIER,    /* run-to-barrier: the warp executed a barrier */
  VT_DBG_STOP_WARP_ENDED, /* the warp being stepped ended */
  VT_DBG_STOP_INTERRUPT,
  VT_DBG_STOP_FAULT,      /* the launch fails: resuming ends it */
  VT_DBG_STOP_ENDED       /* the program ended */
} vt_dbg_stop_kind;

typedef struct vt_dbg_stop_info {
  vt_dbg_stop_kind kind;
  int breakpoint;          /* number of the breakpoint or watchpoint */
  bool has_warp;           /* a warp is current: */
  unsigned wg, warp, gwarp;/* its workgroup, warp in it, global number (wg x W + warp) */
  vt_error error;          /* VT_DBG_STOP_FAULT: the launch's error */
} vt_dbg_stop_info;
void vt_dbg_stop_info_get(const vt_dbg *d, vt_dbg_stop_info *out);
/* The stop as the command line reports it (reason, location, source line,
 * the instruction), to out. */
void vt_dbg_print_stop(vt_dbg *d, FILE *out);
/* One line: stops by kind, breakpoint and watchpoint hits, launches. */
void vt_dbg_summary(const vt_dbg *d, FILE *out);

/* --- the GDB remote serial protocol (docs/debug.md) --- */
typedef struct vt_gdb vt_gdb;
/* Listen on "[HOST:]PORT" (HOST 127.0.0.1 by default; port 0: any free
 * port) and serve the debugger of dev to one GDB client at a time; the
 * first launch waits for a client. Messages (the address, a warning when
 * HOST is not a loopback address) go to log. NULL with err on failure.
 * The stub owns its vt_dbg (vt_gdb_debugger). */
vt_gdb *vt_gdb_new(vt_device *dev, const char *address, FILE *log, char *err, size_t errn);
void vt_gdb_free(vt_gdb *g);
vt_dbg *vt_gdb_debugger(vt_gdb *g);
unsigned vt_gdb_port(const vt_gdb *g);

#ifdef __cplusplus
}
#endif
#endif
