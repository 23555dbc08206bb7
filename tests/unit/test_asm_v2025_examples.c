/* Every worked example of the v2025 specification (isa2025.md, the lines
 * "ASM # => 0xHEX" in its code blocks), all families including MMA, MMA64
 * and the cp_dma family: the document's encoding, the reference
 * encoder isa2025_enc.py --asm (run here as an independent oracle) and
 * `vt as` must give the same instruction (value and length: 8 hex digits =
 * 32 bits, 16 = 64 bits), and `vt objdump` must print each one back as the
 * document writes it (`.insn` lines excepted: they print the instruction).
 * Exits 77 (skipped) without python3 or the spec folder. */
#include <ctype.h>

#include "check.h"
#include "oracle_util.h"

#define SPEC_DOC VT_SHARED_DIR "/spec/isa2025.md"
#define SPEC_ENC VT_SHARED_DIR "/spec/isa2025_enc.py"
#define MAX_EX 512

typedef struct example {
  unsigned line;       /* in isa2025.md */
  char text[160];      /* the assembly */
  uint64_t value;      /* the document's encoding */
  unsigned length;     /* 4 or 8, from the number of hex digits */
} example;

static example ex[MAX_EX];
static size_t nex;

/* the same rule as isa2025_enc.py doc_examples(): inside ``` blocks, lines
 * "ASM # => 0xHEX" where ASM has no '#' */
static bool load_examples(void) {
  FILE *f = fopen(SPEC_DOC, "r");
  if (!f) return false;
  char line[512];
  unsigned n = 0;
  bool code = false;
  while (fgets(line, sizeof line, f)) {
    n++;
    const char *p = line;
    while (*p == ' ') p++;
    if (!strncmp(p, "```", 3)) {
      code = !code;
      continue;
    }
    const char *arrow = strstr(line, "# =>");
    if (!code || !arrow || strchr(line, '#') != arrow) continue;
    size_t len = (size_t)(arrow - p);
    while (len && isspace((unsigned char)p[len - 1])) len--;
    const char *h = arrow + 4;
    while (*h == ' ') h++;
    char hex[40];
    size_t k = 0;
    if (strncmp(h, "0x", 2) != 0) continue;
    for (h += 2; isxdigit((unsigned char)*h) || *h == '_'; h++)
      if (*h != '_' && k + 1 < sizeof hex) hex[k++] = *h;
    hex[k] = 0;
    if (nex >= MAX_EX || len >= sizeof ex[0].text) continue;
    memcpy(ex[nex].text, p, len);
    ex[nex].text[len] = 0;
    ex[nex].line = n;
    ex[nex].value = strtoull(hex, NULL, 16);
    ex[nex].length = k == 16 ? 8 : 4;
    nex++;
  }
  fclose(f);
  return nex > 0;
}

/* collapse blanks, trim */
static void normalise(char *s) {
  char *o = s;
  bool blank = false;
  for (char *p = s; *p; p++) {
    if (isspace((unsigned char)*p)) {
      blank = o != s;
      continue;
    }
    if (blank) *o++ = ' ';
    blank = false;
    *o++ = *p;
  }
  *o = 0;
}

TEST(examples_found) {
  /* every example line of the document (the reference encoder's
   * self-test counts 243) */
  CHECK(st, nex >= 243);
  size_t mma = 0, dma = 0;
  for (size_t i = 0; i < nex; i++) {
    mma += !strncmp(ex[i].text, "mma", 3);
    dma += !strncmp(ex[i].text, "cp_dma", 6);
  }
  CHECK(st, mma == 30 + 4 + 36 && dma == 8); /* 3.6.5, 3.7.4, 3.9 */
  printf("%zu examples of isa2025.md (%zu MMA/MMA64, %zu DMA)\n", nex, mma, dma);
}

