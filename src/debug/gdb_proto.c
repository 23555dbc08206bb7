/* The requests of the GDB remote protocol on a stopped device: registers of
 * the selected warp and lane (g, G, p, P), memory (m, M), breakpoints and
 * write watchpoints (Z0/Z1/Z2, z), threads = warps (H, T; thread id =
 * global warp number + 1), stepping and continuing (s, c, vCont), detach
 * and kill; the q packets are in gdb_query.c. A malformed request gets an
 * error reply (E01 malformed, E02 too long, E03 no such register or
 * thread, E14 memory not accessible); an unknown one the empty reply. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdb_internal.h"

int gdb_session_init(gdb_session *s, vt_dbg *d) {
  memset(s, 0, sizeof *s);
  s->d = d;
  s->xml = gdb_target_xml(&s->xml_len);
  return s->xml ? 0 : -1;
}

void gdb_session_free(gdb_session *s) {
  free(s->xml);
  s->xml = NULL;
}

void gdb_reply(gdb_buf *out, const char *data) { gdb_frame(out, data, strlen(data)); }

bool gdb_select_thread(gdb_session *s, uint64_t tid) {
  vt_dbg *d = s->d;
  if (tid == 0 || !d->warps_per_wg || tid > 0xffffffffu) return false;
  unsigned g = (unsigned)(tid - 1);
  return dbg_select(d, g / d->warps_per_wg, g % d->warps_per_wg);
}

unsigned gdb_current_tid(const gdb_session *s) {
  const vt_dbg *d = s->d;
  return d->has_cur ? dbg_gwarp(d, d->cur_wg, d->cur_warp) + 1 : 1;
}

void gdb_stop_reply(gdb_session *s, gdb_buf *data) {
  vt_dbg *d = s->d;
  switch (d->stop.kind) {
  case VT_DBG_STOP_ENDED:
    gdb_buf_printf(data, "W%02x", d->program_status ? 1 : 0);
    return;
  case VT_DBG_STOP_BREAKPOINT:
    gdb_buf_printf(data, "T05swbreak:;thread:%x;", gdb_current_tid(s));
    return;
  case VT_DBG_STOP_WATCHPOINT:
    gdb_buf_printf(data, "T05watch:%x;thread:%x;", d->watch_hit.st[0].addr, gdb_current_tid(s));
    return;
  case VT_DBG_STOP_INTERRUPT:
    gdb_buf_printf(data, "T02thread:%x;", gdb_current_tid(s));
    return;
  case VT_DBG_STOP_FAULT: {
    /* SIGILL, SIGSEGV, SIGBUS, SIGTRAP (ecall), SIGABRT (deadlock, budget, ...) */
    int st = d->stop.error.status;
    int sig = st == VT_ERR_ILLEGAL || st == VT_ERR_VILL ? 4 : st == VT_ERR_ACCESS ? 11
            : st == VT_ERR_MISALIGNED ? 7 : st == VT_ERR_ECALL ? 5 : 6;
    gdb_buf_printf(data, "T%02xthread:%x;", sig, gdb_current_tid(s));
    return;
  }
  default:
    gdb_buf_printf(data, "T05thread:%x;", gdb_current_tid(s));
  }
}

static void read_registers(gdb_session *s, gdb_buf *out) {
  gdb_buf data = {0};
  for (unsigned r = 0; r <= GDB_REG_PC; r++) {
    uint32_t v = 0;
    if (gdb_reg_get(s->d, r, &v)) gdb_buf_reg(&data, v);
    else gdb_buf_puts(&data, "xxxxxxxx");
  }
  gdb_frame(out, data.p ? data.p : "", data.len);
  gdb_buf_free(&data);
}

