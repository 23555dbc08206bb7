/* Assembler encodings: representative instructions of every format (the
 * expected words are hand-checked against the RISC-V/RVV specs and the
 * official dumps), the Ventus syntax llvm-objdump prints, and every
 * multi-instruction pseudo with its corner cases. */
#include "asm_test_util.h"
#include "check.h"

static const struct {
  const char *line;
  uint32_t word;
} cases[] = {
    {"add a0, a1, a2", 0x00c58533},
    {"sub t0, t1, t2", 0x407302b3},
    {"addi a0, a0, -2048", 0x80050513},
    {"slli a0, a1, 31", 0x01f59513},
    {"srai a0, a1, 3", 0x4035d513},
    {"lui a0, 0xfffff", 0xfffff537},
    {"auipc t0, 1", 0x00001297},
    {"lw a0, -4(sp)", 0xffc12503},
    {"lw a0, (sp)", 0x00012503},
    {"sw ra, -16(sp)", 0xfe112823},
    {"sb zero, 0(a0)", 0x00050023},
    {"jalr ra, 0(t1)", 0x000300e7},
    {"mul a0, a1, a2", 0x02c58533},
    {"divu a0, a1, a2", 0x02c5d533},
    {"sc.w a0, a2, (a1)", 0x18c5a52f},
    {"amoswap.w.aqrl a0, a2, (a1)", 0x0ec5a52f},
    {"csrrw a0, mstatus, a1", 0x30059573},
    {"csrw mtvec, 5", 0x3052d073},
    {"fence rw, rw", 0x0330000f},
    {"fence", 0x0ff0000f},
    {"ecall", 0x00000073},
    {"fadd.s a0, a1, a2", 0x00c5f553},
    {"fadd.s a0, a1, a2, rtz", 0x00c59553},
    {"fmadd.s a0, a1, a2, a3", 0x68c5f543},
    {"fcvt.w.s a0, a1, rtz", 0xc0059553},
    {"fmv.s a0, a1", 0x20b58553},
    {"fgt.s a0, a1, a2", 0xa0b61553},
    {"vsetvli t0, a0, e32, m1, ta, ma", 0x0d0572d7},
    {"vsetivli t0, 5, e32, m2, ta, mu", 0xc512f2d7},
    {"vle32.v v1, (a0), v0.t", 0x00056087},
    {"vluxei32.v v1, (a0), v2", 0x06256087},
    {"vadd.vi v1, v2, -16", 0x022830d7},
    {"vadd.vx v1, v2, a0", 0x022540d7},
    {"vmadd.vv v0, v2, v1", 0xa6112057},
    {"vmsgt.vv v1, v2, v3", 0x6e3100d7},
    {"vmerge.vvm v1, v2, v3, v0", 0x5c2180d7},
    {"vnot.v v1, v2", 0x2e2fb0d7},
    {"vid.v v2", 0x5208a157},
    {"vfadd.vf v1, v2, fa0", 0x022550d7},
    {"vmfgt.vv v1, v2, v3", 0x6e3110d7},
    /* Zfinx convenience: FP register names mean the x register */
    {"fadd.s fa0, fa1, fa2, rtz", 0x00c59553},
    {"fsgnj.s f10, f11, f11", 0x20b58553},
    /* GNU forms */
    {"csrrw a0, mstatus, 3", 0x3001d573},
    {"sgt a0, a1, a2", 0x00b62533},
    {"zext.b a0, a1", 0x0ff5f513},
    {"jalr t1", 0x000300e7},
    {"jr ra", 0x00008067},
    {"ret", 0x00008067},
    {"nop", 0x00000013},
    {"li a0, -1", 0xfff00513},
    /* Ventus syntax as llvm-objdump prints it (words from matadd.dump) */
    {"vlw12.v v1, 0(v1)", 0x0000a0fb},
    {"vsw12.v v1, 0(v0)", 0x0010607b},
    {"regext zero, zero, 72", 0x0480200b},
    {"regext zero, zero, 1", 0x0010200b},
    {"barrier x0, x0, 1", 0x0400c00b},
    {"endprg x0, x0, x0", 0x0000400b},
    {"join zero, zero, 0", 0x0000205b},
    {"setrpc zero, t1, 76", 0x04c3305b},
    {"csrr t1, 2053", 0x80502373},
    {"csrr t1, wid", 0x80502373},
    {"csrr t1, CSR_WID", 0x80502373},
    {"csrr a0, 2051", 0x80302573},
    {"vmv.v.x v0, tp", 0x5e024057},
    {"vsll.vi v0, v0, 2", 0x96013057},
    {"vfadd.vv v1, v1, v2", 0x021110d7},
    {"vremu.vx v0, v0, t3", 0x8a0e6057},
    {"vsetvli t4, t4, e32, m1, ta, ma", 0x0d0efed7},
    {"mul t1, t1, t3", 0x03c30333},
    {"csrw mtvec, t6", 0x305f9073},
    {"csrrs t4, mstatus, t4", 0x300eaef3},
    {"  addi  sp ,sp,16   # comment", 0x01010113},
};

