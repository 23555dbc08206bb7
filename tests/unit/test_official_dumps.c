/* Conformance of vt_disasm against the official llvm-objdump listings in
 * VT_SHARED_DIR/cases/ * / *.dump (kernels built by the official Ventus
 * toolchain). Every instruction line "ADDR: b0 b1 b2 b3  \tTEXT" is decoded
 * from its printed bytes and disassembled with numeric CSRs and a symbolizer
 * built from the dump's own label lines "ADDR <name>:"; the text must match
 * exactly. Mismatches are reported as file:line. A T_CASES test (skipped by
 * CTest when the shared folder is absent). */
#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>

#include "check.h"
#include "vt/isa.h"

typedef struct label {
  uint32_t addr;
  char name[128];
} label;

typedef struct labels {
  label *v;
  size_t n, cap;
} labels;

/* Nearest label at or before addr (the last one listed at that address
 * wins, as in the dump the label printed last precedes the code). */
static const char *symbolize(void *ctx, uint32_t addr, uint32_t *off) {
  const labels *ls = ctx;
  const label *best = NULL;
  for (size_t i = 0; i < ls->n; i++)
    if (ls->v[i].addr <= addr && (!best || ls->v[i].addr >= best->addr)) best = &ls->v[i];
  if (!best) return NULL;
  *off = addr - best->addr;
  return best->name;
}

static bool parse_hex(const char *s, size_t n, uint32_t *v) {
  uint32_t x = 0;
  if (n == 0 || n > 8) return false;
  for (size_t i = 0; i < n; i++) {
    int c = (unsigned char)s[i];
    if (!isxdigit(c)) return false;
    x = x * 16 + (uint32_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
  }
  *v = x;
  return true;
}

/* "80000048 <.Ltmp1>:" */
static bool parse_label(const char *line, uint32_t *addr, char *name, size_t n) {
  const char *sp = strchr(line, ' ');
  size_t len = strlen(line);
  if (!sp || len < 5 || sp[1] != '<' || strcmp(line + len - 2, ">:") != 0) return false;
  if (!parse_hex(line, (size_t)(sp - line), addr)) return false;
  size_t nl = (size_t)(line + len - 2 - (sp + 2));
  if (nl + 1 > n) return false;
  memcpy(name, sp + 2, nl);
  name[nl] = 0;
  return true;
}

/* "80000044: 63 08 c5 00  \tbeq\ta0, a2, 0x80000054 <.Ltmp0>" */
static bool parse_insn(const char *line, uint32_t *addr, uint32_t *word, const char **text) {
  const char *colon = strchr(line, ':');
  if (!colon || !parse_hex(line, (size_t)(colon - line), addr)) return false;
  const char *p = colon + 1;
  uint32_t w = 0;
  for (int i = 0; i < 4; i++) {
    uint32_t b;
    if (p[0] != ' ' || !parse_hex(p + 1, 2, &b)) return false;
    w |= b << (8 * i);
    p += 3;
  }
  if (strncmp(p, "  \t", 3) != 0) return false;
  *word = w;
  *text = p + 3;
  return true;
}

static int check_dump(check_state *st, const char *path, int *lines_checked) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "%s: cannot open\n", path);
    st->failed_checks++;
    return 0;
  }
  labels ls = {0};
  char line[512];
  /* pass 1: labels */
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    uint32_t a;
    char name[128];
    if (parse_label(line, &a, name, sizeof name)) {
      if (ls.n == ls.cap) {
        ls.cap = ls.cap ? ls.cap * 2 : 64;
        ls.v = realloc(ls.v, ls.cap * sizeof *ls.v);
        if (!ls.v) abort();
      }
      ls.v[ls.n].addr = a;
      snprintf(ls.v[ls.n].name, sizeof ls.v[ls.n].name, "%s", name);
      ls.n++;
    }
  }
  rewind(f);
  vt_disasm_opts o = {0};
  o.numeric_csr = true;
  o.symbolize = symbolize;
  o.ctx = &ls;
  int lineno = 0, mismatches = 0, insns = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    line[strcspn(line, "\n")] = 0;
    uint32_t addr, word;
    const char *text;
    if (!parse_insn(line, &addr, &word, &text)) continue;
    insns++;
    char buf[256];
    vt_disasm(word, addr, &o, buf, sizeof buf);
    if (strcmp(buf, text) != 0) {
      mismatches++;
      fprintf(stderr, "%s:%d: word 0x%08x: expected \"%s\", got \"%s\"\n", path, lineno, word,
              text, buf);
    }
  }
  fclose(f);
  free(ls.v);
  if (insns == 0) {
    fprintf(stderr, "%s: no instruction lines found\n", path);
    st->failed_checks++;
  }
  st->failed_checks += mismatches;
  *lines_checked += insns;
  return insns;
}

TEST(official_dumps_match) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s/cases", VT_SHARED_DIR);
  DIR *d = opendir(dir);
  CHECK(st, d != NULL);
  if (!d) return;
  int files = 0, lines = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char sub[1400];
    snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
    DIR *d2 = opendir(sub);
    if (!d2) continue;
    struct dirent *e2;
    while ((e2 = readdir(d2))) {
      size_t n = strlen(e2->d_name);
      if (n < 6 || strcmp(e2->d_name + n - 5, ".dump") != 0) continue;
      char path[2000];
      snprintf(path, sizeof path, "%s/%s", sub, e2->d_name);
      check_dump(st, path, &lines);
      files++;
    }
    closedir(d2);
  }
  closedir(d);
  printf("checked %d instruction lines in %d dump files\n", lines, files);
  CHECK(st, files > 0); /* the cases folder holds .dump listings */
}

/* The parser and the comparison must be able to fail: a wrong text for a
 * known line is detected. */
TEST(comparison_detects_mismatch) {
  uint32_t addr, word;
  const char *text;
  CHECK(st, parse_insn("80000044: 63 08 c5 00  \tbeq\ta0, a2, 0x80000054 <.Ltmp0>", &addr, &word,
                       &text));
  CHECK_EQ_U32(st, addr, 0x80000044);
  CHECK_EQ_U32(st, word, 0x00c50863);
  labels ls = {0};
  label l = {0x80000054, ".Ltmp0"};
  ls.v = &l;
  ls.n = 1;
  vt_disasm_opts o = {0};
  o.numeric_csr = true;
  o.symbolize = symbolize;
  o.ctx = &ls;
  char buf[128];
  vt_disasm(word, addr, &o, buf, sizeof buf);
  CHECK_STR(st, buf, text);
  CHECK(st, strcmp(buf, "beq\ta0, a2, 0x80000054") != 0);
  uint32_t a;
  char name[64];
  CHECK(st, parse_label("80000048 <.Ltmp1>:", &a, name, sizeof name));
  CHECK_STR(st, name, ".Ltmp1");
  CHECK(st, !parse_label("80000048: 23 20 05 00  \tsw\tzero, 0(a0)", &a, name, sizeof name));
}

RUN_TESTS(T_CASES(official_dumps_match), T(comparison_detects_mismatch))
