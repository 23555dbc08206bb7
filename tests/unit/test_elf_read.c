/* ELF reader: a hand-built image parsed field by field, a GNU as+ld image
 * checked against readelf, and malformed images (every truncation, targeted
 * corruptions, random mutations) that must give an error message and never
 * crash (run under -DVT_SANITIZE=ON as well). */
#include <elf.h>
#include <stdbool.h>

#include "check.h"
#include "elf_build.h"
#include "vt/elf.h"

static const uint8_t text_words[] = {
    0x97, 0x41, 0x00, 0x00, /* auipc gp, 4 */
    0x93, 0x81, 0x81, 0x80, /* addi gp, gp, -2040 */
    0x63, 0x08, 0xc5, 0x00, /* beq a0, a2, +16 */
    0x73, 0x23, 0x50, 0x80, /* csrr t1, 0x805 */
    0x0b, 0x40, 0x00, 0x00, /* endprg */
};

static const eb_sym test_syms[] = {
    {".Ltmp0", 0x80000008, 0, ELF32_ST_INFO(STB_LOCAL, STT_NOTYPE), STV_DEFAULT, 1},
    {"dup", 0x80000004, 0, ELF32_ST_INFO(STB_LOCAL, STT_NOTYPE), STV_DEFAULT, 1},
    {"_start", 0x80000000, 0, ELF32_ST_INFO(STB_GLOBAL, STT_NOTYPE), STV_DEFAULT, 1},
    {"kernel", 0x8000000c, 8, ELF32_ST_INFO(STB_GLOBAL, STT_FUNC), STV_HIDDEN, 1},
    {"dup", 0x80000010, 0, ELF32_ST_INFO(STB_GLOBAL, STT_NOTYPE), STV_DEFAULT, 1},
    {"undef", 0, 0, ELF32_ST_INFO(STB_GLOBAL, STT_NOTYPE), STV_DEFAULT, SHN_UNDEF},
    {"absval", 0x1234, 0, ELF32_ST_INFO(STB_GLOBAL, STT_NOTYPE), STV_DEFAULT, SHN_ABS},
};
#define NSYMS (sizeof test_syms / sizeof test_syms[0])

static uint8_t *build_test_elf(eb_layout *l) {
  return eb_build(text_words, sizeof text_words, 0x80000000, 0x80000000, test_syms, NSYMS, l);
}