TEST(reference_encoder_agrees) {
  static char cmd[65536];
  size_t o = (size_t)snprintf(cmd, sizeof cmd, "python3 '%s' --defs '%s/include/vt' --asm",
                              SPEC_ENC, VT_SOURCE_DIR);
  for (size_t i = 0; i < nex; i++)
    o += (size_t)snprintf(cmd + o, sizeof cmd - o, " '%s'", ex[i].text);
  snprintf(cmd + o, sizeof cmd - o, " > py.txt");
  CHECK(st, o + 20 < sizeof cmd);
  CHECK(st, system(cmd) == 0);
  FILE *f = fopen("py.txt", "r");
  CHECK(st, f != NULL);
  if (!f) return;
  char line[512];
  size_t i = 0;
  while (fgets(line, sizeof line, f) && i < nex) {
    const char *h = strstr(line, "# => 0x");
    uint64_t v = h ? strtoull(h + 5, NULL, 16) : ~0ull;
    if (v != ex[i].value) {
      st->failed_checks++;
      fprintf(stderr, "isa2025.md:%u: %s: document 0x%llx, isa2025_enc.py %s", ex[i].line,
              ex[i].text, (unsigned long long)ex[i].value, line);
    }
    i++;
  }
  fclose(f);
  CHECK(st, i == nex);
}

/* "80000000: 1b 05 b6 ff  \taddiw\ta0, a2, -5" */
static bool parse_dump_line(const char *line, uint64_t *value, unsigned *len, char *text, size_t n) {
  const char *p = strchr(line, ':');
  if (!p || p - line != 8) return false;
  p++;
  uint64_t v = 0;
  unsigned k = 0;
  while (*p == ' ' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2]) &&
         (p[3] == ' ' || p[3] == '\t')) {
    unsigned b = (unsigned)strtoul((char[3]){p[1], p[2], 0}, NULL, 16);
    v |= (uint64_t)b << (8 * k++);
    p += 3;
  }
  while (*p == ' ') p++;
  if (*p != '\t' || (k != 4 && k != 8)) return false;
  snprintf(text, n, "%s", p + 1);
  *value = v;
  *len = k;
  return true;
}

TEST(vt_as_and_objdump_agree_with_the_document) {
  FILE *f = fopen("ex.s", "w");
  CHECK(st, f != NULL);
  if (!f) return;
  fprintf(f, ".text\n.globl _start\n_start:\n");
  for (size_t i = 0; i < nex; i++) fprintf(f, "  %s\n", ex[i].text);
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "'%s' as -o ex.elf ex.s && '%s' objdump -d ex.elf > ex.dis",
           VT_BINARY, VT_BINARY);
  CHECK(st, system(cmd) == 0);
  f = fopen("ex.dis", "r");
  CHECK(st, f != NULL);
  if (!f) return;
  char line[512], text[400];
  size_t i = 0;
  int bad = 0;
  while (fgets(line, sizeof line, f) && i < nex) {
    uint64_t v;
    unsigned len;
    if (!parse_dump_line(line, &v, &len, text, sizeof text)) continue;
    normalise(text);
    char want[200];
    snprintf(want, sizeof want, "%s", ex[i].text);
    normalise(want);
    bool insn = !strncmp(want, ".insn", 5);
    if (v != ex[i].value || len != ex[i].length || (!insn && strcmp(text, want) != 0)) {
      if (bad++ < 30)
        fprintf(stderr, "isa2025.md:%u: \"%s\" = 0x%llx (%u bytes): vt as 0x%llx (%u), vt "
                        "objdump \"%s\"\n",
                ex[i].line, ex[i].text, (unsigned long long)ex[i].value, ex[i].length,
                (unsigned long long)v, len, text);
    }
    i++;
  }
  fclose(f);
  CHECK(st, bad == 0);
  CHECK(st, i == nex);
}

int main(int argc, char **argv) {
  if (!have_tool("python3") || !load_examples()) {
    printf("SKIP: python3 or %s not found\n", SPEC_DOC);
    return VT_TEST_SKIPPED;
  }
  static const test_case tests[] = {T(examples_found), T(reference_encoder_agrees),
                                    T(vt_as_and_objdump_agree_with_the_document)};
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