static uint32_t le32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void write_registers(gdb_session *s, const char *p, size_t n, gdb_buf *out) {
  if (n % 8 || n / 8 > GDB_REG_PC + 1 || !s->d->cur) {
    gdb_reply(out, s->d->cur ? "E01" : "E03");
    return;
  }
  uint8_t b[4];
  for (size_t r = 0; r < n / 8; r++) {
    if (!gdb_hex_bytes(p + 8 * r, 4, b)) {
      gdb_reply(out, "E01");
      return;
    }
  }
  for (size_t r = 0; r < n / 8; r++) {
    gdb_hex_bytes(p + 8 * r, 4, b);
    gdb_reg_set(s->d, (unsigned)r, le32(b));
  }
  gdb_reply(out, "OK");
}

/* p N / P N=V */
static void one_register(gdb_session *s, const char *p, const char *end, bool write, gdb_buf *out) {
  uint64_t num;
  if (!gdb_hex_number(&p, end, 8, &num) || (write ? p >= end || *p++ != '=' : p != end)) {
    gdb_reply(out, "E01");
    return;
  }
  uint32_t v = 0;
  if (write) {
    uint8_t b[4];
    if (end - p != 8 || !gdb_hex_bytes(p, 4, b)) {
      gdb_reply(out, "E01");
      return;
    }
    gdb_reply(out, num <= 0xffffffffu && gdb_reg_set(s->d, (unsigned)num, le32(b)) ? "OK" : "E03");
    return;
  }
  if (num > 0xffffffffu || !gdb_reg_get(s->d, (unsigned)num, &v)) {
    gdb_reply(out, "E03");
    return;
  }
  gdb_buf data = {0};
  gdb_buf_reg(&data, v);
  gdb_frame(out, data.p ? data.p : "", data.len);
  gdb_buf_free(&data);
}

bool gdb_addr_len(const char **p, const char *end, uint32_t *addr, uint32_t *len) {
  uint64_t a, l;
  if (!gdb_hex_number(p, end, 8, &a) || *p >= end || *(*p)++ != ',' ||
      !gdb_hex_number(p, end, 8, &l) || l > GDB_MAX_PACKET / 2)
    return false;
  *addr = (uint32_t)a;
  *len = (uint32_t)l;
  return true;
}

static void memory(gdb_session *s, const char *p, const char *end, bool write, gdb_buf *out) {
  uint32_t addr, len;
  if (!gdb_addr_len(&p, end, &addr, &len) || (write ? p >= end || *p++ != ':' ||
                                                      (size_t)(end - p) != 2 * (size_t)len
                                                : p != end)) {
    gdb_reply(out, "E01");
    return;
  }
  uint8_t *buf = malloc(len ? len : 1);
  if (!buf || (write && !gdb_hex_bytes(p, len, buf))) {
    gdb_reply(out, buf ? "E01" : "E0c");
    free(buf);
    return;
  }
  int rc = write ? vt_debug_mem_write(s->d->dev, s->d->cur, VT_SPACE_GLOBAL, 0, addr, buf, len, NULL)
                 : vt_debug_mem_read(s->d->dev, s->d->cur, VT_SPACE_GLOBAL, 0, addr, buf, len, NULL);
  if (rc != VT_OK) {
    gdb_reply(out, "E14");
  } else if (write) {
    gdb_reply(out, "OK");
  } else {
    gdb_buf data = {0};
    gdb_buf_hex(&data, buf, len);
    gdb_frame(out, data.p ? data.p : "", data.len);
    gdb_buf_free(&data);
  }
  free(buf);
}

