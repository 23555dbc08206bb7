/* fmv.x.w and fmv.w.x (isa2025.md 3.1.7, D11): plain moves between x
 * registers under Zfinx. Decoding, disassembly and `vt as` are checked for
 * every (rd, rs1) against words built here from the spec's bit layout, the
 * text of llvm-objdump 14 (which prints the F form: an f register name where
 * Zfinx has the x register of the same number) and GNU as -march=rv32if
 * (which needs f register names for the FP operand). Tool parts skip when
 * the tools are absent. */
#include "check.h"
#include "oracle_util.h"
#include "vt/asm.h"
#include "vt/isa.h"

static const char *const xabi[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
    "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
    "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
static const char *const fabi[32] = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",
    "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5",
    "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

/* isa2025.md 3.1.7: funct7 1110000 (fmv.x.w) / 1111000 (fmv.w.x), rs2 = 0,
 * funct3 000, opcode 1010011 */
static uint32_t fmv_word(bool to_x, unsigned rd, unsigned rs1) {
  return ((to_x ? 0x70u : 0x78u) << 25) | (rs1 << 15) | (rd << 7) | 0x53u;
}

/* the 2 x 32 x 32 words in a fixed order: form, rd, rs1 */
#define NWORDS 2048
static uint32_t word_at(size_t i, bool *to_x, unsigned *rd, unsigned *rs1) {
  *to_x = i < 1024;
  *rd = (unsigned)(i / 32) % 32;
  *rs1 = (unsigned)i % 32;
  return fmv_word(*to_x, *rd, *rs1);
}

static void expect_text(check_state *st, uint32_t w, const char *want) {
  char buf[96];
  vt_disasm_opts o = {0};
  vt_disasm(w, 0, &o, buf, sizeof buf);
  CHECK_STR(st, buf, want);
}

static void expect_asm(check_state *st, const char *line, uint32_t want) {
  uint32_t w = 0;
  char err[200];
  if (vt_asm_one(line, 0x80000000u, &w, err, sizeof err) != 0) {
    st->failed_checks++;
    fprintf(stderr, "vt_asm_one(\"%s\") failed: %s\n", line, err);
    return;
  }
  CHECK_EQ_U32(st, w, want);
}

TEST(spec_examples) {
  /* the worked examples of isa2025.md 3.1.7 */
  CHECK_EQ_U32(st, fmv_word(true, 10, 11), 0xe0058553u);
  CHECK_EQ_U32(st, fmv_word(false, 7, 7), 0xf00383d3u);
  CHECK(st, vt_decode(0xe0058553u) == VT_INSN_FMV_X_W);
  CHECK(st, vt_decode(0xf00383d3u) == VT_INSN_FMV_W_X);
  expect_text(st, 0xe0058553u, "fmv.x.w\ta0, a1");
  expect_text(st, 0xf00383d3u, "fmv.w.x\tt2, t2");
  expect_asm(st, "fmv.x.w a0, a1", 0xe0058553u);
  expect_asm(st, "fmv.w.x t2, t2", 0xf00383d3u);
  /* FP register names mean the x register of the same number (docs/as.md) */
  expect_asm(st, "fmv.x.w a0, fa1", 0xe0058553u);
  expect_asm(st, "fmv.w.x ft7, t2", 0xf00383d3u);
  /* fclass.s shares funct7 1110000 (funct3 001) and is unchanged */
  CHECK(st, vt_decode(0xe0059553u) == VT_INSN_FCLASS_S);
}

TEST(reserved_fields_are_not_fmv) {
  /* rs2 != 0 is ILLEGAL (3.1.7); so are other funct3 values of fmv.w.x
   * and funct3 01x of funct7 1110000 */
  static const uint32_t bad[] = {0xe0158553u, 0xe1f58553u, 0xf01383d3u, 0xf1f383d3u,
                                 0xf00393d3u, 0xf003f3d3u, 0xe005a553u, 0xe005c553u};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    if (vt_decode(bad[i]) != VT_INSN_INVALID) {
      st->failed_checks++;
      fprintf(stderr, "0x%08x decodes as %s\n", bad[i],
              vt_isa_insn(vt_decode(bad[i]))->mnemonic);
    }
    expect_text(st, bad[i], "<unknown>");
  }
  uint32_t w;
  char err[200];
  CHECK(st, vt_asm_one("fmv.x.w a0, a1, a2", 0x80000000u, &w, err, sizeof err) != 0);
  CHECK(st, vt_asm_one("fmv.w.x a0", 0x80000000u, &w, err, sizeof err) != 0);
}

