/* vt as: registers x32..x255 and v32..v255 get an automatic regext prefix
 * (isa.md 2.6), and .ventus.* sections (the compiler's
 * .ventus.resource.<kernel>) are kept by name. Expected words come from the
 * spec's decoding table (isa.md 2.8.3) or are encoded by hand from the
 * RISC-V field layouts. */
#include "asm_test_util.h"
#include "check.h"

/* The words of .text (n of them) assembled from 'body' after a _start label. */
static int text_words(const char *body, uint32_t *w, size_t n, img *im) {
  char src[2048];
  snprintf(src, sizeof src, "    .text\n    .globl _start\n_start:\n%s", body);
  if (build1(im, src) != 0) return -1;
  const Elf32_Shdr *t = section(im, ".text", NULL);
  if (!t || t->sh_size < n * 4) return -1;
  memcpy(w, im->p + t->sh_offset, n * 4);
  return (int)(t->sh_size / 4);
}

static void expect_words(check_state *st, const char *body, const uint32_t *exp, size_t n) {
  img im;
  uint32_t w[16] = {0};
  int got = text_words(body, w, n, &im);
  CHECK(st, got == (int)n);
  if (got != (int)n) fprintf(stderr, "  for %s: %d words; %s\n", body, got, im.errors);
  for (size_t i = 0; i < n && got == (int)n; i++) CHECK_EQ_U32(st, w[i], exp[i]);
  img_free(&im);
}

TEST(spec_examples) {
  /* isa.md 2.6: "regext zero,zero,1 + vmv.v.x v0, tp writes v32" */
  expect_words(st, "vmv.v.x v32, tp\n", (const uint32_t[]){0x0010200b, 0x5e024057}, 2);
  /* "regext zero,zero,72 + vmadd.vv v0, v2, v1 reads vs1 = v34, vs2 = v33" */
  expect_words(st, "vmadd.vv v0, v34, v33\n", (const uint32_t[]){0x0480200b, 0xa6112057}, 2);
  /* isa.md 2.8.3: vsw.v v1, -4(v0) after regext 72 stores v33 at base v32 */
  expect_words(st, "vsw.v v33, -4(v32)\n", (const uint32_t[]){0x0480200b, 0xfe102e2b}, 2);
  /* vlw.v v1, -4(v0) after regext 9: v33 <- base v32 */
  expect_words(st, "vlw.v v33, -4(v32)\n", (const uint32_t[]){0x0090200b, 0x7fc020ab}, 2);
}

TEST(scalar_registers) {
  /* add s0, s1, sp = 0x00248433; rd 40 and rs1 41 need ext 1 in slots 0 and 1 */
  expect_words(st, "add x40, x41, x2\n", (const uint32_t[]){0x0090200b, 0x00248433}, 2);
  /* x255 = ext 7 | x31; addi x31, x0, 1 = 0x00100f93 */
  expect_words(st, "addi x255, x0, 1\n", (const uint32_t[]){0x0070200b, 0x00100f93}, 2);
  /* no prefix below 32 */
  expect_words(st, "add x31, x30, x29\n", (const uint32_t[]){0x01df0fb3}, 1);
  /* rs2 slot: sub x1, x2, x64 -> ext 2 in bits 8:6 = 128; sub ra, sp, zero */
  expect_words(st, "sub x1, x2, x64\n", (const uint32_t[]){0x0800200b, 0x400100b3}, 2);
}

TEST(store_data_uses_rs3_slot) {
  /* vse32.v v8, (a0) = 0x02056427; vs3 = v40 takes its high bits from the
   * rs3 slot (bits 11:9 of the regext immediate) */
  expect_words(st, "vse32.v v40, (a0)\n", (const uint32_t[]){0x2000200b, 0x02056427}, 2);
}

TEST(branch_after_prefix) {
  /* the offset counts from the branch, not from its prefix: bne s0, zero, +8 */
  expect_words(st, "bne x40, zero, 1f\nnop\n1: nop\n",
               (const uint32_t[]){0x0080200b, 0x00041463, 0x00000013, 0x00000013}, 4);
}

TEST(la_pair_with_prefixes) {
  /* la x50, _start at 0: regext 1, auipc s2, 0 (at 4), regext 9,
   * addi s2, s2, -4 (relative to the auipc at 4) */
  expect_words(st, "la x50, _start\n",
               (const uint32_t[]){0x0010200b, 0x00000917, 0x0090200b, 0xffc90913}, 4);
}

TEST(unextendable_operands) {
  img im;
  build1(&im, "vfadd.vf v1, v2, x40\n");
  CHECK(st, strstr(im.errors, "t.s:1:18: error: register x40 cannot be used here") != NULL);
  img_free(&im);
  build1(&im, "vsetvli x40, x1, e32, m1, ta, ma\n");
  CHECK(st, strstr(im.errors, "register x40 cannot be used here") != NULL);
  img_free(&im);
  build1(&im, "add x256, x1, x2\n");
  CHECK(st, strstr(im.errors, "bad register 'x256'") != NULL);
  img_free(&im);
}

TEST(resource_section_kept) {
  img im;
  int rc = build1(&im, "    .text\n    .globl k\nk: ret\n"
                       "    .section .ventus.resource.k,\"aw\",@progbits\n"
                       "    .half 3, 4, 5, 6\n");
  CHECK(st, rc == 0);
  const Elf32_Shdr *s = rc == 0 ? section(&im, ".ventus.resource.k", NULL) : NULL;
  CHECK(st, s != NULL);
  if (s) {
    CHECK(st, s->sh_type == SHT_PROGBITS);
    CHECK(st, s->sh_size == 8);
    CHECK(st, (s->sh_flags & SHF_ALLOC) == 0); /* not loaded */
    const uint8_t exp[8] = {3, 0, 4, 0, 5, 0, 6, 0};
    CHECK(st, memcmp(im.p + s->sh_offset, exp, 8) == 0);
  }
  /* nothing of it went into .data */
  CHECK(st, section(&im, ".data", NULL) == NULL);
  img_free(&im);
}

RUN_TESTS(T(spec_examples), T(scalar_registers), T(store_data_uses_rs3_slot),
          T(branch_after_prefix), T(la_pair_with_prefixes), T(unextendable_operands),
          T(resource_section_kept))