TEST(table_encodings) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    uint32_t w = 0;
    char err[256];
    int rc = vt_asm_one(cases[i].line, 0x80000000u, &w, err, sizeof err);
    if (rc != 0) fprintf(stderr, "'%s': %s\n", cases[i].line, err);
    CHECK(st, rc == 0);
    if (w != cases[i].word) fprintf(stderr, "line: %s\n", cases[i].line);
    CHECK_EQ_U32(st, w, cases[i].word);
  }
}

TEST(pcrel_absolute_targets) {
  uint32_t w = 0;
  char err[128];
  /* vbeq v1, v0, 0x8000019c at 0x80000164 (matadd.dump) */
  CHECK(st, vt_asm_one("vbeq v1, v0, 0x8000019c", 0x80000164u, &w, err, sizeof err) == 0);
  CHECK_EQ_U32(st, w, 0x02100c5bu);
  CHECK(st, vt_asm_one("jal 0x800001bc", 0x800000d8u, &w, err, sizeof err) == 0);
  CHECK_EQ_U32(st, w, 0x0e4000efu);
  CHECK(st, vt_asm_one("bltu a0, a2, 0x80000048", 0x80000050u, &w, err, sizeof err) == 0);
  CHECK_EQ_U32(st, w, 0xfec56ce3u);
  CHECK(st, vt_asm_one("beq a0, a1, 0x80000010", 0x80000000u, &w, err, sizeof err) == 0);
  CHECK_EQ_U32(st, w, 0x00b50863u);
}

static void check_li(check_state *st, const char *value, const uint32_t *words, unsigned n) {
  char src[128];
  snprintf(src, sizeof src, "li a0, %s\nnop\n", value);
  img im;
  CHECK(st, build1(&im, src) == 0);
  for (unsigned i = 0; i < n; i++) {
    if (text_word(&im, i) != words[i]) fprintf(stderr, "li a0, %s: word %u\n", value, i);
    CHECK_EQ_U32(st, text_word(&im, i), words[i]);
  }
  CHECK_EQ_U32(st, text_word(&im, n), 0x00000013u); /* nothing more was emitted */
  img_free(&im);
}

TEST(li_corner_cases) {
  check_li(st, "0", (const uint32_t[]){0x00000513}, 1);
  check_li(st, "2047", (const uint32_t[]){0x7ff00513}, 1);
  check_li(st, "2048", (const uint32_t[]){0x00001537, 0x80050513}, 2);
  check_li(st, "-2048", (const uint32_t[]){0x80000513}, 1);
  check_li(st, "-2049", (const uint32_t[]){0xfffff537, 0x7ff50513}, 2);
  check_li(st, "0x7fffffff", (const uint32_t[]){0x80000537, 0xfff50513}, 2);
  check_li(st, "0x80000000", (const uint32_t[]){0x80000537}, 1);
  check_li(st, "0xfffff800", (const uint32_t[]){0x80000513}, 1);
  check_li(st, "0x12345fff", (const uint32_t[]){0x12346537, 0xfff50513}, 2);
  check_li(st, "0x1000", (const uint32_t[]){0x00001537}, 1);
  check_li(st, "1 + 2 << 3", (const uint32_t[]){0x01100513}, 1); /* GNU precedence: 17 */
  check_li(st, "(1 + 2) << 3", (const uint32_t[]){0x01800513}, 1);
  check_li(st, "'A'", (const uint32_t[]){0x04100513}, 1);
  check_li(st, "0b101", (const uint32_t[]){0x00500513}, 1);
  check_li(st, "010", (const uint32_t[]){0x00800513}, 1);
  check_li(st, "~0 & 0xff", (const uint32_t[]){0x0ff00513}, 1);
}

TEST(li_with_equ) {
  img im;
  CHECK(st, build1(&im, ".equ N, 42\n.set M, N * 1000\nli a0, N\nli a1, M\n") == 0);
  CHECK_EQ_U32(st, text_word(&im, 0), 0x02a00513u);
  CHECK_EQ_U32(st, text_word(&im, 1), 0x0000a5b7u); /* 42000 = 0xa410: lui a1, 10 */
  CHECK_EQ_U32(st, text_word(&im, 2), 0x41058593u); /* addi a1, a1, 0x410 */
  img_free(&im);
}

