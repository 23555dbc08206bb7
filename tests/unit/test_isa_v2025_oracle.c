/* Random instances of every v2025 row of the table (isa2025.md parts 1 and 2) and
 * of the v2.02 rows whose encodings v2025 widens (regext, regexti, slli,
 * srli, srai): the words (match | random free bits) go through `vt as`
 * (.word) and `vt objdump`, and the reference encoder isa2025_enc.py --asm
 * must assemble each printed line back to the same word (spec 7: decode /
 * encode round trip against the reference encoder). Odd pair registers print
 * as .insn lines, which the encoder also reads. Exits 77 (skipped) without
 * python3 or the spec folder. */
#include "check.h"
#include "oracle_util.h"
#include "vt/isa.h"

#define SPEC_ENC VT_SHARED_DIR "/spec/isa2025_enc.py"
#define PER_ROW 10
#define MAX_N (VT_INSN_COUNT * PER_ROW)

static uint64_t insns[MAX_N];
static unsigned lens[MAX_N];
static char texts[MAX_N][200];
static size_t n;

static uint64_t next(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 0x2545F4914F6CDD1DULL;
}

static bool wanted(vt_insn_id id) {
  return id >= VT_INSN_ADDIW || id == VT_INSN_REGEXT || id == VT_INSN_REGEXTI ||
         id == VT_INSN_SLLI || id == VT_INSN_SRLI || id == VT_INSN_SRAI;
}

TEST(reference_encoder_reads_vt_objdump) {
  uint64_t seed = 0x2025;
  FILE *f = fopen("words.s", "w");
  CHECK(st, f != NULL);
  if (!f) return;
  fprintf(f, ".text\n.globl _start\n_start:\n");
  for (unsigned id = 0; id < VT_INSN_COUNT; id++) {
    if (!wanted((vt_insn_id)id)) continue;
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    for (int k = 0; k < PER_ROW; k++) {
      uint64_t w = (next(&seed) & ~d->mask) | d->match;
      if (d->length == 4) w &= 0xffffffffu;
      insns[n] = w;
      lens[n] = d->length;
      fprintf(f, "  .word 0x%08x\n", (uint32_t)w);
      if (d->length == 8) fprintf(f, "  .word 0x%08x\n", (uint32_t)(w >> 32));
      n++;
    }
  }
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s' as -o w.elf words.s && '%s' objdump -d w.elf > w.dis",
           VT_BINARY, VT_BINARY);
  CHECK(st, system(cmd) == 0);
  f = fopen("w.dis", "r");
  CHECK(st, f != NULL);
  if (!f) return;
  char line[512];
  size_t i = 0;
  while (fgets(line, sizeof line, f) && i < n) {
    char *t = strchr(line, '\t');
    if (strncmp(line, "800", 3) != 0 || !t || !strchr(line, ':')) continue;
    snprintf(texts[i], sizeof texts[i], "%s", t + 1);
    texts[i][strcspn(texts[i], "\n")] = 0;
    for (char *p = texts[i]; *p; p++)
      if (*p == '\t') *p = ' ';
    i++;
  }
  fclose(f);
  CHECK(st, i == n);
  /* in batches: the shell's command string is one argument (at most 128 KiB) */
  static char big[1 << 16];
  CHECK(st, system(": > py.txt") == 0);
  for (size_t k = 0; k < n;) {
    size_t o = (size_t)snprintf(big, sizeof big, "python3 '%s' --defs '%s/include/vt' --asm",
                                SPEC_ENC, VT_SOURCE_DIR);
    while (k < n && o + strlen(texts[k]) + 64 < sizeof big)
      o += (size_t)snprintf(big + o, sizeof big - o, " '%s'", texts[k++]);
    snprintf(big + o, sizeof big - o, " >> py.txt");
    int rc = system(big);
    CHECK(st, rc == 0);
    if (rc) return;
  }
  f = fopen("py.txt", "r");
  CHECK(st, f != NULL);
  if (!f) return;
  i = 0;
  int bad = 0;
  while (fgets(line, sizeof line, f) && i < n) {
    const char *h = strstr(line, "# => 0x");
    uint64_t v = h ? strtoull(h + 5, NULL, 16) : ~0ull;
    size_t digits = h ? strspn(h + 7, "0123456789abcdef") : 0;
    if ((v != insns[i] || digits != 2 * lens[i]) && bad++ < 20)
      fprintf(stderr, "0x%llx printed \"%s\": isa2025_enc.py %s", (unsigned long long)insns[i],
              texts[i], line);
    i++;
  }
  fclose(f);
  CHECK(st, i == n && bad == 0);
  printf("%zu instructions of %zu rows read back by the reference encoder\n", n, n / PER_ROW);
}

/* isa2025_enc.py --selftest --vt (Appendix B item 9): one sample word of
 * every new form through `vt as` and `vt objdump`; every one must be printed
 * so that the encoder assembles it back (none unknown, none wrong), and the
 * document's examples and tables must agree with the encoder. */
TEST(reference_selftest_knows_every_form) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd,
           "python3 '%s' --selftest --doc '%s/spec/isa2025.md' --defs '%s/include/vt' --vt '%s' "
           "> selftest.txt 2>&1",
           SPEC_ENC, VT_SHARED_DIR, VT_SOURCE_DIR, VT_BINARY);
  CHECK(st, system(cmd) == 0);
  FILE *f = fopen("selftest.txt", "r");
  CHECK(st, f != NULL);
  if (!f) return;
  char line[1024];
  bool passed = false, counted = false;
  while (fgets(line, sizeof line, f)) {
    const char *v = strstr(line, "sample words of new forms");
    unsigned total = 0, known = 0, unknown = 1, wrong = 1;
    if (v && sscanf(strstr(line, "): ") + 3, "%u sample words of new forms (%*u of them 64-bit): %u "
                    "printed so that they assemble back, %u not known yet, %u printed wrongly",
                    &total, &known, &unknown, &wrong) == 4) {
      counted = true;
      CHECK(st, total == 272 && known == total && unknown == 0 && wrong == 0);
      printf("%s", line);
    }
    passed |= strncmp(line, "SELFTEST PASSED", 15) == 0;
  }
  fclose(f);
  CHECK(st, counted && passed);
}

int main(int argc, char **argv) {
  if (!have_tool("python3") || access(SPEC_ENC, R_OK) != 0) {
    printf("SKIP: python3 or %s not found\n", SPEC_ENC);
    return VT_TEST_SKIPPED;
  }
  static const test_case tests[] = {T(reference_encoder_reads_vt_objdump),
                                    T(reference_selftest_knows_every_form)};
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