TEST(hand_built_elf_parses) {
  eb_layout l;
  uint8_t *img = build_test_elf(&l);
  vt_elf *e = NULL;
  char err[256];
  int rc = vt_elf_open_mem(img, l.size, &e, err, sizeof err);
  CHECK(st, rc == 0);
  if (rc) {
    fprintf(stderr, "error: %s\n", err);
    free(img);
    return;
  }
  free(img); /* the reader keeps its own copy */
  CHECK_EQ_U32(st, vt_elf_entry(e), 0x80000000);
  CHECK_EQ_U32(st, vt_elf_machine(e), EM_RISCV);
  CHECK_EQ_U32(st, vt_elf_type(e), ET_EXEC);
  CHECK_EQ_U32(st, vt_elf_flags(e), 0);
  CHECK_EQ_U32(st, vt_elf_section_count(e), EB_SHNUM);
  CHECK_STR(st, vt_elf_section_at(e, 0)->name, "");
  CHECK_STR(st, vt_elf_section_at(e, 1)->name, ".text");
  CHECK_STR(st, vt_elf_section_at(e, 2)->name, ".symtab");
  CHECK_STR(st, vt_elf_section_at(e, 3)->name, ".strtab");
  CHECK_STR(st, vt_elf_section_at(e, 4)->name, ".shstrtab");
  CHECK(st, vt_elf_section_at(e, 5) == NULL);
  const vt_elf_section *t = vt_elf_section_by_name(e, ".text");
  CHECK(st, t == vt_elf_section_at(e, 1));
  CHECK(st, vt_elf_section_by_name(e, ".data") == NULL);
  if (t) {
    CHECK_EQ_U32(st, t->type, SHT_PROGBITS);
    CHECK_EQ_U32(st, t->flags, SHF_ALLOC | SHF_EXECINSTR);
    CHECK_EQ_U32(st, t->addr, 0x80000000);
    CHECK_EQ_U32(st, t->offset, 84);
    CHECK_EQ_U32(st, t->size, sizeof text_words);
    CHECK_EQ_U32(st, t->align, 4);
    CHECK(st, t->data && memcmp(t->data, text_words, sizeof text_words) == 0);
  }
  const vt_elf_section *sy = vt_elf_section_at(e, 2);
  CHECK_EQ_U32(st, sy->type, SHT_SYMTAB);
  CHECK_EQ_U32(st, sy->entsize, 16);
  CHECK_EQ_U32(st, sy->link, 3);
  CHECK_EQ_U32(st, sy->info, 3); /* first global: _start, index 3 */
  CHECK_EQ_U32(st, sy->offset, l.symtab_off);
  CHECK_EQ_U32(st, sy->size, 16 * (NSYMS + 1));
  CHECK_EQ_U32(st, vt_elf_segment_count(e), 1);
  const vt_elf_segment *g = vt_elf_segment_at(e, 0);
  CHECK(st, vt_elf_segment_at(e, 1) == NULL);
  CHECK_EQ_U32(st, g->type, PT_LOAD);
  CHECK_EQ_U32(st, g->flags, PF_R | PF_X);
  CHECK_EQ_U32(st, g->offset, 84);
  CHECK_EQ_U32(st, g->vaddr, 0x80000000);
  CHECK_EQ_U32(st, g->paddr, 0x80000000);
  CHECK_EQ_U32(st, g->filesz, sizeof text_words);
  CHECK_EQ_U32(st, g->memsz, sizeof text_words);
  CHECK(st, g->data && memcmp(g->data, text_words, sizeof text_words) == 0);
  CHECK_EQ_U32(st, vt_elf_symbol_count(e), NSYMS);
  for (size_t i = 0; i < NSYMS && i < vt_elf_symbol_count(e); i++) {
    const vt_elf_symbol *s = vt_elf_symbol_at(e, i);
    CHECK_STR(st, s->name, test_syms[i].name);
    CHECK_EQ_U32(st, s->value, test_syms[i].value);
    CHECK_EQ_U32(st, s->size, test_syms[i].size);
    CHECK_EQ_U32(st, s->bind, ELF32_ST_BIND(test_syms[i].info));
    CHECK_EQ_U32(st, s->type, ELF32_ST_TYPE(test_syms[i].info));
    CHECK_EQ_U32(st, s->shndx, test_syms[i].shndx);
    CHECK_EQ_U32(st, s->other, test_syms[i].other);
  }
  CHECK(st, vt_elf_symbol_at(e, NSYMS) == NULL);
  uint32_t v = 0;
  CHECK(st, vt_elf_find_symbol(e, "kernel", &v) == 0 && v == 0x8000000c);
  CHECK(st, vt_elf_find_symbol(e, ".Ltmp0", &v) == 0 && v == 0x80000008);
  CHECK(st, vt_elf_find_symbol(e, "dup", &v) == 0 && v == 0x80000010); /* global wins */
  CHECK(st, vt_elf_find_symbol(e, "absval", &v) == 0 && v == 0x1234);
  CHECK(st, vt_elf_find_symbol(e, "undef", &v) == -1);
  CHECK(st, vt_elf_find_symbol(e, "nothere", &v) == -1);
  vt_elf_free(e);
  vt_elf_free(NULL);
}