/* Z/z TYPE,ADDR,KIND: software and hardware breakpoints, write watchpoints */
static void points(gdb_session *s, const char *p, const char *end, bool insert, gdb_buf *out) {
  uint64_t type, addr, kind;
  if (!gdb_hex_number(&p, end, 1, &type) || p >= end || *p++ != ',' ||
      !gdb_hex_number(&p, end, 8, &addr) || p >= end || *p++ != ',' ||
      !gdb_hex_number(&p, end, 8, &kind) || (p != end && *p != ';')) {
    gdb_reply(out, "E01");
    return;
  }
  if (type > 2) {
    gdb_reply(out, ""); /* read and access watchpoints: not supported */
    return;
  }
  bool watch = type == 2;
  if (watch && (kind == 0 || kind > 0x10000000u)) {
    gdb_reply(out, "E01");
    return;
  }
  vt_dbg *d = s->d;
  if (insert) {
    char what[32];
    snprintf(what, sizeof what, "gdb Z%u", (unsigned)type);
    gdb_reply(out, dbg_point_add(d, watch, false, (uint32_t)addr, watch ? (uint32_t)kind : 0, NULL,
                             what) > 0 ? "OK" : "E0c");
    return;
  }
  for (size_t i = 0; i < d->npoints; i++)
    if (d->points[i].watch == watch && d->points[i].addr == addr) {
      dbg_point_delete(d, d->points[i].id);
      break;
    }
  gdb_reply(out, "OK");
}

/* GDB's RISC-V port single-steps by planting a breakpoint after the
 * instruction and continuing. After a Ventus vector branch or join the
 * warp may go elsewhere (the taken lanes first, a pop), which GDB cannot
 * know: a continue from such an instruction with a breakpoint right after
 * it is taken for what it is, a step of the warp (docs/debug.md). */
static bool gdb_step_guess(vt_dbg *d) {
  if (!d->cur) return false;
  vt_warp_info wi;
  vt_warp_get_info(d->cur, &wi);
  uint64_t bits;
  char text[160];
  unsigned len = dbg_fetch(d, d->cur, wi.pc, &bits, text, sizeof text);
  vt_insn_id id = len == 8 ? vt_decode64(bits) : len ? vt_decode((uint32_t)bits) : VT_INSN_INVALID;
  const vt_insn_desc *desc = id == VT_INSN_INVALID ? NULL : vt_isa_insn(id);
  if (!desc || (desc->exec_class != VT_EX_VBRANCH && desc->sem != VT_SEM_JOIN)) return false;
  for (size_t i = 0; i < d->npoints; i++)
    if (!d->points[i].watch && d->points[i].addr == wi.pc + len) return true;
  return false;
}

/* resume: step the current warp, or continue */
static gdb_action resume(gdb_session *s, bool step, gdb_buf *out) {
  vt_dbg *d = s->d;
  if (d->state != DBG_IN_LAUNCH || !d->in_stop) {
    gdb_reply(out, "E03");
    return GDB_REPLIED;
  }
  if (!step) step = gdb_step_guess(d);
  if (d->stop.kind == VT_DBG_STOP_FAULT) d->mode = DBG_CONTINUE; /* the launch ends */
  else dbg_resume(d, step && d->cur ? DBG_STEP : DBG_CONTINUE, 1);
  return GDB_RESUME;
}

/* vCont;ACTION[:TID]...: one warp steps (s, S) while the others run, or all
 * continue (c, C); signals are ignored. Advertising it makes GDB step with
 * the stub instead of planting breakpoints after a guessed next pc, which
 * a vector branch would defeat. */
static gdb_action vcont(gdb_session *s, const char *p, const char *end, gdb_buf *out) {
  bool step = false, ok = true;
  uint64_t tid = 0;
  while (p < end && ok) {
    if (*p++ != ';' || p >= end) {
      ok = false;
      break;
    }
    char a = *p++;
    uint64_t sig, t = 0;
    if ((a == 'C' || a == 'S') && !gdb_hex_number(&p, end, 2, &sig)) ok = false;
    if (a != 'c' && a != 's' && a != 'C' && a != 'S') ok = false;
    if (ok && p < end && *p == ':') {
      p++;
      bool all = end - p >= 2 && p[0] == '-' && p[1] == '1';
      if (all) p += 2;
      else if (!gdb_hex_number(&p, end, 8, &t)) ok = false;
    }
    if (ok && (a == 's' || a == 'S') && !step) {
      step = true;
      tid = t;
    }
  }
  if (!ok) {
    gdb_reply(out, "E01");
    return GDB_REPLIED;
  }
  if (step && tid && !gdb_select_thread(s, tid)) {
    gdb_reply(out, "E03");
    return GDB_REPLIED;
  }
  return resume(s, step, out);
}

