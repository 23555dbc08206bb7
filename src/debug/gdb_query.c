/* The queries of the GDB remote protocol (q packets): qSupported, the
 * target description (qXfer:features:read), threads = warps (qfThreadInfo,
 * qsThreadInfo, qC, qThreadExtraInfo) and monitor commands (qRcmd: lane,
 * warp, simt, barriers, and every debugger command that does not resume
 * the device, docs/debug.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdb_internal.h"

static void thread_list(gdb_session *s, gdb_buf *out) {
  vt_dbg *d = s->d;
  size_t n = d->state == DBG_IN_LAUNCH ? vt_device_warps(d->dev, NULL, 0) : 0;
  if (n > DBG_MAX_WARPS) n = DBG_MAX_WARPS;
  vt_warp **all = n ? malloc(n * sizeof *all) : NULL;
  gdb_buf data = {0};
  if (all) vt_device_warps(d->dev, all, n);
  for (size_t i = 0; all && i < n; i++) {
    vt_warp_info wi;
    vt_warp_get_info(all[i], &wi);
    gdb_buf_printf(&data, "%c%x", i ? ',' : 'm', dbg_gwarp(d, wi.wg, wi.warp) + 1);
  }
  free(all);
  if (!data.len) gdb_buf_puts(&data, "l");
  gdb_frame(out, data.p, data.len);
  gdb_buf_free(&data);
}

static void thread_info(gdb_session *s, const char *p, const char *end, gdb_buf *out) {
  uint64_t tid;
  vt_dbg *d = s->d;
  bool had = d->has_cur;
  unsigned wg = d->cur_wg, warp = d->cur_warp;
  if (!gdb_hex_number(&p, end, 8, &tid) || p != end || !gdb_select_thread(s, tid)) {
    gdb_reply(out, "E03");
    return;
  }
  vt_warp_info wi;
  vt_warp_get_info(d->cur, &wi);
  char text[160];
  snprintf(text, sizeof text, "SM %u, WG %u, warp %u, %s, mask %08x, SIMT depth %u", wi.sm, wi.wg,
           wi.warp, wi.state == VT_WARP_RUNNING ? "running" : wi.state == VT_WARP_ENDED ? "ended"
                                                                                    : "at barrier",
           wi.mask, wi.simt_depth);
  if (had) dbg_select(d, wg, warp);
  gdb_buf data = {0};
  gdb_buf_hex(&data, text, strlen(text));
  gdb_frame(out, data.p, data.len);
  gdb_buf_free(&data);
}

/* qXfer:features:read:target.xml:OFFSET,LENGTH */
static void features(gdb_session *s, const char *p, const char *end, gdb_buf *out) {
  static const char annex[] = "target.xml:";
  uint32_t off, len;
  if ((size_t)(end - p) < sizeof annex - 1 || memcmp(p, annex, sizeof annex - 1) != 0) {
    gdb_reply(out, "E00");
    return;
  }
  p += sizeof annex - 1;
  if (!gdb_addr_len(&p, end, &off, &len) || p != end) {
    gdb_reply(out, "E01");
    return;
  }
  if (off >= s->xml_len) {
    gdb_reply(out, "l");
    return;
  }
  size_t n = s->xml_len - off < len ? s->xml_len - off : len;
  gdb_buf data = {0};
  gdb_buf_puts(&data, off + n < s->xml_len ? "m" : "l");
  gdb_buf_put(&data, s->xml + off, n);
  gdb_frame(out, data.p, data.len);
  gdb_buf_free(&data);
}

/* a monitor command: lane [N], warp, simt, barriers, or any debugger
 * command that does not resume the device */