/* --- malformed images --- */
static bool parse_fails(check_state *st, const uint8_t *img, size_t size, const char *want,
                        const char *what) {
  vt_elf *e = (vt_elf *)1;
  char err[256] = "untouched";
  int rc = vt_elf_open_mem(img, size, &e, err, sizeof err);
  if (rc == 0) {
    st->failed_checks++;
    fprintf(stderr, "%s: parse succeeded, expected an error containing \"%s\"\n", what, want);
    vt_elf_free(e);
    return false;
  }
  if (e != NULL) {
    st->failed_checks++;
    fprintf(stderr, "%s: *out not cleared on error\n", what);
  }
  if (!err[0] || !strcmp(err, "untouched") || (want && !strstr(err, want))) {
    st->failed_checks++;
    fprintf(stderr, "%s: message \"%s\" does not contain \"%s\"\n", what, err, want ? want : "");
    return false;
  }
  return true;
}

TEST(every_truncation_fails_cleanly) {
  eb_layout l;
  uint8_t *img = build_test_elf(&l);
  for (size_t n = 0; n < l.size; n++) {
    /* a fresh heap copy of exactly n bytes, so ASan sees any overread */
    uint8_t *cut = malloc(n ? n : 1);
    memcpy(cut, img, n);
    char what[64];
    snprintf(what, sizeof what, "prefix of %zu/%zu bytes", n, l.size);
    parse_fails(st, cut, n, NULL, what);
    free(cut);
  }
  /* the exact size still parses */
  vt_elf *e;
  char err[256];
  CHECK(st, vt_elf_open_mem(img, l.size, &e, err, sizeof err) == 0);
  vt_elf_free(e);
  /* a message for a cut in the section header table names it */
  parse_fails(st, img, l.size - 1, "section header table", "cut in section headers");
  parse_fails(st, img, 10, "ELF identification", "cut in e_ident");
  parse_fails(st, img, 40, "ELF header", "cut in ELF header");
  parse_fails(st, img, 3, "bad magic", "3 bytes");
  free(img);
}

typedef void (*mutator)(uint8_t *img, const eb_layout *l);

