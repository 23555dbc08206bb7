/* Internal state of the debugger (vt/debug.h): breakpoints and
 * watchpoints, how far a resumed device runs, the current warp, symbols
 * and line tables. */
#ifndef VT_DBG_INTERNAL_H
#define VT_DBG_INTERNAL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vt/debug.h"
#include "vt/elf.h"
#include "vt/isa.h"
#include "vt/trace.h"

/* --- DWARF line tables (dbg_lines.c) --- */
typedef struct dbg_row {
  uint32_t addr, line;
  uint32_t file; /* index into dbg_lines.files */
  bool end;      /* end of a sequence: no code from addr on */
  bool first;    /* the first row of its line in program order */
  uint32_t order; /* position in the table (ties in the sort) */
} dbg_row;

typedef struct dbg_lines {
  dbg_row *rows; /* sorted by address */
  size_t nrows, cap;
  char **files;  /* names as the table gives them (directory joined) */
  size_t nfiles, fcap;
} dbg_lines;

/* Add the line table of elf's .debug_line (absent: nothing). 0, or -1 with
 * err for a malformed table (rows read so far are kept). */
int dbg_lines_load(dbg_lines *L, const vt_elf *elf, char *err, size_t errn);
void dbg_lines_free(dbg_lines *L);
/* The row covering pc: file name and line; false when none does. */
bool dbg_lines_at(const dbg_lines *L, uint32_t pc, const char **file, uint32_t *line);
/* The first addresses of the first line >= line of file (matched by name
 * or by its last path components) that has code; returns how many (up to
 * max into addrs) and that line in *found. */
size_t dbg_lines_find(const dbg_lines *L, const char *file, uint32_t line, uint32_t *addrs,
                      size_t max, uint32_t *found);

/* --- breakpoints and watchpoints --- */
typedef struct dbg_cond {
  int warp, wg, sm; /* -1: any */
} dbg_cond;

typedef struct dbg_point {
  int id;
  bool watch, temporary;
  uint32_t addr, len;   /* breakpoint: len 0 */
  dbg_cond cond;
  unsigned hits;
  char what[160];       /* how the user named it */
} dbg_point;

/* How far the device runs after a resume. */
typedef enum dbg_mode {
  DBG_CONTINUE,  /* until a breakpoint, watchpoint, fault or interrupt */
  DBG_STEP,      /* until the target warp executed target_count instructions */
  DBG_NEXT,      /* until the target warp is back at next_depth (and next_pc) */
  DBG_FINISH,    /* until the target workgroup ended */
  DBG_BARRIER,   /* until the target warp executed a barrier */
  DBG_DETACHED   /* no more stops */
} dbg_mode;

/* what a watchpoint saw: the stores of one instruction into its range */
typedef struct dbg_store {
  uint32_t addr, value;
  uint8_t size, lane;
} dbg_store;
typedef struct dbg_watch_hit {
  unsigned n, total; /* stores kept in st, stores into the range */
  dbg_store st[8];
  uint32_t pc;
} dbg_watch_hit;

enum { DBG_IDLE, DBG_IN_LAUNCH, DBG_ENDED };

struct vt_dbg {
  vt_device *dev;
  vt_dbg_frontend fe;
  volatile sig_atomic_t *interrupt;
  /* programs: symbols and line tables */
  vt_elf **elfs;
  size_t nelfs;
  dbg_lines lines;
  /* breakpoints and watchpoints */
  dbg_point *points;
  size_t npoints, cap;
  int next_id;
  bool any_watch;
  /* run state */
  int state;
  bool started, quitting, in_stop;
  unsigned launches, warps_per_wg;
  char launch_name[128];
  int program_status;
  uint64_t since_poll;
  /* the current warp; cur is valid only during a stop */
  bool has_cur;
  unsigned cur_wg, cur_warp;
  vt_warp *cur;
  unsigned lane; /* the lane the GDB stub shows */
  /* resume */
  dbg_mode mode;
  unsigned tgt_wg, tgt_warp;
  uint64_t tgt_count;
  unsigned next_depth;
  uint32_t next_pc; /* 0: any */
  /* the last stop */
  vt_dbg_stop_info stop;
  bool stop_temporary; /* the breakpoint of the stop was a tbreak */
  dbg_watch_hit watch_hit;
  /* trace on FILE */
  FILE *trace;
  vt_trace_writer *tracer;
  /* statistics */
  unsigned stops[VT_DBG_STOP_ENDED + 1];
};

