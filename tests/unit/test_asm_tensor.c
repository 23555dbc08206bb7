/* Assembler and disassembler of MMA, MMA64 and the asynchronous copies
 * (isa2025.md 3.6, 3.7, 3.9, 5.3): encodings built by hand from the bit
 * layouts of the specification, register groups (even start, at most v255),
 * register extension of MMA's vd/vs1/vs2 and of the copies' rs3 (bits 11:7,
 * ext[11:9], 3.0), the cp_dma sizes, illegal combinations and layouts, and
 * the disassembly of misaligned groups and of reserved words. */
#include "asm_test_util.h"
#include "check.h"
#include "vt/isa.h"

static void expect_insn(check_state *st, const char *line, uint64_t want, unsigned want_len) {
  uint64_t got = 0;
  unsigned len = 0;
  char err[200] = "";
  int rc = vt_asm_one_insn(line, 0x80000000u, &got, &len, err, sizeof err);
  if (rc != 0 || got != want || len != want_len) {
    st->failed_checks++;
    fprintf(stderr, "\"%s\": %s 0x%llx (%u bytes), expected 0x%llx (%u)\n", line,
            rc ? err : "got", (unsigned long long)got, len, (unsigned long long)want, want_len);
  }
}

static void expect_error(check_state *st, const char *line, const char *want) {
  uint64_t got = 0;
  unsigned len = 0;
  char err[200] = "";
  int rc = vt_asm_one_insn(line, 0x80000000u, &got, &len, err, sizeof err);
  CHECK(st, rc != 0);
  if (strcmp(err, want) != 0) fprintf(stderr, "line: %s\n", line);
  CHECK_STR(st, err, want);
}

static void expect_text(check_state *st, uint64_t insn, unsigned len, const char *want) {
  char text[200];
  if (len == 8)
    vt_disasm64(insn, 0x80000000u, NULL, text, sizeof text);
  else
    vt_disasm((uint32_t)insn, 0x80000000u, NULL, text, sizeof text);
  CHECK_STR(st, text, want);
}

/* 3.6.1: DT 31:28 | RELU 27 | SHAPE 26:25 | vs2 24:20 | vs1 19:15 | 1 S CT | vd 11:7 | 0x61 */
static uint32_t mma(unsigned dt, unsigned relu, unsigned shape, unsigned vs2, unsigned vs1,
                    unsigned s, unsigned ct, unsigned vd) {
  return dt << 28 | relu << 27 | shape << 25 | vs2 << 20 | vs1 << 15 | 1u << 14 | s << 13 |
         ct << 12 | vd << 7 | 0x61u;
}

/* 3.7.1 */
static uint64_t mma64(unsigned dt, unsigned shape, unsigned vs2, unsigned vs1, unsigned al,
                      unsigned bl, unsigned ct, unsigned vs3, unsigned vd, unsigned rd) {
  return (uint64_t)dt << 60 | (uint64_t)shape << 57 | (uint64_t)vs2 << 49 |
         (uint64_t)vs1 << 41 | (uint64_t)al << 40 | (uint64_t)bl << 39 | (uint64_t)ct << 38 |
         (uint64_t)(vs3 >> 4) << 32 | (uint64_t)(vs3 & 15) << 28 | (uint64_t)vd << 20 |
         (uint64_t)rd << 18 | 0x3fu;
}

TEST(mma_encodings) {
  expect_insn(st, "mma.m16n16k16.s8.s32.relu.sat v0, v2, v4", mma(5, 1, 2, 4, 2, 1, 1, 0), 4);
  expect_insn(st, "mma.m8n4k8.f16.f16 v31, v1, v3", mma(0, 0, 2, 3, 1, 0, 0, 31), 4);
  expect_insn(st, "mma.m16n8k16.f32.f32 v4, v8, v12", mma(2, 0, 1, 12, 8, 0, 1, 4) | 2u << 25, 4);
  expect_insn(st, "mma.m8n8k128.b1xor.s32.sat v30, v29, v28", mma(10, 0, 0, 28, 29, 1, 1, 30), 4);
  expect_insn(st, "mma.m16n8k64.u4.s32.relu v2, v4, v6", mma(8, 1, 3, 6, 4, 0, 1, 2), 4);
  /* a one-register group may start anywhere */
  expect_insn(st, "mma.m8n8k16.u8.s32 v6, v7, v9", mma(6, 0, 0, 9, 7, 0, 1, 6), 4);
  expect_insn(st, "mma64.m16n8k16.col.row.bf16.f32.rp v2, v4, v6, v8",
              mma64(1, 3, 6, 4, 1, 1, 1, 8, 2, 3), 8);
  expect_insn(st, "mma64.m16n8k32.row.col.e3m0.f32.rz v252, v248, v254, v244",
              mma64(14, 3, 254, 248, 0, 0, 1, 244, 252, 1), 8);
  expect_insn(st, "mma64.m16n16k16.row.col.u8.s32.wrap v248, v2, v4, v16",
              mma64(6, 2, 4, 2, 0, 0, 1, 16, 248, 1), 8);
  expect_insn(st, "mma64.m8n4k8.row.col.f16.f32.rm v255, v253, v251, v1",
              mma64(0, 2, 251, 253, 0, 0, 1, 1, 255, 2), 8);
}

