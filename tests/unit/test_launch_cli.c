/* vt launch, driven as a program: every --arg SPEC kind (checked through the
 * saved buffers and the argcopy kernel's copy of its argument buffer),
 * --save, printf output, the summary line, device options, and the errors. */
#include <sys/stat.h>
#include <sys/wait.h>

#include "check.h"

#define TMP VT_TEST_TMP
#define ELF TMP "/launch_rt.elf"

static int spit(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  fwrite(data, 1, n, f);
  return fclose(f);
}

static int sh(const char *cmd) {
  int rc = system(cmd);
  if (rc == -1 || !WIFEXITED(rc)) return -1;
  return WEXITSTATUS(rc);
}

static int build_elf(void) {
  static int built = -1;
  if (built < 0) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "'%s' as '%s/examples/kernels/crt0.s' '%s/tests/kernels/runtime.s' "
             "'%s/examples/kernels/hello.s' '%s/examples/kernels/vtprintf.s' -o '%s'",
             VT_BINARY, VT_SOURCE_DIR, VT_SOURCE_DIR, VT_SOURCE_DIR, VT_SOURCE_DIR, ELF);
    built = sh(cmd) == 0;
  }
  return built;
}

/* "vt launch ELF ARGS"; output captured */
static int launch(const char *args, char **out, char **err) {
  char cmd[8192];
  snprintf(cmd, sizeof cmd, "'%s' launch %s %s >'%s/launch.out' 2>'%s/launch.err'", VT_BINARY,
           ELF, args, TMP, TMP);
  int rc = sh(cmd);
  if (out) *out = test_slurp(TMP "/launch.out", NULL);
  if (err) *err = test_slurp(TMP "/launch.err", NULL);
  return rc;
}

static void contains(check_state *st, const char *hay, const char *needle) {
  if (!hay || !strstr(hay, needle)) {
    st->failed_checks++;
    fprintf(stderr, "output \"%s\" lacks \"%s\"\n", hay ? hay : "(null)", needle);
  }
}

