/* The kernel argument section .vt.kernel_args (vt/kargs.h, docs/formats.md):
 * encoding against bytes written out by hand from the documented layout,
 * parsing them back, rejection of malformed sections (every truncation,
 * bad fields, offsets, strings, counts) without crashes, and the `vt as`
 * directives that produce the section, with their error messages. */
#include "asm_test_util.h"
#include "check.h"
#include "vt/kargs.h"

/* kernel k(global const float *a, long n) and kernel z(void), by hand:
 * header (16) + k (8 + 2 * 16) + z (8) = 64 = string table offset;
 * strings "\0" "k" "a" "float*" "n" "long" "z" at 0, 1, 3, 5, 12, 14, 19. */
static const uint8_t expected[85] = {
    'V', 'T', 'K', 'A', 1, 0, 16, 0, 2, 0, 0, 0, 64, 0, 0, 0,      /* header */
    1, 0, 0, 0, 2, 0, 0, 0,                                         /* k, 2 arguments */
    0, 1, 1, 0, 4, 0, 0, 0, 3, 0, 0, 0, 5, 0, 0, 0,                /* buffer global const */
    2, 0, 0, 0, 8, 0, 0, 0, 12, 0, 0, 0, 14, 0, 0, 0,              /* value 8 bytes */
    19, 0, 0, 0, 0, 0, 0, 0,                                        /* z, no arguments */
    0, 'k', 0, 'a', 0, 'f', 'l', 'o', 'a', 't', '*', 0, 'n', 0, 'l', 'o', 'n', 'g', 0, 'z', 0};

static const vt_karg k_args[] = {
    {VT_KARG_BUFFER, VT_KSPACE_GLOBAL, VT_KQUAL_CONST, 4, "a", "float*"},
    {VT_KARG_VALUE, VT_KSPACE_PRIVATE, 0, 8, "n", "long"}};
static const vt_kargs_kernel kernels[] = {{"k", 2, k_args}, {"z", 0, NULL}};

TEST(encode_matches_the_documented_layout) {
  uint8_t *out = NULL;
  size_t n = 0;
  char msg[128];
  CHECK(st, vt_kargs_encode(kernels, 2, &out, &n, msg, sizeof msg) == 0);
  CHECK(st, n == sizeof expected);
  CHECK(st, out && n == sizeof expected && memcmp(out, expected, n) == 0);
  free(out);
}

TEST(parse_reads_every_field) {
  vt_kargs *k = NULL;
  char msg[128];
  CHECK(st, vt_kargs_parse(expected, sizeof expected, &k, msg, sizeof msg) == 0);
  if (!k) return;
  CHECK(st, vt_kargs_count(k) == 2);
  const vt_kargs_kernel *kk = vt_kargs_find(k, "k");
  CHECK(st, kk && kk->nargs == 2);
  if (kk && kk->nargs == 2) {
    CHECK(st, kk->args[0].kind == VT_KARG_BUFFER && kk->args[0].space == VT_KSPACE_GLOBAL);
    CHECK(st, kk->args[0].quals == VT_KQUAL_CONST && kk->args[0].size == 4);
    CHECK_STR(st, kk->args[0].name, "a");
    CHECK_STR(st, kk->args[0].type, "float*");
    CHECK(st, kk->args[1].kind == VT_KARG_VALUE && kk->args[1].size == 8);
    CHECK_STR(st, kk->args[1].type, "long");
  }
  CHECK(st, vt_kargs_find(k, "z") && vt_kargs_find(k, "z")->nargs == 0);
  CHECK(st, vt_kargs_at(k, 1) == vt_kargs_find(k, "z"));
  CHECK(st, vt_kargs_find(k, "nope") == NULL && vt_kargs_at(k, 2) == NULL);
  vt_kargs_free(k);
}

static void expect_bad(check_state *st, const uint8_t *d, size_t n, const char *needle) {
  vt_kargs *k = NULL;
  char msg[256] = "";
  int rc = vt_kargs_parse(d, n, &k, msg, sizeof msg);
  CHECK(st, rc == -1 && k == NULL);
  if (needle && !strstr(msg, needle)) {
    st->failed_checks++;
    fprintf(stderr, "message \"%s\" lacks \"%s\"\n", msg, needle);
  }
  vt_kargs_free(k);
}

