/* The one execution path, driven as the user drives it (vt launch, vt run):
 * the time limit and Ctrl-C (exit statuses 124 and 130, the live warps and
 * the statistics so far), the progress line on a terminal, warnings and the
 * strict setting for a warp that ends divergent, memory checking, the bounds
 * of local memory, --dump-config read back by --config, vt help. Kernels:
 * tests/kernels/session.s. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define TMP VT_TEST_TMP
#define ELF TMP "/session.elf"

static int sh(const char *cmd) {
  int rc = system(cmd);
  if (rc == -1 || !WIFEXITED(rc)) return -1;
  return WEXITSTATUS(rc);
}

static int build_elf(void) {
  static int built = -1;
  if (built < 0) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' as '%s/examples/kernels/crt0.s' '%s/tests/kernels/session.s' -o '%s'",
             VT_BINARY, VT_SOURCE_DIR, VT_SOURCE_DIR, ELF);
    built = sh(cmd) == 0;
  }
  return built;
}

/* "vt launch ELF ARGS": exit status; stdout and stderr captured */
static int launch(const char *args, char **out, char **err) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' launch %s %s >'%s/out' 2>'%s/err'", VT_BINARY, ELF, args, TMP,
           TMP);
  int rc = sh(cmd);
  if (out) *out = test_slurp(TMP "/out", NULL);
  if (err) *err = test_slurp(TMP "/err", NULL);
  return rc;
}

static void contains(check_state *st, const char *hay, const char *needle) {
  if (!hay || !strstr(hay, needle)) {
    st->failed_checks++;
    fprintf(stderr, "output \"%s\" lacks \"%s\"\n", hay ? hay : "(null)", needle);
  }
}

TEST(time_limit) {
  CHECK(st, build_elf());
  char *err = NULL;
  CHECK_EQ_U32(st, launch("--kernel forever --global 8 --arg out:16 --timeout 1", NULL, &err), 124);
  contains(st, err, "time limit of 1 s reached (timeout)");
  contains(st, err, "vt launch: live warps:\nSM 0, workgroup 0, warp 0: pc 0x");
  contains(st, err, "addi t0, t0, 1");
  contains(st, err, "SIMT depth 0, running");
  contains(st, err, "statistics so far:");
  contains(st, err, "warp_instructions");
  free(err);
}

/* Ctrl-C: SIGINT to a running vt stops it cleanly */
TEST(interrupt) {
  CHECK(st, build_elf());
  pid_t pid = fork();
  if (pid == 0) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s/err", TMP);
    if (!freopen(cmd, "w", stderr) || !freopen("/dev/null", "w", stdout)) _exit(99);
    execl(VT_BINARY, "vt", "launch", ELF, "--kernel", "forever", "--global", "8", "--arg",
          "out:16", (char *)NULL);
    _exit(98);
  }
  CHECK(st, pid > 0);
  if (pid <= 0) return;
  nanosleep(&(struct timespec){0, 700000000L}, NULL);
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(st, WIFEXITED(status));
  CHECK_EQ_U32(st, WIFEXITED(status) ? WEXITSTATUS(status) : 0, 130);
  char *err = test_slurp(TMP "/err", NULL);
  contains(st, err, "interrupted after ");
  contains(st, err, "live warps:\nSM 0, workgroup 0, warp 0: pc 0x");
  contains(st, err, "statistics so far:");
  free(err);
}

/* a terminal gets a progress line after about 2 s (script(1) provides one) */
TEST(progress_line) {
  CHECK(st, build_elf());
  if (sh("command -v script >/dev/null 2>&1") != 0) {
    printf("note: script(1) is not installed: progress line not checked\n");
    return;
  }
  char cmd[8192];
  snprintf(cmd, sizeof cmd,
           "script -qec \"'%s' launch %s --kernel forever --global 8 --arg out:16 --timeout 4\" "
           "/dev/null >'%s/tty' 2>&1",
           VT_BINARY, ELF, TMP);
  CHECK_EQ_U32(st, sh(cmd), 124);
  char *tty = test_slurp(TMP "/tty", NULL);
  contains(st, tty, "vt: launch 0 kernel 'forever': ");
  contains(st, tty, " M warp-insns, ");
  contains(st, tty, " M/s, workgroups 0/1, ");
  free(tty);
  /* not on a file, nor with --quiet */
  char *err = NULL;
  CHECK_EQ_U32(st, launch("--kernel forever --global 8 --arg out:16 --timeout 3", NULL, &err), 124);
  CHECK(st, err && !strstr(err, "M warp-insns"));
  free(err);
}

