/* The GDB remote stub of vt debug over a raw socket: the replies the GDB
 * remote serial protocol documentation specifies (qSupported, ?, g, p, P,
 * m, M, Z/z, H, T, qC, qfThreadInfo, qThreadExtraInfo, qXfer target
 * description, qRcmd monitor commands, s, c, D, k, the exit W00), error
 * replies for malformed and oversized packets, '-' for a bad checksum, the
 * empty reply for unknown packets, one client at a time, Ctrl-C (0x03),
 * the warning for a non-loopback address and bad addresses. The kernel is
 * examples/kernels/divergent.s; addresses come from GNU nm. Every server
 * listens on port 0, so the kernel picks a free port. */
#include "gdb_test_util.h"

/* k has no reply: the stub ends the program and closes the connection */
static void gt_kill(check_state *st, int fd) {
  gt_send(fd, "k");
  int c;
  while ((c = gt_byte(fd, 10000)) == '+') {
  }
  CHECK(st, c == -2);
}

static uint32_t S; /* divergent */

static bool setup(check_state *st) {
  if (dt_setup_divergent() != 0) {
    st->failed_checks++;
    return false;
  }
  S = dt_nm("divergent.elf", "divergent");
  if (!S) S = 0x800000b4;
  return true;
}

static const char *const SERVER[] = {"-q", "--gdb", "127.0.0.1:0", "divergent.elf", "--global",
                                     "8", "--local", "8", "--threads", "4", "--arg", "in:in.bin",
                                     "--arg", "out:32", NULL};

#define ASK(fd, pkt, want)                                                       \
  do {                                                                           \
    char r_[20000];                                                              \
    bool ok_ = gt_ask(fd, pkt, r_, sizeof r_);                                   \
    if (!ok_ || strcmp(r_, want) != 0) {                                         \
      st->failed_checks++;                                                       \
      fprintf(stderr, "%s:%d: %s -> \"%s\", expected \"%s\"\n", __FILE__, __LINE__, \
              pkt, ok_ ? r_ : "(no reply)", want);                               \
    }                                                                            \
  } while (0)

TEST(registers_memory_and_threads) {
  if (!setup(st)) return;
  gt_server s;
  CHECK(st, gt_start(&s, "srv", SERVER));
  int fd = gt_connect(s.port);
  CHECK(st, fd >= 0);
  if (fd < 0) return;
  char r[20000];
  CHECK(st, gt_ask(fd, "qSupported:multiprocess+;swbreak+", r, sizeof r));
  CHECK(st, strstr(r, "PacketSize=4000") && strstr(r, "qXfer:features:read+") &&
                strstr(r, "swbreak+"));
  /* stopped before the first instruction: warp 0 = thread 1 at 0x80000000 */
  ASK(fd, "?", "T05thread:1;");
  CHECK(st, gt_ask(fd, "g", r, sizeof r));
  CHECK_EQ_U32(st, strlen(r), 33 * 8);
  CHECK(st, !strncmp(r, "00000000", 8) && !strcmp(r + 32 * 8, "00000080"));
  ASK(fd, "p20", "00000080");                           /* pc */
  ASK(fd, dt_fmt("p%x", 65 + 0xf14), "00000000");       /* mhartid of warp 0 */
  ASK(fd, dt_fmt("p%x", 65 + 0x802), "04000000");       /* numt */
  ASK(fd, "p41", "E03");                                /* CSR 0: none */
  ASK(fd, "p99999", "E03");
  ASK(fd, "pzz", "E01");
  ASK(fd, "P5=78563412", "OK");                         /* x5 */
  ASK(fd, "p5", "78563412");
  ASK(fd, "P5=785634", "E01");
  ASK(fd, dt_fmt("P%x=01000000", 4500 + 7), "OK");      /* v7 of lane 0 */
  ASK(fd, dt_fmt("p%x", 4500 + 7), "01000000");
  ASK(fd, dt_fmt("p%x", 4757), "0f000000");             /* the SIMT mask */
  /* threads: warps 0 and 1 of workgroup 0 */
  ASK(fd, "qfThreadInfo", "m1,2");
  ASK(fd, "qsThreadInfo", "l");
  ASK(fd, "qC", "QC1");
  ASK(fd, "T2", "OK");
  ASK(fd, "T9", "E03");
  char hex[512];
  gt_hex("SM 0, WG 0, warp 1, running, mask 0000000f, SIMT depth 0", hex, sizeof hex);
  ASK(fd, "qThreadExtraInfo,2", hex);
  ASK(fd, "Hg2", "OK");
  ASK(fd, "qC", "QC2");
  ASK(fd, dt_fmt("p%x", 65 + 0xf14), "01000000");       /* mhartid of warp 1 */
  ASK(fd, "Hg9", "E03");
  ASK(fd, "Hx1", "E01");
  ASK(fd, "Hc-1", "OK");
  ASK(fd, "Hg1", "OK");
  /* memory: the first instruction, auipc gp, 3 (= 0x00003197 in this link) */
  uint32_t bufaddr = dt_nm("divergent.elf", "BUFFER_ADDR");
  CHECK(st, gt_ask(fd, "m80000000,4", r, sizeof r) && strlen(r) == 8 && !strcmp(r + 2, "310000"));
  ASK(fd, dt_fmt("M%x,4:efbeadde", bufaddr), "OK");
  ASK(fd, dt_fmt("m%x,4", bufaddr), "efbeadde");
  ASK(fd, dt_fmt("M%x,4:zzbeadde", bufaddr), "E01");
  ASK(fd, dt_fmt("M%x,4:efbe", bufaddr), "E01");
  ASK(fd, "m10,4", "E14");
  ASK(fd, "mzz,4", "E01");
  ASK(fd, "m80000000", "E01");
  ASK(fd, "m80000000,ffffffff", "E01");
  ASK(fd, "m123456789,4", "E01");
  /* unknown and empty packets: the empty reply */
  ASK(fd, "vMustReplyEmpty", "");
  ASK(fd, "", "");
  ASK(fd, "qAttached", "1");
  /* a breakpoint at divergent, continue, step */
  ASK(fd, dt_fmt("Z0,%x,4", S), "OK");
  ASK(fd, dt_fmt("Z3,%x,4", S), "");
  ASK(fd, "Z0,zz,4", "E01");
  ASK(fd, "c", "T05swbreak:;thread:1;");
  ASK(fd, "p20", gt_le(S));
  ASK(fd, dt_fmt("z0,%x,4", S), "OK");
  ASK(fd, "s", "T05thread:1;");
  ASK(fd, "p20", gt_le(S + 4));
  /* thread 2 (warp 1) runs one instruction behind warp 0 */
  ASK(fd, "Hc2", "OK");
  ASK(fd, "s", "T05thread:2;");
  ASK(fd, "p20", gt_le(S + 8));
  ASK(fd, "c", "W00");
  close(fd);
  CHECK(st, gt_wait(&s) == 0);
}