#define SH(l, i) ((l)->shoff + 40 * (i))
static void m_magic(uint8_t *b, const eb_layout *l) { (void)l, b[1] = 'X'; }
static void m_class(uint8_t *b, const eb_layout *l) { (void)l, b[EI_CLASS] = ELFCLASS64; }
static void m_data(uint8_t *b, const eb_layout *l) { (void)l, b[EI_DATA] = ELFDATA2MSB; }
static void m_version(uint8_t *b, const eb_layout *l) { (void)l, b[EI_VERSION] = 7; }
static void m_ehsize(uint8_t *b, const eb_layout *l) { (void)l, eb_w16(b + 40, 64); }
static void m_shoff_past(uint8_t *b, const eb_layout *l) { eb_w32(b + 32, (uint32_t)l->size + 8); }
static void m_shoff_huge(uint8_t *b, const eb_layout *l) { (void)l, eb_w32(b + 32, 0xfffffff0u); }
static void m_shnum_huge(uint8_t *b, const eb_layout *l) { (void)l, eb_w16(b + 48, 0xfeff); }
static void m_shnum_no_off(uint8_t *b, const eb_layout *l) { (void)l, eb_w32(b + 32, 0); }
static void m_shentsize(uint8_t *b, const eb_layout *l) { (void)l, eb_w16(b + 46, 32); }
static void m_shstrndx(uint8_t *b, const eb_layout *l) { (void)l, eb_w16(b + 50, 9); }
static void m_shstrndx_type(uint8_t *b, const eb_layout *l) { (void)l, eb_w16(b + 50, 1); }
static void m_sh_name(uint8_t *b, const eb_layout *l) { eb_w32(b + SH(l, 1), 0x1000); }
static void m_shstr_unterminated(uint8_t *b, const eb_layout *l) {
  b[l->shstrtab_off + l->shstrtab_size - 1] = 'x';
}
static void m_sec_off_past(uint8_t *b, const eb_layout *l) {
  eb_w32(b + SH(l, 1) + 16, (uint32_t)l->size);
}
static void m_sec_overflow(uint8_t *b, const eb_layout *l) {
  eb_w32(b + SH(l, 1) + 16, 0xfffffff0u); /* offset + size wraps to a small number */
  eb_w32(b + SH(l, 1) + 20, 0x20);
}
static void m_sec_size_huge(uint8_t *b, const eb_layout *l) {
  eb_w32(b + SH(l, 1) + 20, 0xffffffffu);
}
static void m_sec_link(uint8_t *b, const eb_layout *l) { eb_w32(b + SH(l, 1) + 24, 77); }
static void m_symtab_entsize(uint8_t *b, const eb_layout *l) { eb_w32(b + SH(l, 2) + 36, 8); }
static void m_symtab_size(uint8_t *b, const eb_layout *l) {
  eb_w32(b + SH(l, 2) + 20, 16 * (NSYMS + 1) - 4);
}
static void m_symtab_link_type(uint8_t *b, const eb_layout *l) { eb_w32(b + SH(l, 2) + 24, 1); }
static void m_symtab_link_zero(uint8_t *b, const eb_layout *l) { eb_w32(b + SH(l, 2) + 24, 0); }
static void m_symtab_link_range(uint8_t *b, const eb_layout *l) {
  eb_w32(b + SH(l, 2) + 24, 0x10000);
}
static void m_st_name(uint8_t *b, const eb_layout *l) { eb_w32(b + l->symtab_off + 16, 5000); }
static void m_strtab_unterminated(uint8_t *b, const eb_layout *l) {
  b[l->strtab_off + l->strtab_size - 1] = 'x';
}
static void m_st_shndx(uint8_t *b, const eb_layout *l) { eb_w16(b + l->symtab_off + 16 + 14, 50); }
static void m_phoff_past(uint8_t *b, const eb_layout *l) { eb_w32(b + 28, (uint32_t)l->size - 4); }
static void m_phnum_huge(uint8_t *b, const eb_layout *l) { (void)l, eb_w16(b + 44, 0xfffe); }
static void m_phentsize(uint8_t *b, const eb_layout *l) { (void)l, eb_w16(b + 42, 56); }
static void m_seg_off_past(uint8_t *b, const eb_layout *l) { eb_w32(b + 52 + 4, (uint32_t)l->size); }
static void m_seg_overflow(uint8_t *b, const eb_layout *l) {
  (void)l;
  eb_w32(b + 52 + 4, 0xffffff00u);
  eb_w32(b + 52 + 16, 0x200);
  eb_w32(b + 52 + 20, 0x200);
}
static void m_seg_filesz(uint8_t *b, const eb_layout *l) { (void)l, eb_w32(b + 52 + 20, 4); }

TEST(corrupted_fields_give_messages) {
  static const struct {
    const char *what, *want;
    mutator fn;
  } cases[] = {
      {"bad magic", "bad magic", m_magic},
      {"64-bit class", "class", m_class},
      {"big-endian", "data encoding", m_data},
      {"ident version", "version", m_version},
      {"e_ehsize", "e_ehsize", m_ehsize},
      {"e_shoff past end", "section header table at offset", m_shoff_past},
      {"e_shoff huge", "extends past end", m_shoff_huge},
      {"huge e_shnum", "section header table", m_shnum_huge},
      {"e_shnum without e_shoff", "e_shoff is 0", m_shnum_no_off},
      {"e_shentsize", "e_shentsize", m_shentsize},
      {"e_shstrndx out of range", "e_shstrndx 9 out of range", m_shstrndx},
      {"e_shstrndx not a string table", "not STRTAB", m_shstrndx_type},
      {"bad sh_name", "sh_name 4096", m_sh_name},
      {"section names unterminated", "sh_name", m_shstr_unterminated},
      {"section offset past end", "section 1 at offset", m_sec_off_past},
      {"section offset+size overflow", "extends past end", m_sec_overflow},
      {"section size huge", "extends past end", m_sec_size_huge},
      {"section sh_link out of range", "sh_link 77", m_sec_link},
      {"symtab entsize", "sh_entsize 8", m_symtab_entsize},
      {"symtab size", "not a multiple", m_symtab_size},
      {"symtab link to PROGBITS", "not STRTAB", m_symtab_link_type},
      {"symtab link 0", "sh_link 0", m_symtab_link_zero},
      {"symtab link out of range", "sh_link", m_symtab_link_range},
      {"st_name out of range", "st_name 5000", m_st_name},
      {"strtab unterminated", "not terminated", m_strtab_unterminated},
      {"symbol section index", "section index 50", m_st_shndx},
      {"program headers past end", "program header table", m_phoff_past},
      {"huge e_phnum", "program header table", m_phnum_huge},
      {"e_phentsize", "e_phentsize", m_phentsize},
      {"segment offset past end", "segment 0", m_seg_off_past},
      {"segment offset+filesz overflow", "segment 0", m_seg_overflow},
      {"filesz > memsz", "p_filesz", m_seg_filesz},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    eb_layout l;
    uint8_t *img = build_test_elf(&l);
    cases[i].fn(img, &l);
    parse_fails(st, img, l.size, cases[i].want, cases[i].what);
    free(img);
  }
}