TEST(every_truncation_is_rejected) {
  for (size_t n = 0; n < sizeof expected; n++) expect_bad(st, expected, n, NULL);
}

static void patched(check_state *st, size_t at, const uint8_t *bytes, size_t n,
                    const char *needle) {
  uint8_t d[sizeof expected];
  memcpy(d, expected, sizeof d);
  memcpy(d + at, bytes, n);
  expect_bad(st, d, sizeof d, needle);
}

TEST(malformed_fields_are_rejected) {
  patched(st, 0, (const uint8_t *)"VTKB", 4, "bad magic");
  patched(st, 4, (const uint8_t[]){2, 0}, 2, "version 2");
  patched(st, 6, (const uint8_t[]){8, 0}, 2, "argument records of 8 bytes");
  patched(st, 8, (const uint8_t[]){0x01, 0x10, 0, 0}, 4, "4097 kernels (at most 4096)");
  patched(st, 8, (const uint8_t[]){7, 0, 0, 0}, 4, "do not fit");
  patched(st, 12, (const uint8_t[]){200, 0, 0, 0}, 4, "string table offset");
  patched(st, 12, (const uint8_t[]){65, 0, 0, 0}, 4, "string table offset"); /* not at "" */
  patched(st, 16, (const uint8_t[]){99, 0, 0, 0}, 4, "kernel 0: bad name");
  patched(st, 16, (const uint8_t[]){0, 0, 0, 0}, 4, "kernel 0: bad name"); /* empty */
  patched(st, 20, (const uint8_t[]){3, 0, 0, 0}, 4, "past the string table");
  patched(st, 20, (const uint8_t[]){1, 1, 0, 0}, 4, "257 arguments");
  patched(st, 24, (const uint8_t[]){7}, 1, "argument 0 of kernel 'k': unknown argument kind");
  patched(st, 25, (const uint8_t[]){3}, 1, "global or constant");
  patched(st, 26, (const uint8_t[]){8}, 1, "qualifier");
  patched(st, 28, (const uint8_t[]){8, 0, 0, 0}, 4, "a pointer argument takes 4 bytes");
  patched(st, 32, (const uint8_t[]){21, 0, 0, 0}, 4, "string offset out of range");
  patched(st, 41, (const uint8_t[]){3}, 1, "must be private");
  patched(st, 44, (const uint8_t[]){0, 0, 0, 0}, 4, "1 to 1024 bytes");
  patched(st, 44, (const uint8_t[]){1, 4, 0, 0}, 4, "1 to 1024 bytes");
  patched(st, 56, (const uint8_t[]){1, 0, 0, 0}, 4, "listed twice"); /* z renamed k */
  uint8_t d[sizeof expected];
  memcpy(d, expected, sizeof d);
  d[sizeof d - 1] = 'x'; /* the last string loses its NUL */
  expect_bad(st, d, sizeof d, "bad name");
  expect_bad(st, NULL, 10, "no section data");
}

TEST(encode_rejects_invalid_input) {
  uint8_t *out = (uint8_t *)1;
  size_t n = 1;
  char msg[128];
  vt_karg bad = {VT_KARG_LOCAL, VT_KSPACE_GLOBAL, 0, 4, "x", ""};
  vt_kargs_kernel k = {"k", 1, &bad};
  CHECK(st, vt_kargs_encode(&k, 1, &out, &n, msg, sizeof msg) == -1 && !out && n == 0);
  CHECK(st, strstr(msg, "argument 0 of kernel 'k': a local argument must be in the local") != NULL);
  vt_kargs_kernel unnamed = {"", 0, NULL};
  CHECK(st, vt_kargs_encode(&unnamed, 1, &out, &n, msg, sizeof msg) == -1);
  CHECK(st, strstr(msg, "no name") != NULL);
  vt_kargs_kernel many = {"m", 257, k_args};
  CHECK(st, vt_kargs_encode(&many, 1, &out, &n, msg, sizeof msg) == -1);
  CHECK(st, strstr(msg, "257 arguments") != NULL);
}