TEST(target_description_and_monitor) {
  if (!setup(st)) return;
  gt_server s;
  CHECK(st, gt_start(&s, "srv", SERVER));
  int fd = gt_connect(s.port);
  CHECK(st, fd >= 0);
  if (fd < 0) return;
  /* the target description in pieces of 0x200 bytes */
  char *xml = calloc(1, 1 << 20);
  size_t len = 0;
  char r[20000];
  for (int i = 0; i < 2000; i++) {
    CHECK(st, gt_ask(fd, dt_fmt("qXfer:features:read:target.xml:%zx,200", len), r, sizeof r));
    if (r[0] != 'm' && r[0] != 'l') break;
    memcpy(xml + len, r + 1, strlen(r + 1));
    len += strlen(r + 1);
    if (r[0] == 'l') break;
  }
  CHECK(st, strstr(xml, "<architecture>riscv:rv32</architecture>"));
  CHECK(st, strstr(xml, "<feature name=\"org.gnu.gdb.riscv.cpu\">"));
  CHECK(st, strstr(xml, "<reg name=\"x31\" bitsize=\"32\" regnum=\"31\""));
  CHECK(st, strstr(xml, "<reg name=\"pc\" bitsize=\"32\" regnum=\"32\" type=\"code_ptr\"/>"));
  CHECK(st, strstr(xml, dt_fmt("<reg name=\"mhartid\" bitsize=\"32\" regnum=\"%u\"", 65 + 0xf14)));
  CHECK(st, strstr(xml, dt_fmt("<reg name=\"x255\" bitsize=\"32\" regnum=\"%u\"", 4200 + 223)));
  CHECK(st, strstr(xml, dt_fmt("<reg name=\"v255\" bitsize=\"32\" regnum=\"%u\"", 4500 + 255)));
  CHECK(st, len > 10 && !strcmp(xml + len - 10, "</target>\n"));
  free(xml);
  ASK(fd, "qXfer:features:read:other.xml:0,10", "E00");
  ASK(fd, "qXfer:features:read:target.xml:zz", "E01");
  ASK(fd, "qXfer:features:read:target.xml:fffffff,10", "l");
  /* monitor commands: output in O packets, then OK */
  char hex[256], text[4096], cmd[300];
  gt_hex("simt", hex, sizeof hex);
  snprintf(cmd, sizeof cmd, "qRcmd,%s", hex);
  gt_send(fd, cmd);
  CHECK(st, gt_reply(fd, r, sizeof r, 10000) && r[0] == 'O');
  gt_unhex(r + 1, text, sizeof text);
  CHECK_STR(st, text, "warp 0 (SM 0, WG 0, warp 0): mask 0000000f, SIMT stack depth 0\n");
  CHECK(st, gt_reply(fd, r, sizeof r, 10000) && !strcmp(r, "OK"));
  const char *const monitors[][2] = {
      {"lane 2", "Lane 2: the v registers show its elements (GDB caches registers: maint flush "
                 "register-cache).\n"},
      {"lane", "Lane 2: the v registers show its elements.\n"},
      {"lane 4", "error: expected a lane below 4\n"},
      {"continue", "error: 'continue' would resume the device: use GDB's continue and step\n"},
      {"barriers", "workgroup 0 (SM 0): 0 of 2 warps wait at a barrier; running: 0 1; ended: "
                   "none\n"},
      {"print csr numw", "numw (0x801) = 0x00000002\n"}};
  for (size_t i = 0; i < sizeof monitors / sizeof monitors[0]; i++) {
    gt_hex(monitors[i][0], hex, sizeof hex);
    snprintf(cmd, sizeof cmd, "qRcmd,%s", hex);
    gt_send(fd, cmd);
    CHECK(st, gt_reply(fd, r, sizeof r, 10000) && r[0] == 'O');
    gt_unhex(r + 1, text, sizeof text);
    CHECK_STR(st, text, monitors[i][1]);
    CHECK(st, gt_reply(fd, r, sizeof r, 10000) && !strcmp(r, "OK"));
  }
  ASK(fd, "qRcmd,zz", "E01");
  ASK(fd, "qRcmd,123", "E01");
  /* the selected lane's v registers: v1 = the lane's global id x 4 after
   * divergent's third vector instruction; lane 2 of warp 0 */
  ASK(fd, dt_fmt("Z0,%x,4", S + 0x24), "OK");
  ASK(fd, "c", "T05swbreak:;thread:1;");
  ASK(fd, dt_fmt("p%x", 4500 + 1), "08000000");
  ASK(fd, dt_fmt("p%x", 4756), "02000000");           /* the lane */
  gt_kill(st, fd);
  close(fd);
  CHECK(st, gt_wait(&s) == 0);
}

