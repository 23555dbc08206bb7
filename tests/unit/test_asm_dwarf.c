/* vt as line tables (.debug_line/.debug_info): with -g every instruction
 * of an assembly file maps to its own line; .file/.loc directives map the
 * following instructions to the lines they name. The oracle is GNU
 * addr2line (binutils-riscv64-unknown-elf); the test is skipped without
 * it. */
#include <stdio.h>
#include <sys/wait.h>

#include "asm_test_util.h"
#include "check.h"

#define ADDR2LINE "riscv64-unknown-elf-addr2line"

static bool have_addr2line(void) { return system(ADDR2LINE " --version > /dev/null 2>&1") == 0; }

static int write_elf(const char *path, const img *im) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  size_t n = fwrite(im->p, 1, im->n, f);
  return fclose(f) == 0 && n == im->n ? 0 : -1;
}

/* "file:line" of each address, one per line of 'out' */
static int addr2line(const char *elf, const uint32_t *addrs, int n, char *out, size_t size) {
  char cmd[2048];
  int w = snprintf(cmd, sizeof cmd, ADDR2LINE " -e %s", elf);
  for (int i = 0; i < n; i++) w += snprintf(cmd + w, sizeof cmd - (size_t)w, " 0x%x", addrs[i]);
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  size_t got = fread(out, 1, size - 1, p);
  out[got] = 0;
  return pclose(p) == 0 ? 0 : -1;
}

static int build_debug(img *im, const char *name, const char *src, bool debug) {
  memset(im, 0, sizeof *im);
  vt_asm *as = vt_asm_new(NULL);
  vt_asm_set_debug_lines(as, debug);
  vt_asm_add_source(as, name, src, strlen(src));
  int rc = vt_asm_link(as, &im->p, &im->n);
  snprintf(im->errors, sizeof im->errors, "%s", vt_asm_errors(as));
  vt_asm_free(as);
  return rc;
}

TEST(own_lines_with_g) {
  const char *src = "    .text\n"          /* 1 */
                    "    .globl _start\n"  /* 2 */
                    "_start:\n"            /* 3 */
                    "    addi a0, a0, 1\n" /* 4: 0x80000000 */
                    "\n"                   /* 5 */
                    "    li a1, 0x12345\n" /* 6: 0x80000004, two words */
                    "    add x40, a0, a1\n"/* 7: 0x8000000c (regext), 0x80000010 */
                    "    ret\n";           /* 8: 0x80000014 */
  img im;
  CHECK(st, build_debug(&im, "own.s", src, true) == 0);
  CHECK(st, section(&im, ".debug_line", NULL) != NULL);
  CHECK(st, write_elf("own.elf", &im) == 0);
  const uint32_t addrs[] = {0x80000000, 0x80000004, 0x80000008, 0x8000000c, 0x80000010, 0x80000014};
  char out[1024];
  CHECK(st, addr2line("own.elf", addrs, 6, out, sizeof out) == 0);
  CHECK_STR(st, out, "own.s:4\nown.s:6\nown.s:6\nown.s:7\nown.s:7\nown.s:8\n");
  img_free(&im);
  /* without -g there is no line table */
  CHECK(st, build_debug(&im, "own.s", src, false) == 0);
  CHECK(st, section(&im, ".debug_line", NULL) == NULL);
  img_free(&im);
}

TEST(loc_directives) {
  const char *src = "    .file 1 \"kernel.cl\"\n"
                    "    .text\n"
                    "    .globl _start\n"
                    "_start:\n"
                    "    .loc 1 10 5\n"
                    "    addi a0, a0, 1\n" /* 0x80000000: 10 */
                    "    addi a0, a0, 2\n" /* 0x80000004: 10 */
                    "    .loc 1 7\n"
                    "    addi a0, a0, 3\n" /* 0x80000008: 7 */
                    "    .loc 1 12 1 prologue_end\n"
                    "    ret\n";           /* 0x8000000c: 12 */
  img im;
  CHECK(st, build_debug(&im, "k.s", src, false) == 0); /* .loc: no -g needed */
  CHECK(st, write_elf("loc.elf", &im) == 0);
  const uint32_t addrs[] = {0x80000000, 0x80000004, 0x80000008, 0x8000000c};
  char out[1024];
  CHECK(st, addr2line("loc.elf", addrs, 4, out, sizeof out) == 0);
  CHECK_STR(st, out, "kernel.cl:10\nkernel.cl:10\nkernel.cl:7\nkernel.cl:12\n");
  img_free(&im);
  /* malformed directives */
  CHECK(st, build_debug(&im, "bad.s", "    .loc x 1\n", false) != 0);
  CHECK(st, strstr(im.errors, "bad.s:1:10: error: bad file number in .loc") != NULL);
  img_free(&im);
  CHECK(st, build_debug(&im, "bad.s", "    .file 0 \"a\"\n", false) != 0);
  CHECK(st, strstr(im.errors, "bad file number in .file") != NULL);
  img_free(&im);
}

int main(int argc, char **argv) {
  if (!have_addr2line()) {
    printf("SKIP: binutils-riscv64-unknown-elf not installed\n");
    return VT_TEST_SKIPPED;
  }
  static const test_case tests[] = {T(own_lines_with_g), T(loc_directives)};
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