TEST(divergent_end) {
  CHECK(st, build_elf());
  char *err = NULL;
  CHECK_EQ_U32(st, launch("--kernel no_join --global 4 --arg out:16", NULL, &err), 0);
  contains(st, err, "vt: warning: SM 0, workgroup 0, warp 0, pc 0x");
  contains(st, err, ": the warp ended with 2 SIMT-stack entries pending (a divergent branch "
                    "whose join was never reached)");
  free(err);
  CHECK_EQ_U32(st, launch("--kernel no_join --global 4 --arg out:16 --strict", NULL, &err), 1);
  contains(st, err, "SM 0, workgroup 0, warp 0, pc 0x");
  contains(st, err, "endprg");
  contains(st, err, "the warp ended with 2 SIMT-stack entries pending");
  free(err);
}

TEST(memory_checking) {
  CHECK(st, build_elf());
  char *err = NULL;
  /* 1000 words; work-item 1000 writes the word after them, inside the
   * page: unnoticed without the checker, which vt launch turns on */
  CHECK_EQ_U32(st, launch("--kernel past_end --global 1024 --local 32 --arg out:4000 --arg u32:1000 "
                          "--no-memcheck", NULL, &err), 0);
  free(err);
  CHECK_EQ_U32(st, launch("--kernel past_end --global 1024 --local 32 --arg out:4000 --arg u32:1000",
                          NULL, &err), 1);
  contains(st, err, "memcheck: 4-byte store at 0x");
  contains(st, err, " (lane 8) is outside every allocation: 0 bytes past the end of argument 0 "
                    "(4000 bytes at 0x");
  contains(st, err, "vsw12.v v1, 0(v3)");
  contains(st, err, "workgroup 31, warp 0");
  free(err);
  /* 999 words are all inside */
  CHECK_EQ_U32(st, launch("--kernel past_end --global 1024 --local 32 --arg out:4000 --arg u32:999 "
                          "--memcheck", NULL, &err), 0);
  free(err);
}

TEST(local_memory_bounds) {
  CHECK(st, build_elf());
  char *err = NULL;
  CHECK_EQ_U32(st, launch("--kernel local_far --global 4 --arg out:16", NULL, &err), 1);
  contains(st, err, "local-memory store of 4 bytes at 0x70100000 is outside the workgroup's local "
                    "memory [0x70000000, 0x");
  free(err);
  CHECK_EQ_U32(st, launch("--kernel local_high --global 4 --arg out:16", NULL, &err), 1);
  contains(st, err, "local-memory load of 4 bytes at 0x7ff00000 is outside");
  free(err);
}

/* --dump-config of both commands reads back through --config to the same text */
TEST(dump_config_round_trip) {
  static const char *const cmds[] = {"run", "launch"};
  for (int k = 0; k < 2; k++) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' %s --sms 3 --memcheck --timing --preset verilog-2024 --l1d-sets 64 --trace t.txt "
             "--dump-config >'%s/a.cfg' && '%s' %s --config '%s/a.cfg' --dump-config >'%s/b.cfg' && "
             "cmp -s '%s/a.cfg' '%s/b.cfg'",
             VT_BINARY, cmds[k], TMP, VT_BINARY, cmds[k], TMP, TMP, TMP, TMP);
    CHECK_EQ_U32(st, sh(cmd), 0);
    char *a = test_slurp(TMP "/a.cfg", NULL);
    contains(st, a, "\nsms = 3\n");
    contains(st, a, "\nmemcheck = 1\n");
    contains(st, a, "\nl1d_sets = 64\n");
    contains(st, a, "\nl2_sets = 2\n"); /* from the preset */
    contains(st, a, "\ntrace = t.txt\n");
    if (k == 1) contains(st, a, "\nprint_buffer = 1048576\n");
    free(a);
  }
}

TEST(help_and_hints) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' help run >'%s/h1' && '%s' run --help >'%s/h2' && cmp -s '%s/h1' '%s/h2'",
           VT_BINARY, TMP, VT_BINARY, TMP, TMP, TMP);
  CHECK_EQ_U32(st, sh(cmd), 0);
  CHECK(st, build_elf());
  snprintf(cmd, sizeof cmd, "'%s' run %s 2>'%s/err'", VT_BINARY, ELF, TMP);
  CHECK_EQ_U32(st, sh(cmd), 2);
  char *err = test_slurp(TMP "/err", NULL);
  contains(st, err, "is an ELF program: run its kernels with `vt launch ");
  free(err);
  snprintf(cmd, sizeof cmd, "'%s' run --dump 0:0x100000000:f x.metadata 2>'%s/err'", VT_BINARY, TMP);
  CHECK_EQ_U32(st, sh(cmd), 2);
  err = test_slurp(TMP "/err", NULL);
  contains(st, err, "bad --dump '0:0x100000000:f'");
  free(err);
  snprintf(cmd, sizeof cmd, "'%s' help nosuch 2>'%s/err'", VT_BINARY, TMP);
  CHECK_EQ_U32(st, sh(cmd), 2);
}

RUN_TESTS(T(time_limit), T(interrupt), T(progress_line), T(divergent_end), T(memory_checking),
          T(local_memory_bounds), T(dump_config_round_trip), T(help_and_hints))