TEST(malformed_and_oversized_packets) {
  if (!setup(st)) return;
  gt_server s;
  CHECK(st, gt_start(&s, "srv", SERVER));
  int fd = gt_connect(s.port);
  CHECK(st, fd >= 0);
  if (fd < 0) return;
  char r[512];
  /* a bad checksum: '-' (GDB sends the packet again) */
  gt_send_raw(fd, "$g#00", 5);
  CHECK(st, gt_reply(fd, r, sizeof r, 10000) && !strcmp(r, "-"));
  gt_send_raw(fd, "$g#zz", 5);
  CHECK(st, gt_reply(fd, r, sizeof r, 10000) && !strcmp(r, "-"));
  /* longer than PacketSize (0x4000): an error reply, and the stub goes on */
  size_t n = 20000;
  char *big = malloc(n + 1);
  memset(big, 'm', n);
  big[n] = 0;
  gt_send(fd, big);
  CHECK(st, gt_reply(fd, r, sizeof r, 10000) && !strcmp(r, "E02"));
  free(big);
  ASK(fd, "?", "T05thread:1;");
  /* garbage between packets and a packet cut off by a new '$' */
  gt_send_raw(fd, "garbage$qC", 10);
  gt_send(fd, "qC");
  CHECK(st, gt_reply(fd, r, sizeof r, 10000) && !strcmp(r, "QC1"));
  ASK(fd, "Z9,0,4", "");
  ASK(fd, "Z0,80000000", "E01");
  ASK(fd, "Z2,90000000,0", "E01");
  ASK(fd, "G00", "E01");
  ASK(fd, "Gzzzzzzzz", "E01");
  ASK(fd, "gx", "E01");
  ASK(fd, "czz", "E01");
  ASK(fd, "Tzz", "E03");
  /* a resend request repeats the last reply */
  gt_send_raw(fd, "-", 1);
  CHECK(st, gt_reply(fd, r, sizeof r, 10000) && !strcmp(r, "E03"));
  ASK(fd, "D", "OK");
  close(fd);
  CHECK(st, gt_wait(&s) == 0); /* detached: the kernel ran to its end */
  char *out = dt_slurp("srv.err");
  CHECK(st, out && strstr(out, "vt: gdb: detached; the program runs to its end"));
  free(out);
}

