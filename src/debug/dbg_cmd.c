/* The debugger's commands: one table with names, short forms, usage and
 * help; a command line is its name (a unique prefix or a short form),
 * optionally /FORMAT, and arguments. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dbg_internal.h"

typedef vt_dbg_cmd_result (*cmd_fn)(vt_dbg *d, const char *fmt, char *args, FILE *out);

typedef struct dbg_command {
  const char *name, *alias, *usage, *help;
  cmd_fn fn;
} dbg_command;

static const dbg_command *find_command(const char *name);

static bool running(vt_dbg *d, FILE *out) {
  if (d->state == DBG_IN_LAUNCH && d->in_stop) return true;
  fprintf(out, "error: the program is not running\n");
  return false;
}

/* a resume: the launch ends after a fault whatever the command */
static vt_dbg_cmd_result resume(vt_dbg *d, dbg_mode mode, uint64_t count, FILE *out) {
  if (!running(d, out)) return VT_DBG_STAY;
  if (d->stop.kind == VT_DBG_STOP_FAULT) {
    fprintf(out, "The launch failed; it ends now.\n");
    d->mode = DBG_CONTINUE;
    return VT_DBG_RESUME;
  }
  if (mode != DBG_CONTINUE && !d->cur) {
    fprintf(out, "error: no warp is selected\n");
    return VT_DBG_STAY;
  }
  dbg_resume(d, mode, count);
  return VT_DBG_RESUME;
}

static vt_dbg_cmd_result cmd_continue(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  (void)args;
  return resume(d, DBG_CONTINUE, 0, out);
}

static vt_dbg_cmd_result cmd_step(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  uint64_t n = 1;
  if (*args) {
    char *end;
    unsigned long long v = strtoull(args, &end, 0);
    if (end == args || *dbg_trim(end) || v == 0) {
      fprintf(out, "error: expected a positive count, not '%s'\n", args);
      return VT_DBG_STAY;
    }
    n = v;
  }
  if (d->cur) {
    vt_warp_info wi;
    vt_warp_get_info(d->cur, &wi);
    if (wi.state == VT_WARP_ENDED && d->stop.kind != VT_DBG_STOP_FAULT) {
      fprintf(out, "error: warp %u has ended; select another (info warps)\n",
              dbg_gwarp(d, wi.wg, wi.warp));
      return VT_DBG_STAY;
    }
  }
  return resume(d, DBG_STEP, n, out);
}

/* next: over a divergent region (until the SIMT stack is back at its depth)
 * or a call (until the return address) */
static vt_dbg_cmd_result cmd_next(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  vt_dbg_cmd_result r = cmd_step(d, fmt, args, out);
  if (r != VT_DBG_RESUME || d->mode != DBG_STEP) return r;
  vt_warp_info wi;
  vt_warp_get_info(d->cur, &wi);
  uint64_t bits;
  char text[160];
  unsigned len = dbg_fetch(d, d->cur, wi.pc, &bits, text, sizeof text);
  vt_insn_id id = len == 8 ? vt_decode64(bits) : vt_decode((uint32_t)bits);
  const vt_insn_desc *desc = id == VT_INSN_INVALID ? NULL : vt_isa_insn(id);
  d->mode = DBG_NEXT;
  d->next_pc = 0;
  bool call = desc && (desc->sem == VT_SEM_JAL || desc->sem == VT_SEM_JALR) &&
              ((bits >> 7) & 31) == 1; /* rd = ra */
  if (call) d->next_pc = wi.pc + len;
  return r;
}

static vt_dbg_cmd_result cmd_finish(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  (void)args;
  return resume(d, DBG_FINISH, 0, out);
}

static vt_dbg_cmd_result cmd_barrier(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  (void)args;
  return resume(d, DBG_BARRIER, 0, out);
}

static vt_dbg_cmd_result cmd_quit(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)d;
  (void)fmt;
  (void)args;
  (void)out;
  return VT_DBG_QUIT;
}

