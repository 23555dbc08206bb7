/* Assembler diagnostics: every error kind through the library API (exact
 * "file:line:column: error: message" text), several errors per file, the
 * error bound, vt_asm_one messages, and the vt binary's exit status and
 * "no output file on failure" behaviour. */
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "asm_test_util.h"
#include "check.h"

static void expect_errors(check_state *st, const char *src, const char *want) {
  img im;
  int rc = build1(&im, src);
  CHECK(st, rc != 0);
  CHECK(st, im.p == NULL);
  if (strcmp(im.errors, want) != 0) fprintf(stderr, "source:\n%s", src);
  CHECK_STR(st, im.errors, want);
  img_free(&im);
}

TEST(unknown_mnemonic) {
  expect_errors(st, "  foo a0, a1\n", "t.s:1:3: error: unknown instruction 'foo'\n");
}
TEST(bad_register) {
  expect_errors(st, "addi a9, a0, 1\n", "t.s:1:6: error: bad register 'a9' (expected a scalar register)\n");
  expect_errors(st, "nop\nvadd.vv v1, v2, a0\n",
                "t.s:2:17: error: bad register 'a0' (expected a vector register)\n");
  /* FP names only for FP mnemonics */
  expect_errors(st, "add fa0, a1, a2\n", "t.s:1:5: error: bad register 'fa0' (expected a scalar register)\n");
}
TEST(immediate_out_of_range) {
  expect_errors(st, "addi a0, a0, 5000\n",
                "t.s:1:14: error: immediate 5000 out of range [-2048, 2047]\n");
  /* 6-bit shift amounts (isa2025.md D18) */
  expect_errors(st, "slli a0, a0, 64\n", "t.s:1:14: error: immediate 64 out of range [0, 63]\n");
  expect_errors(st, "slliw a0, a0, 32\n", "t.s:1:15: error: immediate 32 out of range [0, 31]\n");
  expect_errors(st, "li a0, 0x100000000\n",
                "t.s:1:8: error: immediate 4294967296 out of range [-2147483648, 4294967295]\n");
}
TEST(branch_and_jump_range) {
  expect_errors(st, "beq a0, a1, far\n.space 8192\nfar: nop\n",
                "t.s:1:13: error: branch target offset 8196 out of range [-4096, 4094]\n");
  expect_errors(st, "jal far\n.space 0x100000\nfar: nop\n",
                "t.s:1:5: error: jump target offset 1048580 out of range [-1048576, 1048574]\n");
}
TEST(misaligned_branch_target) {
  expect_errors(st, "x: nop\nbeq a0, a1, x+1\n",
                "t.s:2:13: error: misaligned branch target: offset -3 is odd\n");
}
TEST(undefined_symbol) {
  expect_errors(st, "nop\n  j nowhere\n", "t.s:2:5: error: undefined symbol 'nowhere'\n");
  expect_errors(st, ".word missing + 4\n", "t.s:1:7: error: undefined symbol 'missing'\n");
  expect_errors(st, "j 1f\n", "t.s:1:3: error: undefined local label '1'\n");
  expect_errors(st, "j 1b\n", "t.s:1:3: error: no previous definition of local label '1'\n");
}
TEST(duplicate_symbol) {
  expect_errors(st, "x: nop\nx: nop\n", "t.s:2:1: error: duplicate symbol 'x' (first defined at line 1)\n");
  const char *files[] = {"a.s", ".globl g\ng: nop\n", "b.s", "nop\n.globl g\ng: nop\n", NULL};
  img im;
  CHECK(st, build_opts(&im, NULL, files) != 0);
  CHECK_STR(st, im.errors, "b.s:3:1: error: duplicate symbol 'g' (also defined at a.s:2)\n");
  img_free(&im);
}
TEST(bad_directive) {
  expect_errors(st, ".foo 1\n", "t.s:1:1: error: unknown directive '.foo'\n");
  expect_errors(st, ".align 40\n", "t.s:1:8: error: alignment exponent 40 out of range [0, 16]\n");
  expect_errors(st, ".word 1 2\n", "t.s:1:9: error: unexpected '2' after the directive's operands\n");
}
TEST(unterminated_string) {
  expect_errors(st, ".string \"abc\n", "t.s:1:9: error: unterminated string\n");
}
TEST(pcrel_lo_without_hi) {
  expect_errors(st, "x: addi a0, a0, 1\naddi a0, a0, %pcrel_lo(x)\n",
                "t.s:2:24: error: %pcrel_lo(x): no auipc with %pcrel_hi at that label\n");
}
TEST(org_backwards) {
  expect_errors(st, ".byte 1,2,3\n.org 1\n",
                "t.s:2:6: error: .org moves the location counter backwards (from 3 to 1)\n");
}
TEST(operand_syntax) {
  expect_errors(st, "lw a0, 4(a0\n", "t.s:1:12: error: missing operand (expected ')')\n");
  expect_errors(st, "beq a0, a1\n", "t.s:1:11: error: missing operand (expected ',')\n");
  expect_errors(st, "csrr a0, nosuch\n", "t.s:1:10: error: unknown CSR 'nosuch'\n");
  expect_errors(st, "add a0, a1, a2, a3\n", "t.s:1:15: error: unexpected ', a3' after the operands\n");
}
TEST(several_errors_and_bound) {
  expect_errors(st, "foo\nnop\nbar a0\naddi a0, a0, 99999\n",
                "t.s:1:1: error: unknown instruction 'foo'\n"
                "t.s:3:1: error: unknown instruction 'bar'\n"
                "t.s:4:14: error: immediate 99999 out of range [-2048, 2047]\n");
  char src[2000] = "";
  for (int i = 0; i < 200; i++) strcat(src, "bad\n");
  img im;
  CHECK(st, build1(&im, src) != 0);
  CHECK(st, im.nerrors > 10 && im.nerrors <= 51);
  CHECK(st, strstr(im.errors, "too many errors") != NULL);
  img_free(&im);
}
TEST(asm_one_messages) {
  uint32_t w;
  char err[200];
  CHECK(st, vt_asm_one("addi a0, a0, 5000", 0, &w, err, sizeof err) == -1);
  CHECK_STR(st, err, "immediate 5000 out of range [-2048, 2047]");
  CHECK(st, vt_asm_one("beq a0, a1, 0x2001", 0, &w, err, sizeof err) == -1);
  CHECK_STR(st, err, "branch target offset 8193 out of range [-4096, 4094]");
  CHECK(st, vt_asm_one("nop; nop", 0, &w, err, sizeof err) == -1);
  CHECK_STR(st, err, "expected exactly one instruction");
  CHECK(st, vt_asm_one(".word 4294", 0, &w, err, sizeof err) == -1);
  CHECK_STR(st, err, "directives are not accepted here (one instruction only)");
  CHECK(st, vt_asm_one("x: nop", 0, &w, err, sizeof err) == -1);
  CHECK(st, vt_asm_one("j label", 0, &w, err, sizeof err) == -1);
  CHECK_STR(st, err, "undefined symbol 'label'");
}