TEST(one_client_at_a_time) {
  if (!setup(st)) return;
  gt_server s;
  CHECK(st, gt_start(&s, "srv", SERVER));
  int a = gt_connect(s.port);
  CHECK(st, a >= 0);
  char r[512];
  ASK(a, "?", "T05thread:1;");
  int b = gt_connect(s.port);
  /* the second connection is closed at once */
  CHECK(st, b >= 0 && gt_byte(b, 5000) == -2);
  if (b >= 0) close(b);
  ASK(a, "qC", "QC1");
  /* the first client leaves without detaching: the device stays stopped
   * for the next one */
  close(a);
  for (int i = 0; i < 200; i++) { /* until the stub has seen it leave */
    char *e = dt_slurp("srv.err");
    bool left = e && strstr(e, "the client disconnected");
    free(e);
    if (left) break;
    dt_sleep_ms(50);
  }
  int c = gt_connect(s.port);
  CHECK(st, c >= 0);
  ASK(c, "?", "T05thread:1;");
  ASK(c, "c", "W00");
  close(c);
  CHECK(st, gt_wait(&s) == 0);
  char *err = dt_slurp("srv.err");
  CHECK(st, err && strstr(err, "vt: gdb: refused a second connection (one client at a time)") &&
                strstr(err, "vt: gdb: the client disconnected; the device stays stopped"));
  free(err);
  (void)r;
}

TEST(interrupt_and_faults) {
  /* a warp that spins forever: Ctrl-C (0x03) stops it */
  dt_copy(VT_SOURCE_DIR "/examples/kernels/crt0.s", "crt0.s");
  dt_spit("spin.s", "    .text\n    .globl spin\nspin:\n1:  j 1b\n");
  dt_spit("fault.s", "    .text\n    .globl fault\nfault:\n    li t0, 0x10\n    lw t1, 0(t0)\n"
                     "    ret\n");
  CHECK(st, dt_assemble("spin") == 0 && dt_assemble("fault") == 0);
  const char *const spin[] = {"-q", "--gdb", "127.0.0.1:0", "spin.elf", "--global", "4", NULL};
  gt_server s;
  CHECK(st, gt_start(&s, "spin", spin));
  int fd = gt_connect(s.port);
  CHECK(st, fd >= 0);
  char r[512];
  ASK(fd, "?", "T05thread:1;");
  gt_send(fd, "c");
  dt_sleep_ms(300);
  gt_send_raw(fd, "\x03", 1);
  CHECK(st, gt_reply(fd, r, sizeof r, 10000) && !strcmp(r, "T02thread:1;"));
  uint32_t k = dt_nm("spin.elf", "spin");
  ASK(fd, "p20", gt_le(k ? k : 0x800000b4));
  gt_kill(st, fd);
  close(fd);
  CHECK(st, gt_wait(&s) == 0);
  /* a load from an unmapped address: SIGSEGV (11) at the lw */
  const char *const fault[] = {"-q", "--gdb", "127.0.0.1:0", "fault.elf", "--global", "4", NULL};
  CHECK(st, gt_start(&s, "fault", fault));
  fd = gt_connect(s.port);
  CHECK(st, fd >= 0);
  ASK(fd, "?", "T05thread:1;");
  ASK(fd, "c", "T0bthread:1;");
  k = dt_nm("fault.elf", "fault");
  ASK(fd, "p20", gt_le((k ? k : 0x800000b4) + 4));
  ASK(fd, "c", "W01"); /* the launch fails: exit status 1 */
  close(fd);
  CHECK(st, gt_wait(&s) == 1);
}

TEST(addresses) {
  if (!setup(st)) return;
  /* another address than loopback: a warning */
  const char *const any[] = {"-q", "--gdb", "0.0.0.0:0", "divergent.elf", "--global", "8",
                             "--arg", "in:in.bin", "--arg", "out:32", NULL};
  gt_server s;
  CHECK(st, gt_start(&s, "any", any));
  int fd = gt_connect(s.port);
  char r[512];
  gt_kill(st, fd);
  close(fd);
  CHECK(st, gt_wait(&s) == 0);
  char *err = dt_slurp("any.err");
  CHECK(st, err && strstr(err, "vt: warning: gdb: 0.0.0.0 is not a loopback address: anyone "
                               "who can reach it can read and write the simulated machine"));
  free(err);
  /* bad addresses: an error before anything runs */
  const char *bad[] = {"99999", "127.0.0.1:x", "127.0.0.1:", "192.0.2.1:0"}; /* TEST-NET-1 */
  for (size_t i = 0; i < 4; i++) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, "'%s' debug -q --gdb '%s' divergent.elf --global 8 2>bad.err",
             VT_BINARY, bad[i]);
    CHECK(st, dt_sh(cmd) == 2);
    err = dt_slurp("bad.err");
    CHECK(st, err && strstr(err, "vt debug: ") && strstr(err, dt_fmt("gdb %s: ", bad[i])));
    free(err);
  }
  (void)r;
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  static const test_case tests[] = {
      T(registers_memory_and_threads),
      T(target_description_and_monitor),
      T(malformed_and_oversized_packets),
      T(one_client_at_a_time),
      T(interrupt_and_faults),
      T(addresses),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
