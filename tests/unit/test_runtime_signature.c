/* A kernel whose ELF declares its arguments (.vt.kernel_args, written by
 * `vt as` from .vt_kernel_arg): `vt launch` and the runtime check the
 * argument count, kinds and by-value sizes against the declaration and
 * say which argument is wrong (issue 10: fewer --args than the kernel
 * reads is an error where the program makes the count knowable). Kernel:
 * tests/kernels/signature.s. */
#include <sys/wait.h>

#include "check.h"

#define TMP VT_TEST_TMP
#define ELF TMP "/sig.elf"

static int sh(const char *cmd) {
  int rc = system(cmd);
  return rc == -1 || !WIFEXITED(rc) ? -1 : WEXITSTATUS(rc);
}

static bool build_elf(void) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' as -o %s %s/examples/kernels/crt0.s %s/tests/kernels/signature.s",
           VT_BINARY, ELF, VT_SOURCE_DIR, VT_SOURCE_DIR);
  return sh(cmd) == 0;
}

/* vt launch with ARGS; returns the exit status, *err = its stderr */
static int launch(const char *args, char **err) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' launch %s --kernel sum --global 1 %s 2>%s/err", VT_BINARY, ELF,
           args, TMP);
  int rc = sh(cmd);
  FILE *f = fopen(TMP "/err", "rb");
  *err = calloc(1, 8192);
  if (f && *err) (*err)[fread(*err, 1, 8191, f)] = 0;
  if (f) fclose(f);
  return rc;
}

static void expect(check_state *st, const char *args, int status, const char *text) {
  char *err = NULL;
  int rc = launch(args, &err);
  CHECK_EQ_U32(st, rc, status);
  if (!err || !strstr(err, text)) {
    st->failed_checks++;
    fprintf(stderr, "vt launch %s: \"%s\" lacks \"%s\"\n", args, err ? err : "", text);
  }
  free(err);
}

TEST(declared_arguments_are_checked) {
  CHECK(st, build_elf());
  expect(st, "--arg out:4 --arg i32:5 --arg i64:0x100000007 --arg local:16 --save " TMP "/r", 0,
         "vt launch: 1 launch(es)");
  FILE *f = fopen(TMP "/r/arg0.bin", "rb");
  int32_t v = 0;
  CHECK(st, f && fread(&v, 4, 1, f) == 1);
  if (f) fclose(f);
  CHECK_EQ_U32(st, (uint32_t)v, 12); /* 5 + 7 */
  expect(st, "--arg out:4 --arg i32:5 --arg i64:1", 1,
         "kernel 'sum' takes 4 arguments (its .vt.kernel_args section), not 3");
  expect(st, "--arg out:4 --arg i32:5 --arg i32:1 --arg local:16", 1,
         "kernel 'sum': argument 2 (long big) takes 8 bytes, not 4");
  expect(st, "--arg out:4 --arg out:4 --arg i64:1 --arg local:16", 1,
         "kernel 'sum': argument 1 (int factor) is a by-value argument, not a buffer");
  expect(st, "--arg out:4 --arg i32:5 --arg i64:1 --arg i32:16", 1,
         "kernel 'sum': argument 3 (int* tmp) is a __local pointer, not a by-value argument");
}

RUN_TESTS(T(declared_arguments_are_checked))