TEST(file_and_entry_errors) {
  vt_asm *as = vt_asm_new(NULL);
  CHECK(st, vt_asm_add_file(as, "/nonexistent/x.s") == -1);
  CHECK_STR(st, vt_asm_errors(as),
            "/nonexistent/x.s:1:1: error: cannot open file: No such file or directory\n");
  vt_asm_free(as);
  vt_asm_options o = {0, "nope"};
  const char *files[] = {"a.s", "nop\n", NULL};
  img im;
  CHECK(st, build_opts(&im, &o, files) != 0);
  CHECK_STR(st, im.errors, "<command line>:1:1: error: entry symbol 'nope' is not defined\n");
  img_free(&im);
}

static int run(const char *cmd) {
  int s = system(cmd);
  return WIFEXITED(s) ? WEXITSTATUS(s) : -1;
}
static bool exists(const char *p) {
  struct stat sb;
  return stat(p, &sb) == 0;
}
static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}
static char *read_text(const char *path) {
  static char buf[4096];
  buf[0] = 0;
  FILE *f = fopen(path, "r");
  if (f) {
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
  }
  return buf;
}

TEST(binary_exit_status_and_no_output) {
  char cmd[1024];
  const char *d = VT_TEST_TMP;
  char bad[256], und[256], good[256], out[256], errf[256];
  snprintf(bad, sizeof bad, "%s/asm_bad.s", d);
  snprintf(und, sizeof und, "%s/asm_und.s", d);
  snprintf(good, sizeof good, "%s/asm_good.s", d);
  snprintf(out, sizeof out, "%s/asm_out.elf", d);
  snprintf(errf, sizeof errf, "%s/asm_err.txt", d);
  write_text(bad, "nop\nfrob a0\n");
  write_text(und, "j nowhere\n");
  write_text(good, ".globl _start\n_start: j _start\n");
  remove(out);
  snprintf(cmd, sizeof cmd, "%s as -o %s %s 2>%s", VT_BINARY, out, bad, errf);
  CHECK(st, run(cmd) != 0);
  CHECK(st, !exists(out));
  CHECK(st, strstr(read_text(errf), "asm_bad.s:2:1: error: unknown instruction 'frob'") != NULL);
  snprintf(cmd, sizeof cmd, "%s as -o %s %s 2>%s", VT_BINARY, out, und, errf);
  CHECK(st, run(cmd) != 0);
  CHECK(st, !exists(out));
  CHECK(st, strstr(read_text(errf), "asm_und.s:1:3: error: undefined symbol 'nowhere'") != NULL);
  snprintf(cmd, sizeof cmd, "%s as -o %s %s 2>%s", VT_BINARY, out, good, errf);
  CHECK(st, run(cmd) == 0);
  CHECK(st, exists(out));
  CHECK_STR(st, read_text(errf), "");
  snprintf(cmd, sizeof cmd, "%s as --bogus %s 2>%s", VT_BINARY, good, errf);
  CHECK(st, run(cmd) == 2);
  remove(out);
}

RUN_TESTS(T(unknown_mnemonic), T(bad_register), T(immediate_out_of_range),
          T(branch_and_jump_range), T(misaligned_branch_target), T(undefined_symbol),
          T(duplicate_symbol), T(bad_directive), T(unterminated_string), T(pcrel_lo_without_hi),
          T(org_backwards), T(operand_syntax), T(several_errors_and_bound), T(asm_one_messages),
          T(file_and_entry_errors), T(binary_exit_status_and_no_output))