/* dbg_core.c */
vt_warp *dbg_find(vt_dbg *d, unsigned wg, unsigned warp);
/* select warp (wg, warp); false when it is not resident */
bool dbg_select(vt_dbg *d, unsigned wg, unsigned warp);
/* the global number of a warp: wg x warps per workgroup + warp */
unsigned dbg_gwarp(const vt_dbg *d, unsigned wg, unsigned warp);
/* resumes: set the mode for the current warp */
void dbg_resume(vt_dbg *d, dbg_mode mode, uint64_t count);

/* dbg_points.c */
int dbg_point_add(vt_dbg *d, bool watch, bool temporary, uint32_t addr, uint32_t len,
                  const dbg_cond *c, const char *what);
bool dbg_point_delete(vt_dbg *d, int id);
void dbg_point_delete_all(vt_dbg *d);
/* the breakpoint at w's pc whose condition w meets (NULL: none) */
dbg_point *dbg_break_at(vt_dbg *d, const vt_warp_info *wi);
/* the watchpoint one of ev's stores hits, with the stores into *hit */
dbg_point *dbg_watch_check(vt_dbg *d, const vt_trace_event *ev, dbg_watch_hit *hit);
void dbg_points_print(const vt_dbg *d, FILE *out);

/* dbg_symbols.c */
/* the symbol containing or just below addr and the offset from it; NULL:
 * none */
const char *dbg_symbol_near(const vt_dbg *d, uint32_t addr, uint32_t *offset);
/* "name" or "name+16" for addr, "" when no symbol is near */
void dbg_symbolize(const vt_dbg *d, uint32_t addr, char *buf, size_t n);
bool dbg_symbol(const vt_dbg *d, const char *name, uint32_t *value, uint32_t *size);
/* the function (symbol with a size) containing addr */
bool dbg_function_at(const vt_dbg *d, uint32_t addr, uint32_t *start, uint32_t *size);

/* dbg_show.c: output of the inspection commands */
/* the instruction at pc as w sees memory: its length (4 or 8; 0 when
 * unreadable), its bits and its disassembly */
unsigned dbg_fetch(vt_dbg *d, const vt_warp *w, uint32_t pc, uint64_t *bits, char *text,
                   size_t n);
void dbg_show_location(vt_dbg *d, vt_warp *w, FILE *out);
void dbg_show_insn(vt_dbg *d, const vt_warp *w, uint32_t pc, bool current, FILE *out);
void dbg_info_warps(vt_dbg *d, FILE *out);
void dbg_info_simt(vt_dbg *d, FILE *out);
void dbg_info_barriers(vt_dbg *d, FILE *out);
void dbg_info_registers(vt_dbg *d, FILE *out);
/* the disassembly of n instructions from addr ("=>" at the current pc) */
void dbg_disassemble(vt_dbg *d, uint32_t addr, unsigned n, FILE *out);

/* dbg_cmd.c: does the command line resume the device (or quit)? */
bool dbg_command_resumes(const char *line);

/* dbg_print.c: print, set, x */
int dbg_cmd_print(vt_dbg *d, char fmt, const char *args, FILE *out);
int dbg_cmd_set(vt_dbg *d, const char *args, FILE *out);
int dbg_cmd_examine(vt_dbg *d, const char *spec, const char *args, FILE *out);

/* dbg_expr.c: numbers, addresses and locations in commands */
/* a number (decimal, 0x hex, negative) or a symbol or register value,
 * with +/- offsets; 0 or -1 with err */
int dbg_parse_value(vt_dbg *d, const char *s, uint32_t *v, char *err, size_t errn);
/* a memory operand: [lds:|priv:LANE:]ADDR */
int dbg_parse_address(vt_dbg *d, const char *s, vt_mem_space *space, unsigned *lane,
                      uint32_t *addr, char *err, size_t errn);
/* "if warp=N wg=N sm=N" (s points after "if") */
int dbg_parse_cond(const char *s, dbg_cond *c, char *err, size_t errn);
/* trimmed copy of s into buf */
char *dbg_trim(char *s);

#define DBG_MAX_WARPS 4096u /* resident warps the commands list */
#endif
