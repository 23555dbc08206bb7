/* Disassembly text oracle: random words of every standard instruction of the
 * table are disassembled by LLVM's llvm-objdump and by vt_disasm; the texts
 * must be identical (the official Ventus dumps are made by llvm-objdump).
 * Normalised: trailing whitespace (LLVM 14 prints a tab after operand-less
 * mnemonics, the official newer dumps do not) and LLVM's f-register names
 * mapped to the x register of the same number: for vector FP (LLVM cannot
 * combine Zfinx with V) and for fmv.x.w/fmv.w.x, which LLVM 14 decodes as F
 * instructions even with +zfinx (Zfinx prints x names, isa2025.md 3.1.7).
 * Skips when llvm-mc/llvm-objdump are absent. */
#include <ctype.h>

#include "check.h"
#include "gen_operands.h"

#define PER_INSN 24

static bool have_tool(const char *name) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
  return system(cmd) == 0;
}

static bool is_vector(const vt_insn_desc *d) {
  switch ((vt_exec_class)d->exec_class) {
  case VT_EX_VSET: case VT_EX_VALU: case VT_EX_VMUL: case VT_EX_VDIV: case VT_EX_VFPU:
  case VT_EX_VSFU: case VT_EX_VLOAD: case VT_EX_VSTORE: case VT_EX_VPERM: case VT_EX_VMASK:
    return true;
  default:
    return false;
  }
}

static const char *symbolize_text(void *ctx, uint32_t addr, uint32_t *off) {
  (void)ctx; /* llvm-objdump names even targets past the end .text+N */
  if (addr >= 0x80000000u) return NULL;
  *off = addr;
  return ".text";
}