static void run_monitor(vt_dbg *d, char *cmd, FILE *out) {
  char *c = dbg_trim(cmd);
  if (!strncmp(c, "lane", 4) && (!c[4] || c[4] == ' ')) {
    char *arg = dbg_trim(c + 4), *e;
    vt_warp_info wi = {0};
    if (d->cur) vt_warp_get_info(d->cur, &wi);
    unsigned long l = strtoul(arg, &e, 0);
    if (*arg && (*e || e == arg || !d->cur || l >= wi.lanes)) {
      fprintf(out, "error: expected a lane below %u\n", d->cur ? wi.lanes : 0);
      return;
    }
    if (*arg) d->lane = (unsigned)l;
    fprintf(out, "Lane %u: the v registers show its elements%s.\n", d->lane,
            *arg ? " (GDB caches registers: maint flush register-cache)" : "");
    return;
  }
  static const char *const short_forms[][2] = {
      {"warp", "warp"}, {"simt", "info simt"}, {"barriers", "info barriers"}, {"warps", "info warps"}};
  for (size_t i = 0; i < sizeof short_forms / sizeof short_forms[0]; i++)
    if (!strcmp(c, short_forms[i][0])) c = (char *)short_forms[i][1];
  if (dbg_command_resumes(c)) {
    fprintf(out, "error: '%s' would resume the device: use GDB's continue and step\n", c);
    return;
  }
  if (vt_dbg_command(d, c, out) == VT_DBG_QUIT) fprintf(out, "error: use GDB's kill\n");
}

/* qRcmd,HEX: monitor commands (docs/debug.md); output as hex replies */
static void monitor(gdb_session *s, const char *p, const char *end, gdb_buf *out) {
  size_t n = (size_t)(end - p);
  char cmd[1024];
  if (n % 2 || n / 2 >= sizeof cmd || !gdb_hex_bytes(p, n / 2, (uint8_t *)cmd)) {
    gdb_reply(out, "E01");
    return;
  }
  cmd[n / 2] = 0;
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) {
    gdb_reply(out, "E0c");
    return;
  }
  run_monitor(s->d, cmd, f);
  fclose(f);
  /* the output in O packets of at most 1024 bytes, then OK */
  for (size_t off = 0; off < len; off += 1024) {
    gdb_buf data = {0};
    gdb_buf_puts(&data, "O");
    gdb_buf_hex(&data, text + off, len - off < 1024 ? len - off : 1024);
    gdb_frame(out, data.p, data.len);
    gdb_buf_free(&data);
  }
  free(text);
  gdb_reply(out, "OK");
}

bool gdb_starts(const char *p, const char *end, const char *lit) {
  size_t n = strlen(lit);
  return (size_t)(end - p) >= n && memcmp(p, lit, n) == 0;
}

void gdb_query(gdb_session *s, const char *p, const char *end, gdb_buf *out) {
  if (gdb_starts(p, end, "qSupported")) {
    char text[128];
    snprintf(text, sizeof text, "PacketSize=%x;qXfer:features:read+;swbreak+;hwbreak+",
             GDB_MAX_PACKET);
    gdb_reply(out, text);
  } else if (gdb_starts(p, end, "qXfer:features:read:")) {
    features(s, p + 20, end, out);
  } else if (gdb_starts(p, end, "qfThreadInfo")) {
    thread_list(s, out);
  } else if (gdb_starts(p, end, "qsThreadInfo")) {
    gdb_reply(out, "l");
  } else if (end - p == 2 && gdb_starts(p, end, "qC")) {
    char text[32];
    snprintf(text, sizeof text, "QC%x", gdb_current_tid(s));
    gdb_reply(out, text);
  } else if (gdb_starts(p, end, "qThreadExtraInfo,")) {
    thread_info(s, p + 17, end, out);
  } else if (gdb_starts(p, end, "qAttached")) {
    gdb_reply(out, "1");
  } else if (gdb_starts(p, end, "qRcmd,")) {
    monitor(s, p + 6, end, out);
  } else if (gdb_starts(p, end, "qSymbol:")) {
    gdb_reply(out, "OK");
  } else {
    gdb_reply(out, "");
  }
}