/* Random single- and multi-byte mutations: any outcome but a crash. */
TEST(random_mutations_never_crash) {
  eb_layout l;
  uint8_t *img = build_test_elf(&l);
  uint32_t seed = 12345;
  int ok = 0, bad = 0;
  for (int it = 0; it < 20000; it++) {
    uint8_t *m = malloc(l.size);
    memcpy(m, img, l.size);
    int flips = 1 + it % 4;
    for (int k = 0; k < flips; k++) {
      seed = seed * 1103515245u + 12345u;
      size_t pos = (seed >> 8) % l.size;
      seed = seed * 1103515245u + 12345u;
      m[pos] = (uint8_t)(seed >> 16);
    }
    vt_elf *e;
    char err[256] = "";
    if (vt_elf_open_mem(m, l.size, &e, err, sizeof err) == 0) {
      /* walk everything the API exposes */
      for (size_t i = 0; i < vt_elf_section_count(e); i++) {
        const vt_elf_section *s = vt_elf_section_at(e, i);
        volatile size_t n = strlen(s->name);
        (void)n;
        if (s->data && s->size) {
          volatile uint8_t last = s->data[s->size - 1];
          (void)last;
        }
      }
      for (size_t i = 0; i < vt_elf_symbol_count(e); i++) {
        volatile size_t n = strlen(vt_elf_symbol_at(e, i)->name);
        (void)n;
      }
      for (size_t i = 0; i < vt_elf_segment_count(e); i++) {
        const vt_elf_segment *g = vt_elf_segment_at(e, i);
        if (g->data && g->filesz) {
          volatile uint8_t last = g->data[g->filesz - 1];
          (void)last;
        }
      }
      vt_elf_free(e);
      ok++;
    } else {
      CHECK(st, err[0] != 0);
      bad++;
    }
    free(m);
  }
  printf("random mutations: %d parsed, %d rejected\n", ok, bad);
  CHECK(st, ok > 0 && bad > 0);
  free(img);
}

TEST(open_file_errors_name_the_path) {
  vt_elf *e = (vt_elf *)1;
  char err[512];
  const char *missing = VT_TEST_TMP "/no-such-file.elf";
  CHECK(st, vt_elf_open_file(missing, &e, err, sizeof err) == -1);
  CHECK(st, e == NULL);
  CHECK(st, strncmp(err, missing, strlen(missing)) == 0);
  CHECK(st, strstr(err, "No such file") != NULL);
  /* a truncated file on disk: the message starts with the path */
  eb_layout l;
  uint8_t *img = build_test_elf(&l);
  const char *path = VT_TEST_TMP "/elf_read_trunc.elf";
  FILE *f = fopen(path, "wb");
  CHECK(st, f != NULL);
  if (f) {
    fwrite(img, 1, l.size - 10, f);
    fclose(f);
    CHECK(st, vt_elf_open_file(path, &e, err, sizeof err) == -1);
    CHECK(st, strncmp(err, path, strlen(path)) == 0 && strstr(err, "truncated file") != NULL);
  }
  /* and the full file parses */
  path = VT_TEST_TMP "/elf_read_ok.elf";
  f = fopen(path, "wb");
  if (f) {
    fwrite(img, 1, l.size, f);
    fclose(f);
    CHECK(st, vt_elf_open_file(path, &e, err, sizeof err) == 0);
    if (e) CHECK_EQ_U32(st, vt_elf_entry(e), 0x80000000);
    vt_elf_free(e);
  }
  free(img);
}

