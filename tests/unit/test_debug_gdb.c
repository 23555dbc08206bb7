/* Debian's gdb-multiarch against the GDB stub, in batch mode: vt debug
 * --gdb on examples/kernels/divergent.s (threads = warps, breakpoints by
 * FILE:LINE, stepi through a divergent branch, monitor simt/lane/warp/
 * barriers, registers of a selected lane, a hardware watchpoint, the exit),
 * vt launch --gdb on a faulting kernel (SIGSEGV, exit code 01), and vt run
 * --gdb on an official test vector (T_CASES). Expected values are worked
 * out by hand as in test_debug_cli.c; GDB's output formats are its own.
 * Skipped (77) without gdb-multiarch. */
#include "gdb_test_util.h"

#define GDB "gdb-multiarch"

static bool have_gdb(void) { return dt_sh(GDB " --version >/dev/null 2>&1") == 0; }

/* gdb-multiarch -batch on ELF (or none) with the commands after
 * "target remote"; its output */
static char *run_gdb(unsigned port, const char *elf, const char *commands) {
  char text[8192], cmd[1024];
  snprintf(text, sizeof text, "set architecture riscv:rv32\nset confirm off\n"
           "target remote 127.0.0.1:%u\n%s", port, commands);
  dt_spit("gdb.cmd", text);
  snprintf(cmd, sizeof cmd, "timeout 120 " GDB " -batch -nx -x gdb.cmd %s >gdb.out 2>&1",
           elf ? elf : "");
  dt_sh(cmd);
  return dt_slurp("gdb.out");
}