TEST(la_call_tail) {
  img im;
  CHECK(st, build1(&im,
                   "_start: la a0, target\n"
                   "  call target\n"
                   "target: tail _start\n"
                   "  lla a1, far\n"
                   "  .space 0x7f0\n"
                   "far: nop\n") == 0);
  CHECK_EQ_U32(st, text_word(&im, 0), 0x00000517u); /* auipc a0, 0 */
  CHECK_EQ_U32(st, text_word(&im, 1), 0x01050513u); /* addi a0, a0, 16 */
  CHECK_EQ_U32(st, text_word(&im, 2), 0x00000097u); /* auipc ra, 0 */
  CHECK_EQ_U32(st, text_word(&im, 3), 0x008080e7u); /* jalr ra, 8(ra) */
  CHECK_EQ_U32(st, text_word(&im, 4), 0x00000317u); /* auipc t1, 0 */
  CHECK_EQ_U32(st, text_word(&im, 5), 0xff030067u); /* jr -16(t1) */
  /* lla at 0x80000018, far = 0x80000020 + 0x7f0 */
  CHECK_EQ_U32(st, symval(&im, "far"), 0x80000810u);
  CHECK_EQ_U32(st, text_word(&im, 6), 0x00000597u); /* auipc a1, 0 */
  CHECK_EQ_U32(st, text_word(&im, 7), 0x7f858593u); /* addi a1, a1, 2040 */
  img_free(&im);
  /* offset 0x800 needs the %hi carry: auipc 1, addi -2048 */
  CHECK(st, build1(&im, "la a0, far\n.space 0x7f8\nfar: nop\n") == 0);
  CHECK_EQ_U32(st, text_word(&im, 0), 0x00001517u);
  CHECK_EQ_U32(st, text_word(&im, 1), 0x80050513u);
  img_free(&im);
  /* call rd, sym uses t1 for the auipc (GNU) */
  CHECK(st, build1(&im, "call t0, f\nf: nop\n") == 0);
  CHECK_EQ_U32(st, text_word(&im, 0), 0x00000317u); /* auipc t1, 0 */
  CHECK_EQ_U32(st, text_word(&im, 1), 0x008302e7u); /* jalr t0, 8(t1) */
  img_free(&im);
}

TEST(symbol_loads_stores_and_modifiers) {
  img im;
  CHECK(st, build1(&im,
                   "  lw a0, v\n"
                   "  sw a1, v, t0\n"
                   "  lui a2, %hi(w)\n"
                   "  addi a2, a2, %lo(w)\n"
                   "1: auipc a3, %pcrel_hi(v)\n"
                   "  lw a3, %pcrel_lo(1b)(a3)\n"
                   ".data\n"
                   "v: .word 1\n"
                   ".space 0x7fc\n"
                   "w: .word 2\n") == 0);
  /* text is 0x18 bytes; tohost 0x80001000, (no rodata), data 0x80002000 */
  CHECK_EQ_U32(st, symval(&im, "v"), 0x80002000u);
  CHECK_EQ_U32(st, symval(&im, "w"), 0x80002800u);
  CHECK_EQ_U32(st, text_word(&im, 0), 0x00002517u); /* auipc a0, 2 */
  CHECK_EQ_U32(st, text_word(&im, 1), 0x00052503u); /* lw a0, 0(a0) */
  CHECK_EQ_U32(st, text_word(&im, 2), 0x00002297u); /* auipc t0, 2 */
  CHECK_EQ_U32(st, text_word(&im, 3), 0xfeb2ac23u); /* sw a1, -8(t0) */
  CHECK_EQ_U32(st, text_word(&im, 4), 0x80003637u); /* lui a2, 0x80003 */
  CHECK_EQ_U32(st, text_word(&im, 5), 0x80060613u); /* addi a2, a2, -2048 */
  CHECK_EQ_U32(st, text_word(&im, 6), 0x00002697u); /* auipc a3, 2 */
  CHECK_EQ_U32(st, text_word(&im, 7), 0xfe86a683u); /* lw a3, -24(a3) */
  img_free(&im);
}

TEST(insn_directive_and_branches) {
  img im;
  CHECK(st, build1(&im,
                   ".insn r 0x33, 0, 0, a0, a1, a2\n"
                   ".insn i 0x03, 2, a0, 8(a1)\n"
                   ".insn 0x0000400b\n"
                   "1: beq a0, a1, 1b\n"
                   "  bnez a0, 2f\n"
                   "  j 1b\n"
                   "2: vbne v0, v1, 1b\n") == 0);
  CHECK_EQ_U32(st, text_word(&im, 0), 0x00c58533u);
  CHECK_EQ_U32(st, text_word(&im, 1), 0x0085a503u);
  CHECK_EQ_U32(st, text_word(&im, 2), 0x0000400bu);
  CHECK_EQ_U32(st, text_word(&im, 3), 0x00b50063u); /* beq a0, a1, 0 */
  CHECK_EQ_U32(st, text_word(&im, 4), 0x00051463u); /* bnez a0, +8 */
  CHECK_EQ_U32(st, text_word(&im, 5), 0xff9ff06fu); /* j -8 */
  CHECK_EQ_U32(st, text_word(&im, 6), 0xfe009adbu); /* vbne v0, v1, -12 (custom-2) */
  img_free(&im);
}

RUN_TESTS(T(table_encodings), T(pcrel_absolute_targets), T(li_corner_cases), T(li_with_equ),
          T(la_call_tail), T(symbol_loads_stores_and_modifiers), T(insn_directive_and_branches))