/* H g|c TID */
static void set_thread(gdb_session *s, const char *p, const char *end, gdb_buf *out) {
  if (p >= end || (*p != 'g' && *p != 'c')) {
    gdb_reply(out, "E01");
    return;
  }
  char op = *p++;
  uint64_t tid = 0;
  bool all = end - p == 2 && p[0] == '-' && p[1] == '1';
  if (!all && (!gdb_hex_number(&p, end, 8, &tid) || p != end)) {
    gdb_reply(out, "E01");
    return;
  }
  if (op == 'c') {
    s->step_thread = all ? -1 : (int)(tid > 0x7fffffff ? 0 : tid);
    gdb_reply(out, "OK");
  } else {
    gdb_reply(out, all || tid == 0 || gdb_select_thread(s, tid) ? "OK" : "E03");
  }
}

gdb_action gdb_handle(gdb_session *s, const char *pkt, size_t n, gdb_buf *out) {
  const char *p = pkt, *end = pkt + n;
  vt_dbg *d = s->d;
  if (n == 0) {
    gdb_reply(out, "");
    return GDB_REPLIED;
  }
  switch (*p) {
  case '?': {
    gdb_buf data = {0};
    gdb_stop_reply(s, &data);
    gdb_frame(out, data.p ? data.p : "", data.len);
    gdb_buf_free(&data);
    return GDB_REPLIED;
  }
  case 'g':
    if (n == 1) read_registers(s, out);
    else gdb_reply(out, "E01");
    return GDB_REPLIED;
  case 'G': write_registers(s, p + 1, n - 1, out); return GDB_REPLIED;
  case 'p': one_register(s, p + 1, end, false, out); return GDB_REPLIED;
  case 'P': one_register(s, p + 1, end, true, out); return GDB_REPLIED;
  case 'm': memory(s, p + 1, end, false, out); return GDB_REPLIED;
  case 'M': memory(s, p + 1, end, true, out); return GDB_REPLIED;
  case 'Z': points(s, p + 1, end, true, out); return GDB_REPLIED;
  case 'z': points(s, p + 1, end, false, out); return GDB_REPLIED;
  case 'H': set_thread(s, p + 1, end, out); return GDB_REPLIED;
  case 'T': {
    uint64_t tid;
    const char *q = p + 1;
    bool had = d->has_cur;
    unsigned wg = d->cur_wg, warp = d->cur_warp;
    bool alive = gdb_hex_number(&q, end, 8, &tid) && q == end && gdb_select_thread(s, tid);
    if (had) dbg_select(d, wg, warp);
    gdb_reply(out, alive ? "OK" : "E03");
    return GDB_REPLIED;
  }
  case 'q': gdb_query(s, p, end, out); return GDB_REPLIED;
  case 'c': case 's': {
    uint64_t addr;
    const char *q = p + 1;
    if (n > 1 && (!gdb_hex_number(&q, end, 8, &addr) || q != end)) {
      gdb_reply(out, "E01");
      return GDB_REPLIED;
    }
    if (*p == 's' && s->step_thread > 0) gdb_select_thread(s, (uint64_t)s->step_thread);
    if (n > 1 && d->cur && d->in_stop) vt_warp_set_pc(d->cur, (uint32_t)addr); /* resume at addr */
    return resume(s, *p == 's', out);
  }
  case 'v':
    if (n == 6 && !memcmp(p, "vCont?", 6)) gdb_reply(out, "vCont;c;C;s;S");
    else if (gdb_starts(p, end, "vCont;")) return vcont(s, p + 5, end, out);
    else gdb_reply(out, "");
    return GDB_REPLIED;
  case 'D':
    dbg_point_delete_all(d);
    d->mode = DBG_DETACHED;
    gdb_reply(out, "OK");
    return GDB_DETACH;
  case 'k': return GDB_KILL;
  default: gdb_reply(out, ""); return GDB_REPLIED;
  }
}