/* --- GNU as + ld image checked against readelf --- */
static bool have_tools(void) {
  return system("riscv64-unknown-elf-as --version >/dev/null 2>&1") == 0 &&
         system("riscv64-unknown-elf-ld --version >/dev/null 2>&1") == 0 &&
         system("riscv64-unknown-elf-readelf --version >/dev/null 2>&1") == 0;
}

static const char gnu_src[] =
    ".globl _start\n.globl kernel\n.text\n_start:\n  li a0, 1\n  call kernel\n"
    "  .word 0x0000400b\nkernel:\n  addi a0, a0, 1\n  ret\n.size kernel, .-kernel\n"
    ".type kernel, @function\n"
    ".data\nval: .word 1, 2, 3\n.bss\nbuf: .space 64\n";

TEST(gnu_built_elf_matches_readelf) {
  if (!have_tools()) {
    printf("SKIP gnu_built_elf_matches_readelf: riscv64-unknown-elf-as/ld/readelf not found\n");
    return;
  }
  const char *dir = VT_TEST_TMP;
  char cmd[2048], path[512];
  snprintf(path, sizeof path, "%s/elf_read_gnu.s", dir);
  FILE *f = fopen(path, "w");
  if (!f) {
    CHECK(st, f != NULL);
    return;
  }
  fputs(gnu_src, f);
  fclose(f);
  snprintf(cmd, sizeof cmd,
           "cd %s && riscv64-unknown-elf-as -march=rv32ima_zicsr -o elf_read_gnu.o elf_read_gnu.s && "
           "riscv64-unknown-elf-ld -m elf32lriscv -Ttext=0x80000000 -o elf_read_gnu.elf "
           "elf_read_gnu.o && riscv64-unknown-elf-readelf -h -S -s -l -W elf_read_gnu.elf > "
           "elf_read_gnu.txt",
           dir);
  CHECK(st, system(cmd) == 0);
  snprintf(path, sizeof path, "%s/elf_read_gnu.elf", dir);
  vt_elf *e;
  char err[512];
  if (vt_elf_open_file(path, &e, err, sizeof err)) {
    fprintf(stderr, "%s\n", err);
    st->failed_checks++;
    return;
  }
  snprintf(path, sizeof path, "%s/elf_read_gnu.txt", dir);
  f = fopen(path, "r");
  if (!f) {
    CHECK(st, f != NULL);
    vt_elf_free(e);
    return;
  }
  char line[512];
  int nsec = 0, nsym = 0, nseg = 0;
  size_t seg_i = 0;
  while (fgets(line, sizeof line, f)) {
    unsigned long v;
    char name[128], type[64];
    unsigned idx, addr, off, size;
    if (sscanf(line, "  Entry point address: %lx", &v) == 1) CHECK_EQ_U32(st, vt_elf_entry(e), v);
    if (sscanf(line, "  Number of section headers: %lu", &v) == 1)
      CHECK_EQ_U32(st, vt_elf_section_count(e), v);
    if (sscanf(line, "  Number of program headers: %lu", &v) == 1)
      CHECK_EQ_U32(st, vt_elf_segment_count(e), v);
    /* "  [ 1] .text             PROGBITS        80000000 001000 000010 00  AX  0   0  4" */
    if (sscanf(line, " [%u] %127s %63s %x %x %x", &idx, name, type, &addr, &off, &size) == 6 &&
        idx > 0) {
      const vt_elf_section *s = vt_elf_section_at(e, idx);
      CHECK(st, s != NULL);
      if (s) {
        CHECK_STR(st, s->name, name);
        CHECK_EQ_U32(st, s->addr, addr);
        CHECK_EQ_U32(st, s->offset, off);
        CHECK_EQ_U32(st, s->size, size);
        nsec++;
      }
    }
    /* "  LOAD           0x001000 0x80000000 0x80000000 0x0001c 0x0001c R E 0x1000" */
    unsigned poff, pv, pp, pf, pm;
    if (sscanf(line, " %63s 0x%x 0x%x 0x%x 0x%x 0x%x", type, &poff, &pv, &pp, &pf, &pm) == 6) {
      const vt_elf_segment *g = vt_elf_segment_at(e, seg_i++);
      CHECK(st, g != NULL);
      if (g) {
        CHECK_EQ_U32(st, g->offset, poff);
        CHECK_EQ_U32(st, g->vaddr, pv);
        CHECK_EQ_U32(st, g->paddr, pp);
        CHECK_EQ_U32(st, g->filesz, pf);
        CHECK_EQ_U32(st, g->memsz, pm);
        if (!strcmp(type, "LOAD")) CHECK_EQ_U32(st, g->type, PT_LOAD);
        nseg++;
      }
    }
    /* "     5: 80000010     8 FUNC    GLOBAL DEFAULT    1 kernel" */
    char sz[32], bind[32], vis[32], ndx[32];
    unsigned num, val;
    name[0] = 0;
    int k = sscanf(line, " %u: %x %31s %63s %31s %31s %31s %127s", &num, &val, sz, type, bind,
                   vis, ndx, name);
    if (k >= 7 && num > 0) {
      const vt_elf_symbol *s = vt_elf_symbol_at(e, num - 1);
      CHECK(st, s != NULL);
      if (s) {
        CHECK_EQ_U32(st, s->value, val);
        CHECK_EQ_U32(st, s->size, strtoul(sz, NULL, 0));
        if (strcmp(type, "SECTION") != 0) CHECK_STR(st, s->name, k == 8 ? name : "");
        if (!strcmp(type, "FUNC")) CHECK_EQ_U32(st, s->type, STT_FUNC);
        if (!strcmp(bind, "GLOBAL")) CHECK_EQ_U32(st, s->bind, STB_GLOBAL);
        if (!strcmp(bind, "LOCAL")) CHECK_EQ_U32(st, s->bind, STB_LOCAL);
        if (!strcmp(ndx, "ABS")) CHECK_EQ_U32(st, s->shndx, SHN_ABS);
        else if (!strcmp(ndx, "UND")) CHECK_EQ_U32(st, s->shndx, SHN_UNDEF);
        else CHECK_EQ_U32(st, s->shndx, strtoul(ndx, NULL, 10));
        nsym++;
      }
    }
  }
  fclose(f);
  CHECK_EQ_U32(st, (uint32_t)nsec + 1, vt_elf_section_count(e));
  CHECK_EQ_U32(st, (uint32_t)nsym, vt_elf_symbol_count(e));
  CHECK_EQ_U32(st, (uint32_t)nseg, vt_elf_segment_count(e));
  CHECK(st, nsym >= 5 && nseg >= 1 && nsec >= 5);
  uint32_t v = 0;
  CHECK(st, vt_elf_find_symbol(e, "kernel", &v) == 0 && v == 0x8000000c);
  const vt_elf_section *bss = vt_elf_section_by_name(e, ".bss");
  CHECK(st, bss && bss->type == SHT_NOBITS && bss->data == NULL && bss->size == 64);
  printf("readelf comparison: %d sections, %d symbols, %d segments\n", nsec, nsym, nseg);
  vt_elf_free(e);
}

RUN_TESTS(T(hand_built_elf_parses), T(every_truncation_fails_cleanly),
          T(corrupted_fields_give_messages), T(random_mutations_never_crash),
          T(open_file_errors_name_the_path), T(gnu_built_elf_matches_readelf))