TEST(every_register_pair) {
  int bad = 0;
  for (size_t i = 0; i < NWORDS; i++) {
    bool to_x;
    unsigned rd, rs1;
    uint32_t w = word_at(i, &to_x, &rd, &rs1);
    char want[64], got[64], line[64];
    snprintf(want, sizeof want, "%s\t%s, %s", to_x ? "fmv.x.w" : "fmv.w.x", xabi[rd], xabi[rs1]);
    vt_disasm_opts o = {0};
    vt_disasm(w, 0, &o, got, sizeof got);
    snprintf(line, sizeof line, "%s %s, %s", to_x ? "fmv.x.w" : "fmv.w.x", xabi[rd], xabi[rs1]);
    uint32_t aw = 0;
    bool ok = vt_decode(w) == (to_x ? VT_INSN_FMV_X_W : VT_INSN_FMV_W_X) && !strcmp(got, want) &&
              vt_asm_one(line, 0x80000000u, &aw, NULL, 0) == 0 && aw == w;
    if (!ok && bad++ < 10) fprintf(stderr, "0x%08x: \"%s\" (want \"%s\"), as 0x%08x\n", w, got, want, aw);
  }
  CHECK(st, bad == 0);
}

/* "fa1" -> 11, or -1 */
static int freg_number(const char *s, size_t n) {
  for (int i = 0; i < 32; i++)
    if (strlen(fabi[i]) == n && !strncmp(s, fabi[i], n)) return i;
  return -1;
}

/* llvm-objdump 14 prints "fmv.w.x\tft7, t2"; Zfinx (3.1.7) names x7 "t2" */
static void llvm_to_zfinx(char *text) {
  char out[128];
  size_t o = 0;
  for (char *p = text; *p && o + 8 < sizeof out;) {
    size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789");
    int r = (p == text || p[-1] == ' ' || p[-1] == '\t') && n ? freg_number(p, n) : -1;
    if (r >= 0) {
      o += (size_t)snprintf(out + o, sizeof out - o, "%s", xabi[r]);
      p += n;
    } else {
      out[o++] = *p++;
    }
  }
  out[o] = 0;
  strcpy(text, out);
}

TEST(text_matches_llvm_objdump_14) {
  if (!have_tool("llvm-mc") || !have_tool("llvm-objdump")) {
    printf("SKIP: llvm-mc/llvm-objdump not installed\n");
    return;
  }
  char dir[256], src[300], obj[300], dis[300], cmd[1400];
  CHECK(st, tmpdir_new("fmv_llvm", dir, sizeof dir));
  snprintf(src, sizeof src, "%s/w.s", dir);
  snprintf(obj, sizeof obj, "%s/w.o", dir);
  snprintf(dis, sizeof dis, "%s/w.txt", dir);
  FILE *f = fopen(src, "w");
  if (!f) return;
  for (size_t i = 0; i < NWORDS; i++) {
    bool to_x;
    unsigned rd, rs1;
    fprintf(f, ".word 0x%08x\n", word_at(i, &to_x, &rd, &rs1));
  }
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "llvm-mc -triple=riscv32 -mattr=+f -filetype=obj %s -o %s && "
           "llvm-objdump -d --mattr=+f %s > %s", src, obj, obj, dis);
  CHECK(st, system(cmd) == 0);
  f = fopen(dis, "r");
  if (!f) return;
  char line[256];
  size_t i = 0;
  int bad = 0;
  bool raw_checked = false;
  while (fgets(line, sizeof line, f) && i < NWORDS) {
    unsigned addr, b0, b1, b2, b3;
    if (sscanf(line, " %x: %x %x %x %x", &addr, &b0, &b1, &b2, &b3) != 5) continue;
    char *text = strchr(line, '\t');
    if (!text) continue;
    text++;
    text[strcspn(text, "\n")] = 0;
    bool to_x;
    unsigned rd, rs1;
    uint32_t w = word_at(i++, &to_x, &rd, &rs1);
    if (to_x && rd == 10 && rs1 == 11) { /* the F form as LLVM prints it */
      CHECK_STR(st, text, "fmv.x.w\ta0, fa1");
      raw_checked = true;
    }
    llvm_to_zfinx(text);
    char mine[96];
    vt_disasm_opts o = {0};
    vt_disasm(w, addr, &o, mine, sizeof mine);
    if (strcmp(mine, text) != 0 && bad++ < 10)
      fprintf(stderr, "0x%08x: llvm (x names) \"%s\", vt \"%s\"\n", w, text, mine);
  }
  fclose(f);
  CHECK(st, i == NWORDS);
  CHECK(st, raw_checked);
  CHECK(st, bad == 0);
  if (!st->failed_checks) tmpdir_remove(dir);
}

