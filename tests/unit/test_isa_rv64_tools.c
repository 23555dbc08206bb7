/* The standard RV64 encodings of isa2025.md 3.1 (RV64I W-forms, ld, sd,
 * RV64A *.d in every ordering, slli/srli/srai with 6-bit amounts) against
 * the RV64 reference tools: random instances with even pair registers
 * (D9; our pairs are x registers, as RV64's) are disassembled by vt_disasm;
 * GNU as -march=rv64ia must encode that text to the same words, vt as too;
 * GNU objdump -M no-aliases must name the same instructions, and
 * llvm-objdump (riscv64, -M no-aliases) must print exactly vt's text.
 * Parts skip when the tools are absent. */
#include "check.h"
#include "gen_operands.h"
#include "oracle_util.h"

#define PER_INSN 12
#define MAX_LINES (VT_INSN_COUNT * PER_INSN)
#define GNU "riscv64-unknown-elf-"

static uint32_t words[MAX_LINES];
static char text[MAX_LINES][96];
static size_t n;

static bool in_set(const vt_insn_desc *d) {
  return gen_is_rv64_pair_row(d) || d->ops[2] == VT_OP_SHAMT6;
}

/* random words, pair fields even, 6-bit shift amounts up to 63 */
static void generate(void) {
  rng r = {0x64640001};
  n = 0;
  for (unsigned id = 0; id < VT_INSN_COUNT; id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    if (!in_set(d)) continue;
    for (int k = 0; k < PER_INSN; k++) {
      uint32_t w = gen_random_word((vt_insn_id)id, &r, false);
      if (d->flags & VT_F_PRD) w &= ~(1u << 7);
      if (d->flags & VT_F_PRS1) w &= ~(1u << 15);
      if (d->flags & VT_F_PRS2) w &= ~(1u << 20);
      words[n] = w;
      vt_disasm_opts o = {0};
      vt_disasm(w, 0, &o, text[n], sizeof text[n]);
      for (char *p = text[n]; *p; p++)
        if (*p == '\t') *p = ' ';
      n++;
    }
  }
}

static bool write_source(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return false;
  fprintf(f, "  .option norelax\n  .text\n  .globl _start\n_start:\n");
  for (size_t i = 0; i < n; i++) fprintf(f, "  %s\n", text[i]);
  return fclose(f) == 0;
}

static int compare_words(const char *bin, const char *who) {
  static uint32_t got[MAX_LINES];
  size_t m = read_words(bin, got, MAX_LINES);
  int bad = m == n ? 0 : 1;
  for (size_t i = 0; i < n && i < m; i++)
    if (got[i] != words[i] && bad++ < 20)
      fprintf(stderr, "\"%s\": table 0x%08x, %s 0x%08x\n", text[i], words[i], who, got[i]);
  return bad;
}

TEST(set_is_complete) {
  generate();
  /* 9 W-forms, ld, sd, 44 RV64A rows, 3 shifts */
  CHECK_EQ_U32(st, n, (9 + 2 + 44 + 3) * PER_INSN);
}

TEST(gnu_as_and_vt_as_encode_the_text) {
  if (!have_tool(GNU "as")) {
    printf("SKIP: binutils-riscv64-unknown-elf not installed\n");
    return;
  }
  generate();
  CHECK(st, write_source("rv64.s"));
  CHECK(st, system(GNU "as -march=rv64ia -o rv64.o rv64.s && " GNU
                       "objcopy -O binary -j .text rv64.o rv64.bin") == 0);
  CHECK(st, compare_words("rv64.bin", "GNU as") == 0);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s' as -o vt.elf rv64.s && " GNU "objcopy -O binary -j .text vt.elf vt.bin",
           VT_BINARY);
  CHECK(st, system(cmd) == 0);
  CHECK(st, compare_words("vt.bin", "vt as") == 0);
  /* GNU objdump names the same instructions */
  CHECK(st, system(GNU "objdump -d -M no-aliases rv64.o > gnu.dis") == 0);
  FILE *f = fopen("gnu.dis", "r");
  CHECK(st, f != NULL);
  if (!f) return;
  char line[512];
  size_t i = 0;
  int bad = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned addr, w;
    char mn[32];
    if (sscanf(line, " %x:\t%x \t%31s", &addr, &w, mn) != 3 || i >= n) continue;
    size_t l = strcspn(text[i], " ");
    if (w != words[i] || strlen(mn) != l || strncmp(mn, text[i], l) != 0)
      if (bad++ < 20) fprintf(stderr, "GNU objdump: 0x%08x %s, vt \"%s\"\n", w, mn, text[i]);
    i++;
  }
  fclose(f);
  CHECK(st, i == n && bad == 0);
}

TEST(llvm_objdump_prints_the_same_text) {
  const char *tool = have_tool("llvm-objdump-14") ? "llvm-objdump-14" : "llvm-objdump";
  if (!have_tool(tool) || !have_tool("llvm-mc")) {
    printf("SKIP: llvm-objdump or llvm-mc not installed\n");
    return;
  }
  generate();
  FILE *f = fopen("words.s", "w");
  CHECK(st, f != NULL);
  if (!f) return;
  for (size_t i = 0; i < n; i++) fprintf(f, ".word 0x%08x\n", words[i]);
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd,
           "llvm-mc -triple=riscv64 -mattr=+m,+a -filetype=obj words.s -o words.o && "
           "%s -d -M no-aliases --mattr=+m,+a words.o > llvm.dis",
           tool);
  CHECK(st, system(cmd) == 0);
  f = fopen("llvm.dis", "r");
  CHECK(st, f != NULL);
  if (!f) return;
  char line[512];
  size_t i = 0;
  int bad = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned addr, b0, b1, b2, b3;
    if (sscanf(line, " %x: %x %x %x %x", &addr, &b0, &b1, &b2, &b3) != 5 || i >= n) continue;
    char *t = strchr(line, '\t');
    if (!t) continue;
    t++;
    t[strcspn(t, "\n")] = 0;
    for (char *p = t; *p; p++)
      if (*p == '\t') *p = ' ';
    if (strcmp(t, text[i]) != 0 && bad++ < 20)
      fprintf(stderr, "0x%08x: llvm \"%s\", vt \"%s\"\n", words[i], t, text[i]);
    i++;
  }
  fclose(f);
  CHECK(st, i == n && bad == 0);
}

RUN_TESTS(T(set_is_complete), T(gnu_as_and_vt_as_encode_the_text),
          T(llvm_objdump_prints_the_same_text))