TEST(mma_register_extension) {
  /* vd takes ext[2:0], vs1 ext[5:3], vs2 ext[8:6] (3.0): 40 = 1:8, 64 = 2:0, 96 = 3:0 */
  img im;
  CHECK(st, build1(&im, ".text\n.globl _start\n_start:\nmma.m16n8k16.f16.f32 v40, v64, v96\n"
                        "cp_dma_bulk x40, x41, x42\n") == 0);
  const Elf32_Shdr *t = section(&im, ".text", NULL);
  CHECK(st, t && t->sh_size == 16);
  if (t && t->sh_size == 16) {
    const uint8_t *p = im.p + t->sh_offset;
    uint32_t w[4];
    for (int i = 0; i < 4; i++) w[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
                                       (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
    CHECK_EQ_U32(st, w[0], (1u | 2u << 3 | 3u << 6) << 20 | 0x200bu); /* regext */
    CHECK_EQ_U32(st, w[1], mma(0, 0, 3, 0, 0, 0, 1, 8));
    /* the copy's rs3 (bits 11:7) takes ext[11:9]; rs1 ext[5:3], rs2 ext[8:6] */
    CHECK_EQ_U32(st, w[2], (1u << 9 | 1u << 3 | 1u << 6) << 20 | 0x200bu);
    CHECK_EQ_U32(st, w[3], 10u << 20 | 9u << 15 | 1u << 12 | 8u << 7 | 0x41u);
  }
  img_free(&im);
}

TEST(dma_encodings) {
  /* 3.9.1: funct7 00000 csz | rs2 | rs1 | funct3 | rs3 | 1000001 */
  expect_insn(st, "cp_dma a0, a1, a2, 4", 0x00c58541u, 4);
  expect_insn(st, "cp_dma s11, t6, zero, 0x10", 2u << 25 | 0u << 20 | 31u << 15 | 27u << 7 | 0x41u, 4);
  expect_insn(st, "cp_dma t0, t1, t2, 4 + 4", 1u << 25 | 7u << 20 | 6u << 15 | 5u << 7 | 0x41u, 4);
  expect_insn(st, "cp_dma_bulk ra, sp, gp", 3u << 20 | 2u << 15 | 1u << 12 | 1u << 7 | 0x41u, 4);
  expect_insn(st, "cp_dma_tensor t3, v31, v1", 1u << 20 | 31u << 15 | 3u << 12 | 28u << 7 | 0x41u, 4);
  expect_insn(st, "cp_dma_mbarrier", 0x00004041u, 4);
  expect_text(st, 0x04c58541u, 4, "cp_dma\ta0, a1, a2, 16");
  expect_text(st, 0x00004041u, 4, "cp_dma_mbarrier");
  /* csz = 11, funct3 010/101/110/111, other funct7 values and a non-canonical
   * mbarrier word are reserved (2.3, 3.9.1) */
  expect_text(st, 0x06c58541u, 4, "<unknown>");
  expect_text(st, 0x00c5a541u, 4, "<unknown>");
  expect_text(st, 0x00c5f541u, 4, "<unknown>");
  expect_text(st, 0x20c59541u, 4, "<unknown>");
  expect_text(st, 0x000040c1u, 4, "<unknown>");
}

TEST(errors_the_text_shows) {
  expect_error(st, "cp_dma a0, a1, a2, 32", "expected 4, 8 or 16");
  expect_error(st, "cp_dma a0, a1, a2", "missing operand (expected ',')");
  expect_error(st, "mma.m16n8k16.f16.f32 v9, v16, v24",
               "a group of 4 registers must start at an even register: v9 is odd");
  expect_error(st, "mma.m16n8k8.f16.f16 v8, v17, v24",
               "a group of 2 registers must start at an even register: v17 is odd");
  expect_error(st, "mma64.m16n8k16.row.col.f32.f32.rn v252, v250, v0, v2",
               "the group v250..v257 of 8 registers passes v255");
  expect_error(st, "mma64.m16n16k16.row.col.s8.s32.sat v0, v0, v0, v250",
               "the group v250..v257 of 8 registers passes v255");
  /* combinations and layouts 3.6.2 and D33 do not have */
  expect_error(st, "mma.m8n8k8.bf16.f16 v8, v16, v24", "unknown instruction 'mma.m8n8k8.bf16.f16'");
  expect_error(st, "mma.m16n8k32.e3m2.f32 v8, v16, v24",
               "unknown instruction 'mma.m16n8k32.e3m2.f32'");
  expect_error(st, "mma.m8n8k8.f16.f16.sat v8, v16, v24",
               "unknown instruction 'mma.m8n8k8.f16.f16.sat'");
  expect_error(st, "mma64.m8n4k8.col.col.f16.f16.rn v0, v1, v2, v3",
               "unknown instruction 'mma64.m8n4k8.col.col.f16.f16.rn'");
  expect_error(st, "mma64.m8n8k16.row.row.s8.s32.sat v0, v1, v2, v4",
               "unknown instruction 'mma64.m8n8k16.row.row.s8.s32.sat'");
  expect_error(st, "mma64.m8n8k16.row.col.s8.s32.rn v0, v1, v2, v4",
               "unknown instruction 'mma64.m8n8k16.row.col.s8.s32.rn'");
  expect_error(st, "mma.m8n8k8.f16.f16.relu v8, v16", "missing operand (expected ',')");
}

TEST(disassembly_of_groups_and_reserved_words) {
  /* a misaligned group: the text would not assemble, so the word is printed
   * as .insn with the decoding as a comment (5.3: checked at execution) */
  expect_text(st, mma(0, 0, 3, 24, 16, 0, 1, 9), 4,
              ".insn\t4, 0x078854e1 # mma.m16n8k16.f16.f32 v9, v16, v24 (misaligned register group)");
  uint64_t w = mma64(2, 3, 4, 250, 0, 0, 1, 8, 0, 0);
  char want[200];
  snprintf(want, sizeof want,
           ".insn\t8, 0x%016llx # mma64.m16n8k16.row.col.f32.f32.rn v0, v250, v4, v8 "
           "(misaligned register group)",
           (unsigned long long)w);
  expect_text(st, w, 8, want);
  /* the .insn text assembles back to the word */
  expect_insn(st, want, w, 8);
  /* MMA64 words with wg, a or SP set, reserved bits 15 or 11:7, shape bit
   * 59 or an integer RD 10/11 print as <unknown> (5.3) */
  uint64_t ok = mma64(0, 3, 4, 8, 0, 0, 1, 12, 16, 0);
  expect_text(st, ok, 8, "mma64.m16n8k16.row.col.f16.f32.rn\tv16, v8, v4, v12");
  expect_text(st, ok | 1ull << 17, 8, "<unknown>");
  expect_text(st, ok | 1ull << 16, 8, "<unknown>");
  expect_text(st, ok | 1ull << 36, 8, "<unknown>");
  expect_text(st, ok | 1ull << 15, 8, "<unknown>");
  expect_text(st, ok | 1ull << 7, 8, "<unknown>");
  expect_text(st, ok | 1ull << 59, 8, "<unknown>");
  expect_text(st, mma64(5, 0, 4, 8, 0, 0, 1, 12, 16, 2), 8, "<unknown>");
  /* the reserved MMA funct3 0xx and 110, and DT 1111 (2.3, 3.6.1) */
  expect_text(st, mma(0, 0, 0, 2, 1, 0, 0, 3) & ~(1u << 14), 4, "<unknown>");
  expect_text(st, mma(0, 0, 0, 2, 1, 1, 0, 3), 4, "<unknown>");
  expect_text(st, mma(15, 0, 0, 2, 1, 0, 1, 3), 4, "<unknown>");
}

RUN_TESTS(T(mma_encodings), T(mma_register_extension), T(dma_encodings), T(errors_the_text_shows),
          T(disassembly_of_groups_and_reserved_words))