static bool write_source(const char *path, bool fnames) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  for (size_t i = 0; i < NWORDS; i++) {
    bool to_x;
    unsigned rd, rs1;
    word_at(i, &to_x, &rd, &rs1);
    if (to_x)
      fprintf(f, "fmv.x.w %s, %s\n", xabi[rd], fnames ? fabi[rs1] : xabi[rs1]);
    else
      fprintf(f, "fmv.w.x %s, %s\n", fnames ? fabi[rd] : xabi[rd], xabi[rs1]);
  }
  return fclose(f) == 0;
}

static void check_words(check_state *st, const char *bin, const char *who) {
  static uint32_t w[NWORDS + 1];
  size_t n = read_words(bin, w, NWORDS + 1);
  CHECK(st, n == NWORDS);
  int bad = 0;
  for (size_t i = 0; i < n && i < NWORDS; i++) {
    bool to_x;
    unsigned rd, rs1;
    uint32_t want = word_at(i, &to_x, &rd, &rs1);
    if (w[i] != want && bad++ < 10)
      fprintf(stderr, "%s line %zu: 0x%08x, expected 0x%08x\n", who, i + 1, w[i], want);
  }
  CHECK(st, bad == 0);
}

#define GNU "riscv64-unknown-elf-"
TEST(encodings_match_gnu_as) {
  if (!have_tool(GNU "as")) {
    printf("SKIP: binutils-riscv64-unknown-elf not installed\n");
    return;
  }
  char dir[256], fsrc[300], xsrc[300], gobj[300], gbin[300], cmd[2000];
  CHECK(st, tmpdir_new("fmv_gnu", dir, sizeof dir));
  snprintf(fsrc, sizeof fsrc, "%s/f.s", dir); /* F syntax, for GNU as */
  snprintf(xsrc, sizeof xsrc, "%s/x.s", dir); /* Zfinx syntax (3.1.7) */
  snprintf(gobj, sizeof gobj, "%s/g.o", dir);
  snprintf(gbin, sizeof gbin, "%s/g.bin", dir);
  CHECK(st, write_source(fsrc, true) && write_source(xsrc, false));
  snprintf(cmd, sizeof cmd,
           GNU "as -march=rv32if -o %s %s && " GNU "objcopy -O binary -j .text %s %s", gobj, fsrc,
           gobj, gbin);
  CHECK(st, system(cmd) == 0);
  check_words(st, gbin, "GNU as");
  for (int k = 0; k < 2; k++) { /* vt as: both syntaxes */
    char elf[300], bin[300];
    snprintf(elf, sizeof elf, "%s/vt%d.elf", dir, k);
    snprintf(bin, sizeof bin, "%s/vt%d.bin", dir, k);
    snprintf(cmd, sizeof cmd, "%s as -o %s %s && " GNU "objcopy -O binary -j .text %s %s",
             VT_BINARY, elf, k ? fsrc : xsrc, elf, bin);
    CHECK(st, system(cmd) == 0);
    check_words(st, bin, k ? "vt as (f names)" : "vt as (x names)");
  }
  if (!st->failed_checks) tmpdir_remove(dir);
}

RUN_TESTS(T(spec_examples), T(reserved_fields_are_not_fmv), T(every_register_pair),
          T(text_matches_llvm_objdump_14), T(encodings_match_gnu_as))