/* LLVM FP register names -> x register of the same number (Zfinx) */
static void map_fregs(char *s) {
  static const char *const f[32] = {
      "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",
      "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5",
      "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};
  char out[256];
  size_t o = 0;
  for (char *p = s; *p && o + 8 < sizeof out;) {
    if (*p == 'f' && (p == s || !isalnum((unsigned char)p[-1]))) {
      size_t n = 0;
      while (isalnum((unsigned char)p[n])) n++;
      int r = -1;
      for (int i = 0; i < 32; i++)
        if (strlen(f[i]) == n && !strncmp(p, f[i], n)) r = i;
      if (r >= 0) {
        const char *x = vt_xreg_name((unsigned)r);
        memcpy(out + o, x, strlen(x));
        o += strlen(x);
        p += n;
        continue;
      }
    }
    out[o++] = *p++;
  }
  out[o] = 0;
  strcpy(s, out);
}

static void rstrip(char *s) {
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
}

static int compare_group(check_state *st, bool vector, rng *r) {
  char src[256], obj[256], dis[256], cmd[4096];
  snprintf(src, sizeof src, "%s/llvm_%s.s", VT_TEST_TMP, vector ? "v" : "s");
  snprintf(obj, sizeof obj, "%s/llvm_%s.o", VT_TEST_TMP, vector ? "v" : "s");
  snprintf(dis, sizeof dis, "%s/llvm_%s.txt", VT_TEST_TMP, vector ? "v" : "s");
  static uint32_t words[VT_INSN_COUNT * PER_INSN];
  size_t n = 0;
  FILE *f = fopen(src, "w");
  if (!f) return -1;
  for (unsigned id = 0; id < VT_INSN_COUNT; id++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
    if (gen_rv32_tools_lack(d) || id == VT_INSN_FLW || id == VT_INSN_FSW) continue;
    if (is_vector(d) != vector) continue;
    for (int k = 0; k < PER_INSN; k++) {
      words[n] = gen_random_word((vt_insn_id)id, r, true);
      fprintf(f, ".word 0x%08x\n", words[n++]);
    }
  }
  fclose(f);
  const char *attrs = vector ? "+m,+a,+f,+v" : "+m,+a,+zfinx";
  snprintf(cmd, sizeof cmd,
           "llvm-mc -triple=riscv32 -mattr=%s -filetype=obj %s -o %s && "
           "llvm-objdump -d --mattr=%s %s > %s",
           attrs, src, obj, attrs, obj, dis);
  if (system(cmd) != 0) {
    st->failed_checks++;
    fprintf(stderr, "llvm tools failed: %s\n", cmd);
    return -1;
  }
  f = fopen(dis, "r");
  if (!f) return -1;
  char line[512];
  size_t i = 0;
  int mismatches = 0;
  uint32_t size = (uint32_t)(n * 4);
  vt_disasm_opts opts = {.numeric_csr = true, .symbolize = symbolize_text, .ctx = &size};
  while (fgets(line, sizeof line, f)) {
    unsigned addr, b0, b1, b2, b3;
    if (sscanf(line, " %x: %x %x %x %x", &addr, &b0, &b1, &b2, &b3) != 5) continue;
    char *text = strchr(line, '\t');
    if (!text || i >= n) continue;
    text++;
    rstrip(text);
    map_fregs(text);
    /* LLVM 14 symbolizes targets below the section start with a 64-bit
     * wrapped offset; drop that annotation */
    char *wrap = strstr(text, " <.text+0xffffffff");
    if (wrap) *wrap = 0;
    char mine[256];
    vt_disasm(words[i], addr, &opts, mine, sizeof mine);
    if (strcmp(mine, text) != 0) {
      if (mismatches++ < 40)
        fprintf(stderr, "0x%08x: llvm \"%s\", vt \"%s\"\n", words[i], text, mine);
    }
    i++;
  }
  fclose(f);
  if (i != n) {
    st->failed_checks++;
    fprintf(stderr, "parsed %zu of %zu instructions from llvm-objdump\n", i, n);
  }
  if (mismatches) {
    st->failed_checks++;
    fprintf(stderr, "%d of %zu %s instructions differ from llvm-objdump\n", mismatches, n,
            vector ? "vector" : "scalar");
  }
  return 0;
}

TEST(scalar_text_matches_llvm) {
  if (!have_tool("llvm-mc") || !have_tool("llvm-objdump")) {
    printf("SKIP: llvm-mc/llvm-objdump not installed\n");
    return;
  }
  rng r = {0x1234567887654321ULL};
  compare_group(st, false, &r);
}

TEST(vector_text_matches_llvm) {
  if (!have_tool("llvm-mc") || !have_tool("llvm-objdump")) {
    printf("SKIP: llvm-mc/llvm-objdump not installed\n");
    return;
  }
  rng r = {0x0badc0ffee0ddf00ULL};
  compare_group(st, true, &r);
}

/* every CSR number: names as llvm-objdump prints them */
TEST(csr_names_match_llvm) {
  if (!have_tool("llvm-mc") || !have_tool("llvm-objdump")) {
    printf("SKIP: llvm-mc/llvm-objdump not installed\n");
    return;
  }
  char src[256], obj[256], dis[256], cmd[2048];
  snprintf(src, sizeof src, "%s/llvm_csr.s", VT_TEST_TMP);
  snprintf(obj, sizeof obj, "%s/llvm_csr.o", VT_TEST_TMP);
  snprintf(dis, sizeof dis, "%s/llvm_csr.txt", VT_TEST_TMP);
  FILE *f = fopen(src, "w");
  if (!f) return;
  for (unsigned n = 0; n < 4096; n++) fprintf(f, ".word 0x%08x\n", (n << 20) | 0x2573u);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "llvm-mc -triple=riscv32 -mattr=+zfinx -filetype=obj %s -o %s && "
           "llvm-objdump -d --mattr=+zfinx %s > %s", src, obj, obj, dis);
  CHECK(st, system(cmd) == 0);
  f = fopen(dis, "r");
  if (!f) return;
  char line[256];
  unsigned n = 0, bad = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned addr, b0, b1, b2, b3;
    if (sscanf(line, " %x: %x %x %x %x", &addr, &b0, &b1, &b2, &b3) != 5) continue;
    char *text = strchr(line, '\t');
    if (!text) continue;
    rstrip(++text);
    char mine[128];
    vt_disasm_opts o = {.numeric_csr = true};
    vt_disasm((n << 20) | 0x2573u, addr, &o, mine, sizeof mine);
    if (strcmp(mine, text) != 0 && bad++ < 20)
      fprintf(stderr, "csr %u: llvm \"%s\", vt \"%s\"\n", n, text, mine);
    n++;
  }
  fclose(f);
  CHECK(st, n == 4096);
  CHECK(st, bad == 0);
}

RUN_TESTS(T(scalar_text_matches_llvm), T(vector_text_matches_llvm), T(csr_names_match_llvm))