static const char kernels_src[] =
    "    .text\n    .globl k, z\nk:  ret\nz:  ret\n"
    "    .vt_kernel_arg k, global, 4, a, \"float*\", const\n"
    "    .vt_kernel_arg k, value, 8, \"n\", long\n"
    "    .vt_kernel z\n";

TEST(assembler_writes_the_section) {
  img im;
  CHECK(st, build1(&im, kernels_src) == 0);
  const Elf32_Shdr *s = section(&im, ".vt.kernel_args", NULL);
  CHECK(st, s != NULL);
  if (s) {
    CHECK(st, s->sh_type == SHT_PROGBITS && s->sh_flags == 0 && s->sh_addr == 0);
    CHECK(st, s->sh_addralign == 4 && s->sh_offset % 4 == 0);
    CHECK(st, s->sh_size == sizeof expected &&
                  memcmp(im.p + s->sh_offset, expected, sizeof expected) == 0);
  }
  img_free(&im);
  CHECK(st, build1(&im, "    .text\n    .globl k\nk: ret\n") == 0);
  CHECK(st, section(&im, ".vt.kernel_args", NULL) == NULL); /* only with directives */
  img_free(&im);
}

static void asm_error(check_state *st, const char *src, const char *needle) {
  img im;
  CHECK(st, build1(&im, src) != 0);
  if (!strstr(im.errors, needle)) {
    st->failed_checks++;
    fprintf(stderr, "errors \"%s\" lack \"%s\"\n", im.errors, needle);
  }
  img_free(&im);
}

TEST(assembler_errors) {
  const char *pre = "    .text\n    .globl k\nk: ret\n";
  char src[512];
#define ERR(line, needle)                                 \
  snprintf(src, sizeof src, "%s%s\n", pre, line);         \
  asm_error(st, src, needle)
  ERR(" .vt_kernel_arg k, global, 8, a", "t.s:4:28: error: a pointer argument takes 4 bytes");
  ERR(" .vt_kernel_arg k, glob, 4, a", "unknown argument kind 'glob'");
  ERR(" .vt_kernel_arg k, value, 0, a", "a by-value argument takes 1 to 1024 bytes");
  ERR(" .vt_kernel_arg k, value, 1025, a", "a by-value argument takes 1 to 1024 bytes");
  ERR(" .vt_kernel_arg k, value, x, a", "the argument size must be a non-negative constant");
  ERR(" .vt_kernel_arg k, local, 4, a, \"int*\", const shared", "unknown type qualifier 'shared'");
  ERR(" .vt_kernel_arg k, local, 4", "missing operand (expected ',')");
  ERR(" .vt_kernel_arg , local, 4, a", "expected a kernel name");
  ERR(" .vt_kernel_arg k, local, 4, 5", "expected an argument name");
  ERR(" .vt_kernel k junk", "unexpected 'junk' after the kernel name");
  ERR(" .vt_kernel_arg nope, value, 4, x", "t.s:4:17: error: kernel 'nope' is not a global symbol");
  ERR(" .vt_kernel_arg nope, value, 4, x\nnope: ret", "kernel 'nope' is not a global symbol");
  ERR(" .vt_kernel d\n .data\n .globl d\nd: .word 0", "kernel 'd' is not a global symbol");
#undef ERR
  /* 257 arguments */
  size_t cap = 257 * 48 + 64, n = 0;
  char *big = malloc(cap);
  n += (size_t)snprintf(big + n, cap - n, "%s", pre);
  for (int i = 0; i < 257; i++) n += (size_t)snprintf(big + n, cap - n, " .vt_kernel_arg k, value, 4, a%d\n", i);
  asm_error(st, big, "kernel 'k' has more than 256 arguments");
  free(big);
}

RUN_TESTS(T(encode_matches_the_documented_layout), T(parse_reads_every_field),
          T(every_truncation_is_rejected), T(malformed_fields_are_rejected),
          T(encode_rejects_invalid_input), T(assembler_writes_the_section), T(assembler_errors))
