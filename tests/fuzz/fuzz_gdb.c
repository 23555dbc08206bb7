/* libFuzzer target: the GDB stub's packet framing and requests. The input
 * is what a client sends: its bytes go through the framing state machine
 * (src/debug/gdb_packet.c) and every complete packet is handled
 * (src/debug/gdb_proto.c) on a device stopped by the debugger inside a
 * small program (2 workgroups of 2 warps x 4 lanes, a divergent branch, a
 * vector store, a barrier), so register, memory, thread, breakpoint,
 * watchpoint, monitor and target-description requests all touch real
 * state; continue and step run the program on (a small instruction budget
 * ends it), kill and the end of the input end it. Any outcome is fine
 * except a crash, a hang, a sanitizer report, a request without a reply or
 * a reply that is not one framed packet ('$' data '#' checksum). */
#include <string.h>

#include "debug/gdb_internal.h"
#include "fuzz_check.h"
#include "unit/simprog.h"

typedef struct fz {
  const uint8_t *p, *end;
  gdb_rx rx;
  gdb_session s;
} fz;

/* each framed reply: '$', no raw '#' inside, '#', two hex digits */
static void check_framing(const gdb_buf *out) {
  size_t i = 0;
  while (i < out->len) {
    FUZZ_CHECK(out->p[i] == '$', "reply does not start a packet at %zu", i);
    const char *hash = memchr(out->p + i + 1, '#', out->len - i - 1);
    FUZZ_CHECK(hash && (size_t)(hash - out->p) + 3 <= out->len, "unterminated reply");
    i = (size_t)(hash - out->p) + 3;
  }
}

/* handle packets until one resumes (0) or ends the program (-1) */
static int serve(fz *f) {
  while (f->p < f->end) {
    gdb_rx_event ev = gdb_rx_byte(&f->rx, *f->p++);
    if (ev != GDB_RX_PACKET) continue;
    FUZZ_CHECK(f->rx.len <= GDB_MAX_PACKET, "packet of %zu bytes", f->rx.len);
    gdb_buf out = {0};
    gdb_action a = gdb_handle(&f->s, f->rx.data, f->rx.len, &out);
    FUZZ_CHECK(out.oom || a != GDB_REPLIED || out.len >= 4, "no reply");
    if (!out.oom) check_framing(&out);
    gdb_buf_free(&out);
    if (a == GDB_RESUME || a == GDB_DETACH) return 0;
    if (a == GDB_KILL) return -1;
  }
  return -1;
}

static int stopped(void *ctx, vt_dbg *d) {
  (void)d;
  return serve(ctx);
}

static void ended(void *ctx, vt_dbg *d, int status) {
  (void)d;
  (void)status;
  serve(ctx);
}

static void program(prog *p) {
  vsetup(p);                                   /* 0, 1 */
  E(p, VT_INSN_VID_V, 1, 1);                   /* 2 */
  E(p, VT_INSN_VMV_V_I, 2, 1);                 /* 3 */
  unsigned rpc = setrpc_placeholder(p);        /* 4, 5 */
  unsigned br = E(p, VT_INSN_VBEQ, 1, 2, 0);   /* 6 */
  E(p, VT_INSN_ADDI, T0, T0, 1);               /* 7 */
  unsigned j = E(p, VT_INSN_JAL, ZERO, 0);     /* 8 */
  E(p, VT_INSN_ADDI, T0, T0, 2);               /* 9 */
  emit(p, WORD_JOIN);                          /* 10 */
  E(p, VT_INSN_LUI, A0, 0x90000);              /* 11 */
  E(p, VT_INSN_VSLL_VI, 3, 1, 2, 1);           /* 12 */
  E(p, VT_INSN_VADD_VX, 3, 3, A0, 1);          /* 13 */
  E(p, VT_INSN_VSW12_V, 1, 0, 3);              /* 14 */
  emit(p, WORD_BARRIER);                       /* 15 */
  emit(p, WORD_ENDPRG);                        /* 16 */
  patch_branch(p, br, 9);
  patch_branch(p, j, 10);
  patch_rpc(p, rpc, 10);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  vt_settings cfg;
  vt_settings_default(&cfg);
  cfg.max_insns = 3000;
  cfg.sms = 1;
  vt_device *dev = vt_device_new(&cfg);
  FUZZ_CHECK(dev != NULL, "out of memory");
  prog p = {0};
  program(&p);
  FUZZ_CHECK(load_prog(dev, &p) == 0, "cannot load the program");
  fz *f = calloc(1, sizeof *f);
  FUZZ_CHECK(f != NULL, "out of memory");
  f->p = data;
  f->end = data + size;
  gdb_rx_init(&f->rx);
  vt_dbg_frontend fe = {stopped, NULL, NULL, ended, f};
  vt_dbg *d = vt_dbg_new(dev, &fe);
  FUZZ_CHECK(d && gdb_session_init(&f->s, d) == 0, "out of memory");
  vt_launch l = simple_launch(4, 2);
  l.num_wg[0] = 2;
  vt_error err;
  memset(&err, 0, sizeof err);
  vt_dbg_launch_begin(d, "fuzz");
  int rc = vt_device_run(dev, &l, "fuzz", &err);
  FUZZ_CHECK(rc == VT_OK || err.message[0], "error %d without a message", rc);
  vt_dbg_launch_end(d, rc);
  vt_dbg_program_end(d, rc != VT_OK);
  gdb_session_free(&f->s);
  vt_dbg_free(d);
  free(f);
  vt_device_free(dev);
  return 0;
}