/* break LOCATION [if COND]: locations are addresses, symbols or FILE:LINE */
static vt_dbg_cmd_result add_break(vt_dbg *d, char *args, bool temporary, FILE *out) {
  char *cond_text = strstr(args, " if ");
  dbg_cond cond = {-1, -1, -1};
  char err[256];
  if (cond_text) {
    *cond_text = 0;
    if (dbg_parse_cond(cond_text + 4, &cond, err, sizeof err) != 0) {
      fprintf(out, "error: %s\n", err);
      return VT_DBG_STAY;
    }
  }
  char *loc = dbg_trim(args);
  uint32_t addrs[16];
  size_t n = 0;
  char *colon = strrchr(loc, ':');
  if (!*loc) {
    if (!d->cur) {
      fprintf(out, "error: expected a location (ADDRESS, SYMBOL or FILE:LINE)\n");
      return VT_DBG_STAY;
    }
    vt_warp_info wi;
    vt_warp_get_info(d->cur, &wi);
    addrs[n++] = wi.pc;
  } else if (colon && colon != loc && isdigit((unsigned char)colon[1])) {
    char *end;
    unsigned long line = strtoul(colon + 1, &end, 10);
    *colon = 0;
    uint32_t found;
    n = *end ? 0 : dbg_lines_find(&d->lines, loc, (uint32_t)line, addrs, 16, &found);
    if (n == 0) {
      fprintf(out, "error: no code for %s:%s in the line tables%s\n", loc, colon + 1,
              d->lines.nrows ? "" : " (none loaded: assemble or compile with -g)");
      return VT_DBG_STAY;
    }
    if (n > 16) n = 16;
    if (found != line) fprintf(out, "(line %lu has no code; using line %u)\n", line, found);
    *colon = ':';
  } else if (dbg_parse_value(d, loc, &addrs[0], err, sizeof err) == 0) {
    n = 1;
  } else {
    fprintf(out, "error: %s\n", err);
    return VT_DBG_STAY;
  }
  for (size_t i = 0; i < n; i++) {
    int id = dbg_point_add(d, false, temporary, addrs[i], 0, &cond, loc);
    if (id < 0) {
      fprintf(out, "error: out of memory\n");
      return VT_DBG_STAY;
    }
    char sym[96];
    dbg_symbolize(d, addrs[i], sym, sizeof sym);
    const char *file;
    uint32_t line;
    fprintf(out, "%s %d at 0x%08x", temporary ? "Temporary breakpoint" : "Breakpoint", id, addrs[i]);
    if (*sym) fprintf(out, " <%s>", sym);
    if (dbg_lines_at(&d->lines, addrs[i], &file, &line)) fprintf(out, ": %s:%u", file, line);
    fputc('\n', out);
  }
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_break(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  return add_break(d, args, false, out);
}

static vt_dbg_cmd_result cmd_tbreak(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  return add_break(d, args, true, out);
}

static vt_dbg_cmd_result cmd_watch(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  char *cond_text = strstr(args, " if "), err[256];
  dbg_cond cond = {-1, -1, -1};
  if (cond_text) {
    *cond_text = 0;
    if (dbg_parse_cond(cond_text + 4, &cond, err, sizeof err) != 0) {
      fprintf(out, "error: %s\n", err);
      return VT_DBG_STAY;
    }
  }
  char *spec = dbg_trim(args), *colon = strrchr(spec, ':');
  uint32_t addr, len = 4;
  if (colon) {
    char *end;
    unsigned long l = strtoul(colon + 1, &end, 0);
    if (end == colon + 1 || *end || l == 0 || l > 0x10000000u) {
      fprintf(out, "error: expected watch ADDR[:LEN] with LEN from 1 to 0x10000000\n");
      return VT_DBG_STAY;
    }
    len = (uint32_t)l;
    *colon = 0;
  }
  if (!*spec || dbg_parse_value(d, spec, &addr, err, sizeof err) != 0) {
    fprintf(out, "error: %s\n", *spec ? err : "expected watch ADDR[:LEN]");
    return VT_DBG_STAY;
  }
  int id = dbg_point_add(d, true, false, addr, len, &cond, spec);
  if (id < 0) fprintf(out, "error: out of memory\n");
  else fprintf(out, "Watchpoint %d: 0x%08x (%u byte%s)\n", id, addr, len, len == 1 ? "" : "s");
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_delete(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  if (!*args) {
    dbg_point_delete_all(d);
    fprintf(out, "Deleted every breakpoint and watchpoint.\n");
    return VT_DBG_STAY;
  }
  for (char *t = strtok(args, " \t,"); t; t = strtok(NULL, " \t,")) {
    char *end;
    long id = strtol(t, &end, 10);
    if (*end || !dbg_point_delete(d, (int)id)) fprintf(out, "error: no breakpoint number %s\n", t);
  }
  return VT_DBG_STAY;
}

/* warp N / wg N / sm N select a warp */
static vt_dbg_cmd_result select_warp(vt_dbg *d, char *args, char what, FILE *out) {
  char *end;
  unsigned long n = strtoul(args, &end, 0);
  if (!running(d, out)) return VT_DBG_STAY;
  if (end == args || *dbg_trim(end)) {
    fprintf(out, "error: expected a number\n");
    return VT_DBG_STAY;
  }
  size_t count = vt_device_warps(d->dev, NULL, 0);
  vt_warp **all = count ? malloc(count * sizeof *all) : NULL;
  if (all) vt_device_warps(d->dev, all, count);
  bool found = false;
  for (size_t i = 0; all && i < count && !found; i++) {
    vt_warp_info wi;
    vt_warp_get_info(all[i], &wi);
    found = what == 'w' ? dbg_gwarp(d, wi.wg, wi.warp) == n : what == 'g' ? wi.wg == n : wi.sm == n;
    if (found) dbg_select(d, wi.wg, wi.warp);
  }
  free(all);
  if (!found) {
    static const char *const names[] = {"warp", "workgroup", "SM"};
    fprintf(out, "error: no %s %lu is resident (info warps lists them)\n",
            names[what == 'w' ? 0 : what == 'g' ? 1 : 2], n);
    return VT_DBG_STAY;
  }
  dbg_show_location(d, d->cur, out);
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_warp(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  if (!*args && running(d, out)) {
    dbg_show_location(d, d->cur, out);
    return VT_DBG_STAY;
  }
  return *args ? select_warp(d, args, 'w', out) : VT_DBG_STAY;
}
static vt_dbg_cmd_result cmd_wg(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  return select_warp(d, args, 'g', out);
}
static vt_dbg_cmd_result cmd_sm(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  return select_warp(d, args, 's', out);
}

static vt_dbg_cmd_result cmd_info(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  static const char *const topics[] = {"breakpoints", "watchpoints", "warps", "simt",
                                       "barriers", "registers", NULL};
  size_t n = strlen(args);
  int k = -1;
  for (int i = 0; n && topics[i]; i++)
    if (!strncmp(args, topics[i], n) && k < 0) k = i;
  switch (k) {
  case 0: case 1: dbg_points_print(d, out); break;
  case 2: dbg_info_warps(d, out); break;
  case 3: dbg_info_simt(d, out); break;
  case 4: dbg_info_barriers(d, out); break;
  case 5: dbg_info_registers(d, out); break;
  default:
    fprintf(out, "error: info what? (breakpoints, warps, simt, barriers, registers)\n");
  }
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_print(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  if (*fmt && (strlen(fmt) != 1 || !strchr("xduf", fmt[0]))) {
    fprintf(out, "error: bad format '/%s' (x, d, u or f)\n", fmt);
    return VT_DBG_STAY;
  }
  if (!*args) fprintf(out, "error: print what?\n");
  else dbg_cmd_print(d, *fmt ? fmt[0] : 'x', args, out);
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_set(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  if (!strncmp(args, "var ", 4)) args += 4;
  dbg_cmd_set(d, args, out);
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_x(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  if (!*args) fprintf(out, "error: x/NFU ADDRESS\n");
  else dbg_cmd_examine(d, fmt, args, out);
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_disassemble(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  uint32_t addr, start, size;
  char err[256];
  if (*args) {
    if (dbg_parse_value(d, args, &addr, err, sizeof err) != 0) {
      fprintf(out, "error: %s\n", err);
      return VT_DBG_STAY;
    }
  } else if (d->cur) {
    vt_warp_info wi;
    vt_warp_get_info(d->cur, &wi);
    addr = wi.pc;
  } else {
    fprintf(out, "error: disassemble ADDRESS (no warp is selected)\n");
    return VT_DBG_STAY;
  }
  if (dbg_function_at(d, addr, &start, &size) && (!*args || start == addr)) {
    unsigned n = size / 4 > 256 ? 256 : size / 4;
    fprintf(out, "Dump of 0x%08x .. 0x%08x:\n", start, start + size);
    dbg_disassemble(d, start, n ? n : 1, out);
  } else {
    uint32_t from = *args ? addr : addr - 16;
    fprintf(out, "Dump of 0x%08x .. 0x%08x:\n", from, from + 40);
    dbg_disassemble(d, from, 10, out);
  }
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_trace(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  char *words[3] = {NULL, NULL, NULL};
  int n = 0;
  for (char *t = strtok(args, " \t"); t && n < 3; t = strtok(NULL, " \t")) words[n++] = t;
  vt_trace_format format = VT_TRACE_TEXT;
  if (n >= 1 && !strcmp(words[0], "off") && n == 1) {
    if (d->trace) fclose(d->trace);
    vt_trace_writer_free(d->tracer);
    d->trace = NULL;
    d->tracer = NULL;
    fprintf(out, "Tracing off.\n");
    return VT_DBG_STAY;
  }
  if (n < 2 || strcmp(words[0], "on") || (n == 3 && vt_trace_format_parse(words[2], &format))) {
    fprintf(out, "error: trace on FILE [text|spike], or trace off\n");
    return VT_DBG_STAY;
  }
  FILE *f = fopen(words[1], "w");
  vt_trace_writer *t = f ? vt_trace_writer_new(f, format) : NULL;
  if (!t) {
    fprintf(out, "error: cannot write %s\n", words[1]);
    if (f) fclose(f);
    return VT_DBG_STAY;
  }
  if (d->trace) fclose(d->trace);
  vt_trace_writer_free(d->tracer);
  d->trace = f;
  d->tracer = t;
  fprintf(out, "Tracing to %s (%s format).\n", words[1], format == VT_TRACE_SPIKE ? "spike" : "text");
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_stats(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)fmt;
  (void)args;
  vt_stats_report(vt_device_stats(d->dev), out);
  return VT_DBG_STAY;
}

static vt_dbg_cmd_result cmd_help(vt_dbg *d, const char *fmt, char *args, FILE *out);

static const dbg_command commands[] = {
    {"break", "b", "break LOCATION [if warp=N wg=N sm=N]",
     "stop when a warp reaches LOCATION (ADDRESS, SYMBOL or FILE:LINE; none: the current pc)",
     cmd_break},
    {"tbreak", "tb", "tbreak LOCATION [if ...]", "a breakpoint deleted when it is hit", cmd_tbreak},
    {"watch", NULL, "watch ADDRESS[:LEN] [if ...]",
     "stop after any lane stores into [ADDRESS, ADDRESS+LEN) (LEN 4 by default)", cmd_watch},
    {"delete", "d", "delete [N...]", "delete breakpoints and watchpoints (all without N)", cmd_delete},
    {"info", "i", "info breakpoints|warps|simt|barriers|registers",
     "breakpoints; every resident warp; the current warp's SIMT stack; barriers per workgroup; "
     "scalar registers",
     cmd_info},
    {"step", "s", "step [N]", "run until the current warp executed N instructions (default 1)",
     cmd_step},
    {"stepi", "si", "stepi [N]", "the same as step", cmd_step},
    {"next", "n", "next [N]",
     "step over a divergent region (back at the SIMT depth) or a call (back at the return "
     "address)",
     cmd_next},
    {"continue", "c", "continue", "run until a breakpoint, watchpoint, fault or Ctrl-C",
     cmd_continue},
    {"finish", "fin", "finish", "run until the current workgroup ended", cmd_finish},
    {"run-to-barrier", "rb", "run-to-barrier",
     "run until the current warp executed a barrier", cmd_barrier},
    {"warp", "w", "warp [N]", "select warp N (info warps numbers them) or show the current one",
     cmd_warp},
    {"wg", NULL, "wg N", "select the first resident warp of workgroup N", cmd_wg},
    {"sm", NULL, "sm N", "select the first resident warp on SM N", cmd_sm},
    {"print", "p", "print[/x|d|u|f] x5|v3|v3[7]|csr NAME|pc|mask|EXPR",
     "a register of the current warp (v: per lane, inactive lanes marked) or a value", cmd_print},
    {"set", NULL, "set x5|v3[7]|v3|csr NAME|pc|*[lds:|priv:LANE:]ADDRESS = VALUE",
     "change a register (v3: its active lanes) or a memory word; a number with a '.' is a "
     "float",
     cmd_set},
    {"x", NULL, "x/NFU [lds:|priv:LANE:]ADDRESS",
     "examine N units (b h w) of memory as x d u f, or i for instructions", cmd_x},
    {"disassemble", "disas", "disassemble [ADDRESS|SYMBOL]",
     "the function around the pc (or ADDRESS) with => at the current instruction",
     cmd_disassemble},
    {"trace", NULL, "trace on FILE [text|spike] | trace off",
     "write every executed instruction to FILE", cmd_trace},
    {"stats", NULL, "stats", "the counters so far", cmd_stats},
    {"help", "h", "help [COMMAND]", "the commands, or one command", cmd_help},
    {"quit", "q", "quit", "end the program and the debugger", cmd_quit},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const dbg_command *find_command(const char *name) {
  const dbg_command *prefix = NULL;
  size_t n = strlen(name), matches = 0;
  for (size_t i = 0; i < NCOMMANDS; i++) {
    if (!strcmp(name, commands[i].name) || (commands[i].alias && !strcmp(name, commands[i].alias)))
      return &commands[i];
    if (n && !strncmp(name, commands[i].name, n)) {
      prefix = &commands[i];
      matches++;
    }
  }
  return matches == 1 ? prefix : NULL;
}

static vt_dbg_cmd_result cmd_help(vt_dbg *d, const char *fmt, char *args, FILE *out) {
  (void)d;
  (void)fmt;
  if (*args) {
    const dbg_command *c = find_command(args);
    if (!c) fprintf(out, "error: no command '%s'\n", args);
    else fprintf(out, "%s\n  %s%s%s%s\n", c->usage, c->help, c->alias ? " (short: " : "",
                 c->alias ? c->alias : "", c->alias ? ")" : "");
    return VT_DBG_STAY;
  }
  fprintf(out, "Commands (a unique prefix or the short form in brackets also works):\n");
  for (size_t i = 0; i < NCOMMANDS; i++) {
    char name[40];
    snprintf(name, sizeof name, "%s%s%s%s", commands[i].name, commands[i].alias ? " [" : "",
             commands[i].alias ? commands[i].alias : "", commands[i].alias ? "]" : "");
    fprintf(out, "  %-22s %s\n", name, commands[i].help);
  }
  return VT_DBG_STAY;
}

bool dbg_command_resumes(const char *line) {
  char name[64];
  size_t n = 0;
  while (line[n] == ' ' || line[n] == '\t') n++;
  line += n;
  for (n = 0; line[n] && line[n] != ' ' && line[n] != '\t' && line[n] != '/' && n < 63; n++)
    name[n] = line[n];
  name[n] = 0;
  const dbg_command *c = find_command(name);
  return c && (c->fn == cmd_continue || c->fn == cmd_step || c->fn == cmd_next ||
               c->fn == cmd_finish || c->fn == cmd_barrier || c->fn == cmd_quit);
}

vt_dbg_cmd_result vt_dbg_command(vt_dbg *d, const char *line, FILE *out) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", line);
  char *s = dbg_trim(buf);
  if (!*s || *s == '#') return VT_DBG_STAY;
  size_t n = 0;
  while (s[n] && !isspace((unsigned char)s[n]) && s[n] != '/') n++;
  char name[64], fmt[32] = "";
  snprintf(name, sizeof name, "%.*s", (int)(n < sizeof name ? n : sizeof name - 1), s);
  char *args = s + n;
  if (*args == '/') {
    size_t k = 1;
    while (args[k] && !isspace((unsigned char)args[k])) k++;
    snprintf(fmt, sizeof fmt, "%.*s", (int)(k - 1 < sizeof fmt ? k - 1 : sizeof fmt - 1), args + 1);
    args += k;
  }
  args = dbg_trim(args);
  const dbg_command *c = find_command(name);
  if (!c) {
    fprintf(out, "error: unknown command '%s' (help lists the commands)\n", name);
    return VT_DBG_STAY;
  }
  if (*fmt && c->fn != cmd_print && c->fn != cmd_x) {
    fprintf(out, "error: %s takes no /FORMAT\n", c->name);
    return VT_DBG_STAY;
  }
  return c->fn(d, fmt, args, out);
}
