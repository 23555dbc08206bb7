/* The debugger's DWARF line reader (src/debug/dbg_lines.c) against GNU
 * addr2line: every instruction address of programs from vt as -g (DWARF
 * 4) and from GNU as with -gdwarf-2 to -gdwarf-5 (+ GNU ld) maps to the
 * same file and line; FILE:LINE look-ups give addresses addr2line maps
 * back to the first line with code at or after LINE; and corrupted or
 * truncated line tables are rejected or read without a crash. Skipped
 * (77) without the GNU RISC-V binutils. */
#include "debug/dbg_internal.h"
#include "debug_test_util.h"

#define TOOLS "riscv64-unknown-elf-"

static const char *basename_of(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* addr2line's "file:line" for each address, one per line */
static char *addr2line(const char *elf, uint32_t lo, uint32_t hi) {
  char *cmd = malloc(64 + 12 * (size_t)((hi - lo) / 4 + 1) + 256);
  int n = sprintf(cmd, TOOLS "addr2line -e %s", elf);
  for (uint32_t a = lo; a < hi; a += 4) n += sprintf(cmd + n, " 0x%x", a);
  sprintf(cmd + n, " >a2l.out");
  int rc = dt_sh(cmd);
  free(cmd);
  return rc == 0 ? dt_slurp("a2l.out") : NULL;
}

static vt_elf *open_elf(const char *path) {
  vt_elf *e = NULL;
  char err[512];
  return vt_elf_open_file(path, &e, err, sizeof err) == 0 ? e : NULL;
}

/* compare every address of .text; returns the number compared */
static unsigned compare_all(check_state *st, const char *path) {
  vt_elf *elf = open_elf(path);
  CHECK(st, elf != NULL);
  if (!elf) return 0;
  dbg_lines L;
  memset(&L, 0, sizeof L);
  char err[256];
  CHECK(st, dbg_lines_load(&L, elf, err, sizeof err) == 0);
  const vt_elf_section *text = vt_elf_section_by_name(elf, ".text");
  CHECK(st, text != NULL);
  unsigned n = 0;
  char *a2l = text ? addr2line(path, text->addr, text->addr + text->size) : NULL;
  CHECK(st, a2l != NULL);
  const char *p = a2l;
  for (uint32_t a = text ? text->addr : 0; p && *p && a < text->addr + text->size; a += 4, n++) {
    char want[512];
    size_t len = strcspn(p, "\n");
    snprintf(want, sizeof want, "%.*s", (int)len, p);
    p += len + (p[len] == '\n');
    char *disc = strstr(want, " (discriminator");
    if (disc) *disc = 0;
    const char *file;
    uint32_t line;
    char got[512] = "??:0";
    if (dbg_lines_at(&L, a, &file, &line)) snprintf(got, sizeof got, "%s:%u", basename_of(file), line);
    char *colon = strrchr(want, ':');
    char wantb[512];
    snprintf(wantb, sizeof wantb, "%s", colon ? basename_of(want) : want);
    if (strcmp(got, wantb) != 0 && !(strstr(wantb, "??") && !strcmp(got, "??:0"))) {
      st->failed_checks++;
      fprintf(stderr, "%s 0x%08x: ours %s, addr2line %s\n", path, a, got, wantb);
      break;
    }
  }
  free(a2l);
  dbg_lines_free(&L);
  vt_elf_free(elf);
  return n;
}

/* for each line 1..max: the FILE:LINE look-up against addr2line */
static void check_find(check_state *st, const char *path, const char *file, unsigned max) {
  vt_elf *elf = open_elf(path);
  dbg_lines L;
  memset(&L, 0, sizeof L);
  char err[256];
  if (!elf || dbg_lines_load(&L, elf, err, sizeof err) != 0) {
    st->failed_checks++;
    vt_elf_free(elf);
    return;
  }
  unsigned last_found = 0;
  for (unsigned line = 1; line <= max; line++) {
    uint32_t addrs[16], found;
    size_t n = dbg_lines_find(&L, file, line, addrs, 16, &found);
    if (!n) {
      CHECK(st, found == UINT32_MAX); /* past the last line with code */
      continue;
    }
    CHECK(st, found >= line && found >= last_found);
    last_found = found;
    for (size_t i = 0; i < n && i < 16; i++) {
      char *a2l = addr2line(path, addrs[i], addrs[i] + 4);
      char want[64];
      snprintf(want, sizeof want, "%s:%u", file, found);
      if (!a2l || !strstr(a2l, want)) {
        st->failed_checks++;
        fprintf(stderr, "%s:%u -> 0x%08x (line %u), addr2line says %s", file, line, addrs[i],
                found, a2l ? a2l : "nothing\n");
      }
      free(a2l);
    }
  }
  dbg_lines_free(&L);
  vt_elf_free(elf);
}

TEST(vt_as_line_tables) {
  CHECK(st, dt_setup_divergent() == 0);
  unsigned n = compare_all(st, "divergent.elf");
  printf("vt as -g: %u addresses compared\n", n);
  CHECK(st, n > 60);
  check_find(st, "divergent.elf", "divergent.s", 45);
  check_find(st, "divergent.elf", "crt0.s", 60);
}

static const char gnu_src[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    addi a0, a0, 1\n"
    "\n"
    "    li a1, 0x12345\n"
    "1:  addi a0, a0, -1\n"
    "    bnez a0, 1b\n"
    "    .rept 3\n"
    "    nop\n"
    "    .endr\n"
    "    call f\n"
    "    ret\n"
    "f:  add a2, a0, a1\n"
    "    ret\n";

TEST(gnu_as_dwarf_versions) {
  dt_spit("g.s", gnu_src);
  for (int v = 2; v <= 5; v++) {
    char cmd[512];
    snprintf(cmd, sizeof cmd, TOOLS "as -march=rv32im -mabi=ilp32 -gdwarf-%d g.s -o g%d.o && "
             TOOLS "ld -m elf32lriscv -Ttext 0x80000000 g%d.o -o g%d.elf", v, v, v, v);
    if (dt_sh(cmd) != 0) {
      printf("note: GNU as rejects -gdwarf-%d\n", v);
      continue;
    }
    char elf[32];
    snprintf(elf, sizeof elf, "g%d.elf", v);
    unsigned n = compare_all(st, elf);
    printf("GNU as -gdwarf-%d: %u addresses compared\n", v, n);
    CHECK(st, n >= 12);
    check_find(st, elf, "g.s", 16);
  }
}

/* every byte of .debug_line flipped, and cut short: no crash, and errors
 * come with a message */
TEST(corrupt_tables) {
  CHECK(st, dt_setup_divergent() == 0);
  char *img = NULL;
  FILE *f = fopen("divergent.elf", "rb");
  size_t size = 0;
  if (f) {
    fseek(f, 0, SEEK_END);
    size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    img = malloc(size);
    if (fread(img, 1, size, f) != size) size = 0;
    fclose(f);
  }
  vt_elf *elf = NULL;
  char err[512];
  CHECK(st, size && vt_elf_open_mem((uint8_t *)img, size, &elf, err, sizeof err) == 0);
  const vt_elf_section *s = elf ? vt_elf_section_by_name(elf, ".debug_line") : NULL;
  CHECK(st, s != NULL);
  uint32_t off = s ? s->offset : 0, len = s ? s->size : 0;
  vt_elf_free(elf);
  unsigned rejected = 0, tried = 0;
  for (uint32_t i = 0; i < len; i++) {
    for (int k = 0; k < 2; k++) {
      uint8_t old = (uint8_t)img[off + i];
      img[off + i] = (char)(k ? 0xff : old ^ 0x5a);
      vt_elf *e = NULL;
      if (vt_elf_open_mem((uint8_t *)img, size, &e, err, sizeof err) == 0) {
        dbg_lines L;
        memset(&L, 0, sizeof L);
        err[0] = 0;
        tried++;
        if (dbg_lines_load(&L, e, err, sizeof err) != 0) {
          rejected++;
          CHECK(st, !strncmp(err, ".debug_line: ", 13));
        }
        const char *file;
        uint32_t line, addrs[4], found;
        dbg_lines_at(&L, 0x800000b4, &file, &line);
        dbg_lines_find(&L, "divergent.s", 9, addrs, 4, &found);
        dbg_lines_free(&L);
        vt_elf_free(e);
      }
      img[off + i] = (char)old;
    }
  }
  printf("%u corrupted tables read, %u rejected\n", tried, rejected);
  CHECK(st, tried > 100 && rejected > 0);
  free(img);
}

int main(int argc, char **argv) {
  if (dt_sh(TOOLS "addr2line --version >/dev/null 2>&1") != 0) {
    printf("SKIP: " TOOLS "addr2line not found (binutils-riscv64-unknown-elf)\n");
    return VT_TEST_SKIPPED;
  }
  static const test_case tests[] = {
      T(vt_as_line_tables),
      T(gnu_as_dwarf_versions),
      T(corrupt_tables),
  };
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