static uint32_t word(const char *b, size_t i) {
  const uint8_t *p = (const uint8_t *)b + 4 * i;
  return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

TEST(scalar_and_local_specs) {
  CHECK(st, build_elf());
  char *out, *err;
  /* argcopy copies 256 bytes of the argument buffer, past its end: no checker */
  int rc = launch("--no-memcheck --kernel argcopy --global 4 --arg out:256 --arg i32:-5 --arg u32:0xffffffff "
                  "--arg f32:1.5 --arg local:100 --arg i32:0x7fffffff --save " TMP "/save1",
                  &out, &err);
  CHECK(st, rc == 0);
  contains(st, err, "vt launch: 1 launch(es), 1 workgroup(s), ");
  contains(st, err, "warp-instructions");
  size_t n = 0;
  char *b = test_slurp(TMP "/save1/arg0.bin", &n);
  CHECK(st, b && n == 256);
  if (b && n == 256) {
    CHECK(st, word(b, 0) >= 0x90000000u);
    CHECK_EQ_U32(st, word(b, 1), 0xfffffffbu);
    CHECK_EQ_U32(st, word(b, 2), 0xffffffffu);
    CHECK_EQ_U32(st, word(b, 3), 0x3fc00000u);
    CHECK_EQ_U32(st, word(b, 4), 0x70000000u + 1024); /* local: after one warp stack */
    CHECK_EQ_U32(st, word(b, 5), 0x7fffffffu);
  }
  struct stat sb;
  CHECK(st, stat(TMP "/save1/arg1.bin", &sb) != 0); /* scalars are not saved */
  free(b);
  free(out);
  free(err);
}

static uint64_t dword(const char *b, size_t i) {
  return word(b, i) | (uint64_t)word(b, i + 1) << 32;
}

/* i64/u64/f64: 8 bytes at the next multiple of 8 of the argument buffer
 * (formats-and-launch.md 4), offsets worked out by hand: out 0, i32 4,
 * i64 8, u64 16, f64 24, i32 32, (pad 36) f64 40 */
TEST(sixty_four_bit_specs) {
  CHECK(st, build_elf());
  char *out = NULL, *err = NULL;
  CHECK(st, launch("--no-memcheck --kernel argcopy --global 1 --arg out:256 --arg i32:1 --arg i64:-5 "
                   "--arg u64:0xffffffffffffffff --arg f64:0.1 --arg i32:-2 --arg f64:-2.5 "
                   "--save " TMP "/save64 -q",
                   NULL, &err) == 0);
  size_t n = 0;
  char *b = test_slurp(TMP "/save64/arg0.bin", &n);
  CHECK(st, b && n == 256);
  if (b && n == 256) {
    CHECK_EQ_U32(st, word(b, 1), 1);
    CHECK(st, dword(b, 2) == 0xfffffffffffffffbull);
    CHECK(st, dword(b, 4) == 0xffffffffffffffffull);
    CHECK(st, dword(b, 6) == 0x3fb999999999999aull); /* 0.1 */
    CHECK_EQ_U32(st, word(b, 8), 0xfffffffeu);
    CHECK_EQ_U32(st, word(b, 9), 0); /* padding */
    CHECK(st, dword(b, 10) == 0xc004000000000000ull); /* -2.5 */
  }
  free(b);
  free(err);
  /* a long right after a pointer: offset 8, bytes 4..7 zero */
  CHECK(st, launch("--no-memcheck --kernel argcopy --global 1 --arg out:256 --arg i64:0x1122334455667788 "
                   "--save " TMP "/save64b -q", NULL, NULL) == 0);
  b = test_slurp(TMP "/save64b/arg0.bin", &n);
  CHECK(st, b && n == 256);
  if (b && n == 256) {
    CHECK_EQ_U32(st, word(b, 1), 0);
    CHECK(st, dword(b, 2) == 0x1122334455667788ull);
  }
  free(b);
  /* plong reads its long at offset 8, writes v and v + 1 and prints them */
  static const struct {
    const char *v;
    uint64_t bits;
    const char *line;
  } longs[] = {
      {"-5", 0xfffffffffffffffbull, "x=7 v=-5 v+1=-4 hex=0xfffffffffffffffb\n"},
      {"0x1ffffffff", 0x1ffffffffull, "x=7 v=8589934591 v+1=8589934592 hex=0x1ffffffff\n"},
      {"-9223372036854775808", 0x8000000000000000ull,
       "x=7 v=-9223372036854775808 v+1=-9223372036854775807 hex=0x8000000000000000\n"},
      {"9223372036854775807", 0x7fffffffffffffffull,
       "x=7 v=9223372036854775807 v+1=-9223372036854775808 hex=0x7fffffffffffffff\n"},
  };
  for (size_t i = 0; i < sizeof longs / sizeof longs[0]; i++) {
    char args[256];
    snprintf(args, sizeof args,
             "--kernel plong --global 1 --arg out:32 --arg i32:7 --arg i64:%s --save %s/savel%zu -q",
             longs[i].v, TMP, i);
    CHECK(st, launch(args, &out, NULL) == 0);
    CHECK_STR(st, out, longs[i].line);
    free(out);
    char path[256];
    snprintf(path, sizeof path, "%s/savel%zu/arg0.bin", TMP, i);
    b = test_slurp(path, &n);
    CHECK(st, b && n == 32);
    if (b && n == 32) {
      CHECK(st, dword(b, 0) == longs[i].bits);
      CHECK(st, dword(b, 2) == longs[i].bits + 1);
      CHECK_EQ_U32(st, word(b, 4), 7);
    }
    free(b);
  }
  /* u64 through plong: the same bits */
  CHECK(st, launch("--kernel plong --global 1 --arg out:32 --arg i32:7 --arg u64:18446744073709551611 -q",
                   &out, NULL) == 0);
  CHECK_STR(st, out, "x=7 v=-5 v+1=-4 hex=0xfffffffffffffffb\n");
  free(out);
}

TEST(buffer_specs_and_save) {
  CHECK(st, build_elf());
  int32_t v[64], r[64];
  for (int i = 0; i < 64; i++) v[i] = i * 3 - 20;
  CHECK(st, spit(TMP "/launch_in.bin", v, sizeof v) == 0);
  /* io: updated in place and saved */
  CHECK(st, launch("--kernel scale --global 64 --local 16 --arg io:" TMP "/launch_in.bin "
                   "--arg i32:-7 --save " TMP "/save2 -q", NULL, NULL) == 0);
  size_t n = 0;
  char *b = test_slurp(TMP "/save2/arg0.bin", &n);
  CHECK(st, b && n == sizeof v);
  if (b && n == sizeof v) {
    memcpy(r, b, sizeof r);
    for (int i = 0; i < 64; i++) CHECK(st, r[i] == v[i] * -7);
  }
  free(b);
  /* in + out + local: lrev reverses within workgroups of 32 */
  char *err = NULL;
  CHECK(st, launch("--kernel lrev --global 64 --local 32 --arg in:" TMP "/launch_in.bin "
                   "--arg out:256 --arg local:128 --save " TMP "/save3", NULL, &err) == 0);
  char *a0 = test_slurp(TMP "/save3/arg0.bin", &n);
  CHECK(st, a0 && n == sizeof v && memcmp(a0, v, sizeof v) == 0); /* input unchanged */
  char *a1 = test_slurp(TMP "/save3/arg1.bin", &n);
  CHECK(st, a1 && n == 256);
  if (a1 && n == 256) {
    memcpy(r, a1, sizeof r);
    for (int i = 0; i < 64; i++) CHECK(st, r[i] == v[i / 32 * 32 + 31 - i % 32]);
  }
  contains(st, err, "vt launch: 1 launch(es), 2 workgroup(s)");
  free(a0);
  free(a1);
  free(err);
}

TEST(geometry_options) {
  CHECK(st, build_elf());
  /* 2-D with an offset; ids records checked for a few items */
  CHECK(st, launch("--kernel ids --global 8,4 --local 4,2 --offset 10,20 --arg out:1536 "
                   "--save " TMP "/save4 -q", NULL, NULL) == 0);
  size_t n = 0;
  char *b = test_slurp(TMP "/save4/arg0.bin", &n);
  CHECK(st, b && n == 1536);
  if (b && n == 1536) {
    size_t rec = 12 * (3 * 8 + 5); /* x = 5, y = 3 */
    CHECK_EQ_U32(st, word(b, rec + 0), 15);
    CHECK_EQ_U32(st, word(b, rec + 1), 23);
    CHECK_EQ_U32(st, word(b, rec + 3), 1);  /* local x */
    CHECK_EQ_U32(st, word(b, rec + 4), 1);  /* local y */
    CHECK_EQ_U32(st, word(b, rec + 6), 1);  /* group x */
    CHECK_EQ_U32(st, word(b, rec + 7), 1);  /* group y */
    CHECK_EQ_U32(st, word(b, rec + 9), 2);  /* work_dim */
    CHECK_EQ_U32(st, word(b, rec + 11), 8); /* 8 items: one warp of 8 */
  }
  free(b);
  char *err = NULL;
  CHECK(st, launch("--kernel ids --global 8,4 --local 4,2 --threads 2 --arg out:1536 "
                   "--save " TMP "/save5", NULL, &err) == 0);
  b = test_slurp(TMP "/save5/arg0.bin", &n);
  if (b && n == 1536) {
    CHECK_EQ_U32(st, word(b, 10), 4); /* numw */
    CHECK_EQ_U32(st, word(b, 11), 2); /* numt */
  }
  contains(st, err, "4 workgroup(s)");
  free(b);
  free(err);
}

TEST(printf_output) {
  CHECK(st, build_elf());
  char *out = NULL, *err = NULL;
  CHECK(st, launch("--kernel hello --global 4 --arg out:16", &out, &err) == 0);
  contains(st, out, "[A] workgroup 0: 1 warp(s) x 4 threads, 100% ready\n");
  contains(st, out, "gid 3: square 9 = 0x9 (odd), negated -3, warp 0\n");
  free(out);
  free(err);
  CHECK(st, launch("--kernel hello --global 4 --arg out:16 --print-buffer 0", &out, &err) == 0);
  CHECK(st, out && out[0] == 0);
  free(out);
  free(err);
  CHECK(st, launch("--kernel window --global 1", &out, &err) == 0);
  contains(st, out, "hello from the printf window\n");
  free(out);
  free(err);
}

/* --host-threads: 16 workgroups on 4 SMs print through the shared printf
 * buffer (an atomic per message) and write their results; the output, the
 * buffer and the summary's counts are the same for 1, 2 and 4 host threads */
TEST(host_threads_same_output) {
  CHECK(st, build_elf());
  char *first = NULL, *first_buf = NULL;
  size_t first_n = 0;
  const char *threads[] = {"1", "2", "4"};
  for (int k = 0; k < 3; k++) {
    char args[512], dir[256], path[300];
    snprintf(dir, sizeof dir, TMP "/ht%d", k);
    snprintf(args, sizeof args,
             "--kernel hello --global 64 --local 4 --arg out:256 --sms 4 --warp-slots 2 "
             "--host-threads %s --save %s",
             threads[k], dir);
    char *out = NULL, *err = NULL;
    CHECK(st, launch(args, &out, &err) == 0);
    contains(st, err, "16 workgroup(s)");
    contains(st, out, "gid 63: square 3969 = 0xf81 (odd), negated -63, warp 0\n");
    snprintf(path, sizeof path, "%s/arg0.bin", dir);
    size_t n = 0;
    char *buf = test_slurp(path, &n);
    CHECK(st, buf && n == 256);
    if (buf && n == 256)
      for (size_t i = 0; i < 64; i++) CHECK_EQ_U32(st, word(buf, i), (uint32_t)(i * i));
    if (k == 0) {
      first = out;
      first_buf = buf;
      first_n = n;
    } else {
      CHECK(st, out && first && !strcmp(out, first));
      CHECK(st, buf && first_buf && n == first_n && !memcmp(buf, first_buf, n));
      free(out);
      free(buf);
    }
    free(err);
  }
  free(first);
  free(first_buf);
}

/* --timing runs on the timing model: the FIN line and the counter report
 * follow the program's output; results and the summary are unchanged */
TEST(timing_report) {
  CHECK(st, build_elf());
  char *out = NULL, *err = NULL;
  CHECK(st, launch("--kernel hello --global 8 --local 8 --arg out:32 --timing --preset "
                   "verilog-2024 --tcfg dram_latency=4", &out, &err) == 0);
  contains(st, out, "gid 7: square 49 = 0x31 (odd), negated -7, warp 0\n");
  contains(st, out, "\nFIN ");
  contains(st, out, "timing: 1 launch(es), ");
  contains(st, err, "vt launch: 1 launch(es), 1 workgroup(s), ");
  free(out);
  free(err);
  CHECK(st, launch("--kernel hello --global 4 --arg out:16 --preset verilog-2024", &out, &err) == 2);
  contains(st, err, "preset has no effect without --timing");
  free(out);
  free(err);
  CHECK(st, launch("--kernel hello --global 4 --arg out:16 --timing --tcfg nosuch=1", &out, &err) == 2);
  contains(st, err, "nosuch");
  free(out);
  free(err);
}

TEST(errors) {
  CHECK(st, build_elf());
  static const struct {
    const char *args;
    int rc;
    const char *msg;
  } cases[] = {
      {"--kernel nop", 2, "vt launch: --global is required"},
      {"--global 4", 2, "has 15 kernels; choose one with --kernel (nop, argcopy"},
      {"--kernel nope --global 4", 1, "no kernel 'nope' in the program (kernels: nop, argcopy"},
      {"--kernel nop --global 4,0,", 2, "bad --global '4,0,'"},
      {"--kernel nop --global 1,2,3,4", 2, "bad --global"},
      {"--kernel nop --global x", 2, "bad --global 'x'"},
      {"--kernel nop --global 4,4 --local 2", 2, "--local and --offset need as many values as --global (2)"},
      {"--kernel nop --global 10 --local 4", 1, "the global size 10 in dimension 0 is not a multiple of the local size 4"},
      {"--kernel nop --global 2048 --local 2048", 1, "at most 32 warps per workgroup"},
      {"--kernel nop --global 0", 2, "bad --global '0'"},
      {"--kernel nop --global 16,,4", 2, "bad --global"},
      {"--kernel nop --global 16 --local 0", 2, "bad --local"},
      {"--kernel nop --global 16 --bogus", 2, "unknown option --bogus"},
      {"--kernel nop --global 16 --sms", 2, "--sms needs a value"},
      {"--kernel nop --global 16 --tcfg l1d_sets=4", 2, "l1d_sets has no effect without --timing"},
      {"--kernel nop --global 4 --arg foo:1", 2, "bad --arg 'foo:1' (expected in:FILE"},
      {"--kernel nop --global 4 --arg out", 2, "bad --arg 'out'"},
      {"--kernel nop --global 4 --arg out:0", 2, "--arg out:0: size must be 1 to"},
      {"--kernel nop --global 4 --arg local:x", 2, "--arg local:x: size must be"},
      {"--kernel nop --global 4 --arg i32:abc", 2, "--arg i32:abc: not a 32-bit signed integer"},
      {"--kernel nop --global 4 --arg i32:3000000000", 2, "not a 32-bit signed integer"},
      {"--kernel nop --global 4 --arg u32:-1", 2, "--arg u32:-1: not a 32-bit unsigned integer"},
      {"--kernel nop --global 4 --arg f32:1.5x", 2, "--arg f32:1.5x: not a float"},
      {"--kernel nop --global 4 --arg i64:9223372036854775808", 2,
       "--arg i64:9223372036854775808: not a 64-bit signed integer"},
      {"--kernel nop --global 4 --arg i64:0x8000000000000000", 2, "not a 64-bit signed integer"},
      {"--kernel nop --global 4 --arg i64:5x", 2, "--arg i64:5x: not a 64-bit signed integer"},
      {"--kernel nop --global 4 --arg u64:-1", 2, "--arg u64:-1: not a 64-bit unsigned integer"},
      {"--kernel nop --global 4 --arg u64:18446744073709551616", 2, "not a 64-bit unsigned integer"},
      {"--kernel nop --global 4 --arg f64:1e999", 2, "--arg f64:1e999: not a double"},
      {"--kernel nop --global 4 --arg f64:abc", 2, "--arg f64:abc: not a double"},
      {"--kernel nop --global 4 --arg i64:", 2, "bad --arg 'i64:'"},
      {"--kernel nop --global 4 --arg i16:1", 2, "bad --arg 'i16:1' (expected in:FILE"},
      {"--kernel nop --global 4 --arg in:" TMP "/no-such-file", 1, "no-such-file: No such file or directory"},
      {"--kernel trap --global 4", 1, "kernel 'trap' failed: "},
      {"--kernel nop --global 4 --threads 3", 2, "threads"},
      {"--kernel nop --global 128 --local 128 --warp-slots 2", 1, "the device has 2 warp slots per SM"},
      {"--kernel nop --global 4 --config " TMP "/no-config", 2, "no-config"},
      {"--kernel nop --global 4 --frobnicate 1", 2, "unknown option --frobnicate"},
      {"--kernel nop --global", 2, "--global needs a value"},
      {"--kernel nop --global 4 other.elf", 2, "more than one program"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char *err = NULL;
    int rc = launch(cases[i].args, NULL, &err);
    if (rc != cases[i].rc) {
      st->failed_checks++;
      fprintf(stderr, "vt launch %s: exit %d, expected %d (%s)\n", cases[i].args, rc, cases[i].rc,
              err ? err : "");
    }
    contains(st, err, cases[i].msg);
    free(err);
  }
  /* a program that is not an ELF */
  CHECK(st, spit(TMP "/launch_junk.elf", "junk", 4) == 0);
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' launch %s/launch_junk.elf --global 1 2>'%s/launch.err'",
           VT_BINARY, TMP, TMP);
  CHECK(st, sh(cmd) == 1);
  char *err = test_slurp(TMP "/launch.err", NULL);
  contains(st, err, "launch_junk.elf: not a loadable kernel ELF");
  free(err);
  /* --help */
  snprintf(cmd, sizeof cmd, "'%s' launch --help >'%s/launch.out'", VT_BINARY, TMP);
  CHECK(st, sh(cmd) == 0);
  char *out = test_slurp(TMP "/launch.out", NULL);
  contains(st, out, "usage: vt launch KERNEL.elf --kernel NAME --global");
  free(out);
  snprintf(cmd, sizeof cmd, "'%s' launch 2>/dev/null", VT_BINARY);
  CHECK(st, sh(cmd) == 2);
}

TEST(config_file) {
  CHECK(st, build_elf());
  CHECK(st, spit(TMP "/launch.cfg", "threads = 4\nwarp_slots = 4\n", 28) == 0);
  char *err = NULL;
  CHECK(st, launch("--kernel nop --global 64 --local 32 --config " TMP "/launch.cfg", NULL,
                   &err) == 1);
  contains(st, err, "needs 8 warps of 4 threads; the device has 4 warp slots per SM");
  free(err);
  CHECK(st, launch("--kernel nop --global 64 --local 16 --config " TMP "/launch.cfg -q", NULL,
                   &err) == 0);
  CHECK(st, err && err[0] == 0);
  free(err);
}

RUN_TESTS(T(scalar_and_local_specs), T(sixty_four_bit_specs), T(buffer_specs_and_save), T(geometry_options),
          T(printf_output), T(host_threads_same_output), T(timing_report), T(errors),
          T(config_file))