TEST(divergent_kernel_under_gdb) {
  if (dt_setup_divergent() != 0) {
    st->failed_checks++;
    return;
  }
  uint32_t s = dt_nm("divergent.elf", "divergent");
  if (!s) s = 0x800000b4;
  static const char *const args[] = {"-q", "--gdb", "127.0.0.1:0", "divergent.elf", "--global",
                                     "8", "--local", "8", "--threads", "4", "--arg", "in:in.bin",
                                     "--arg", "out:32", NULL};
  gt_server srv;
  CHECK(st, gt_start(&srv, "srv", args));
  char *out = run_gdb(srv.port, "divergent.elf",
                      "info threads\nbreak divergent.s:26\ncontinue\ndelete\np $pc\n"
                      "x/4dw *(int*)$a0\nmonitor simt\nstepi\np $pc\nmonitor simt\np $mask\n"
                      "monitor lane 1\nstepi\nmaint flush register-cache\np $v5\np $lane\n"
                      "info registers mhartid\nthread 2\np $pc\ninfo registers mhartid\n"
                      "monitor barriers\nmonitor warp\nthread 1\nset $out = *(int*)($a0+4)\n"
                      "watch *(int*)$out\ncontinue\ndelete\ncontinue\n");
  int rc = gt_wait(&srv);
  CHECK(st, rc == 0);
  const char *lines[] = {
      "_start () at crt0.s:10",
      "* 1    Thread 1 (SM 0, WG 0, warp 0, running, mask 0000000f, SIMT depth 0) _start () at "
      "crt0.s:10",
      "  2    Thread 2 (SM 0, WG 0, warp 1, running, mask 0000000f, SIMT depth 0) _start () at "
      "crt0.s:10",
      dt_fmt("Breakpoint 1 at 0x%x: file divergent.s, line 26.", s + 0x40),
      "Thread 1 hit Breakpoint 1, divergent () at divergent.s:26",
      dt_fmt("$1 = (void (*)()) 0x%x <divergent+64>", s + 0x40),
      "...:\t1\t2\t3\t4",
      "warp 0 (SM 0, WG 0, warp 0): mask 0000000f, SIMT stack depth 0",
      /* the even lanes (1, 3) take the branch first */
      "32\t    vsra.vi v5, v2, 1                # even: x / 2",
      dt_fmt("$2 = (void (*)()) 0x%x <divergent+84>", s + 0x54),
      "warp 0 (SM 0, WG 0, warp 0): mask 0000000a, SIMT stack depth 2",
      dt_fmt("  #0   (top) reconvergence pc 0x%08x, else pc 0x%08x, else mask 00000005",
             s + 0x58, s + 0x44),
      dt_fmt("  #1         reconvergence pc 0x%08x, else pc 0x%08x, else mask 0000000f",
             s + 0x58, s + 0x58),
      "$3 = 10",
      "Lane 1: the v registers show its elements (GDB caches registers: maint flush "
      "register-cache).",
      "34\t    join    zero, zero, 0",
      "$4 = 1", /* lane 1: 2 / 2 */
      "$5 = 1",
      "mhartid        0x0\t0",
      "[Switching to thread 2 (Thread 2)]",
      /* warp 1 runs one instruction behind warp 0 */
      dt_fmt("$6 = (void (*)()) 0x%x <divergent+88>", s + 0x58),
      "mhartid        0x1\t1",
      "workgroup 0 (SM 0): 0 of 2 warps wait at a barrier; running: 0 1; ended: none",
      dt_fmt("warp 1 (SM 0, WG 0, warp 1), mask 0000000a, at 0x%08x <divergent+0x58>, "
             "divergent.s:34", s + 0x58),
      "Hardware watchpoint 2: *(int*)$out",
      "Thread 1 hit Hardware watchpoint 2: *(int*)$out",
      "Old value = 0", "New value = 4",
      /* GDB steps over the store it thinks has not run yet: the barrier */
      "divergent () at divergent.s:39",
      "[Inferior 1 (Remote target) exited normally]", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

TEST(a_fault_under_gdb) {
  dt_copy(VT_SOURCE_DIR "/examples/kernels/crt0.s", "crt0.s");
  dt_spit("fault.s", "    .text\n    .globl fault\nfault:\n    li t0, 0x10\n    lw t1, 0(t0)\n"
                     "    ret\n");
  CHECK(st, dt_assemble("fault") == 0);
  /* the setting gdb through vt launch, as any host program through VT_GDB */
  static const char *const args[] = {"-q", "--gdb", "127.0.0.1:0", "fault.elf", "--global", "4",
                                     NULL};
  gt_server srv;
  CHECK(st, gt_start_cmd(&srv, "fault", "launch", args));
  char *out = run_gdb(srv.port, "fault.elf", "continue\np $pc\ncontinue\n");
  CHECK(st, gt_wait(&srv) == 1);
  uint32_t f = dt_nm("fault.elf", "fault");
  const char *lines[] = {"Program received signal SIGSEGV, Segmentation fault.",
                         dt_fmt("$1 = (void (*)()) 0x%x <fault+4>", f ? f + 4 : 0x800000b8),
                         "[Inferior 1 (Remote target) exited with code 01]", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

/* vt run --gdb on the official vecadd4x4 (T_CASES): 4 warps of 4 threads */
TEST(test_vector_under_gdb) {
  static const char *const args[] = {"-q", "--gdb", "127.0.0.1:0",
                                     VT_SHARED_DIR "/cases/vecadd4x4/vecadd4x4.metadata", NULL};
  gt_server srv;
  CHECK(st, gt_start_cmd(&srv, "run", "run", args));
  char *out = run_gdb(srv.port, NULL, "info threads\nx/2xw 0x80000000\ncontinue\n");
  CHECK(st, gt_wait(&srv) == 0);
  /* the official kernel starts with auipc gp, 4 (cases/vecadd_4x16/vecadd.log) */
  const char *lines[] = {"* 1    Thread 1 (SM 0, WG 0, warp 0, running, mask 0000000f, SIMT depth "
                         "0) 0x80000000 in ?? ()",
                         "  4    Thread 4 (SM 0, WG 0, warp 3, running, mask 0000000f, SIMT depth "
                         "0) 0x80000000 in ?? ()",
                         "0x80000000:\t0x00004197\t0x80818193",
                         "[Inferior 1 (Remote target) exited normally]", NULL};
  dt_expect_lines(st, out, lines);
  free(out);
}

int main(int argc, char **argv) {
  signal(SIGPIPE, SIG_IGN);
  if (!have_gdb()) {
    printf("SKIP: " GDB " not found (sh scripts/install-deps.sh debug)\n");
    return VT_TEST_SKIPPED;
  }
  static const test_case tests[] = {
      T(divergent_kernel_under_gdb),
      T(a_fault_under_gdb),
      T_CASES(test_vector_under_gdb),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
