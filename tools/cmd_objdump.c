/* vt objdump: llvm-objdump-compatible listings of ELF32 RISC-V (Ventus)
 * files: -d/-D disassembly, -t symbol table, -h section headers.
 *
 * The layout, the choice of labels and the symbolization of branch targets
 * follow llvm-objdump (see docs/objdump.md for the rules and the few
 * differences). Output goes through one large stdio buffer; the hot loop
 * formats each line in a local array, with no allocation per instruction. */
#include <elf.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools.h"
#include "vt/elf.h"
#include "vt/isa.h"

typedef struct od_opts {
  bool disasm, disasm_all, syms, headers, zeroes;
  vt_disasm_opts dis;
} od_opts;

/* A symbol as the disassembler sees it (llvm's SymbolInfoTy). */
typedef struct dsym {
  uint32_t addr;
  uint8_t type;
  uint32_t order; /* file order: keeps the sort stable */
  const char *name;
} dsym;

typedef struct dsec {
  dsym *v; /* sorted by (addr, name, type); one spare slot for the dummy */
  size_t n;
} dsec;

typedef struct od_file {
  const vt_elf *elf;
  dsec *secs;       /* per section index */
  dsec abs;         /* symbols outside any section (ABS, UNDEF, COMMON) */
  size_t *by_addr;  /* section indexes sorted by (addr, size) */
  size_t nsecs;
  bool relocatable;
  size_t cur;       /* section being disassembled */
} od_file;

static int cmp_dsym(const void *a, const void *b) {
  const dsym *x = a, *y = b;
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  int c = strcmp(x->name, y->name);
  if (c) return c;
  if (x->type != y->type) return x->type < y->type ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

static const vt_elf_section *sec_at(const od_file *f, size_t i) {
  return vt_elf_section_at(f->elf, i);
}

static int cmp_sec_ctx_sort(const od_file *f, size_t a, size_t b) {
  const vt_elf_section *x = sec_at(f, a), *y = sec_at(f, b);
  if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
  if (x->size != y->size) return x->size < y->size ? -1 : 1;
  return a < b ? -1 : a > b;
}

/* Insertion-free stable sort of section indexes (few sections). */
static void sort_sections(od_file *f) {
  for (size_t i = 1; i < f->nsecs; i++) {
    size_t v = f->by_addr[i], j = i;
    while (j > 0 && cmp_sec_ctx_sort(f, f->by_addr[j - 1], v) > 0) {
      f->by_addr[j] = f->by_addr[j - 1];
      j--;
    }
    f->by_addr[j] = v;
  }
}

static void od_file_free(od_file *f) {
  if (f->secs)
    for (size_t i = 0; i < f->nsecs; i++) free(f->secs[i].v);
  free(f->secs);
  free(f->abs.v);
  free(f->by_addr);
}

static int od_file_init(od_file *f, const vt_elf *elf) {
  memset(f, 0, sizeof *f);
  f->elf = elf;
  f->nsecs = vt_elf_section_count(elf);
  f->relocatable = vt_elf_type(elf) == ET_REL;
  size_t nsyms = vt_elf_symbol_count(elf);
  f->secs = calloc(f->nsecs ? f->nsecs : 1, sizeof *f->secs);
  f->by_addr = calloc(f->nsecs ? f->nsecs : 1, sizeof *f->by_addr);
  size_t *counts = calloc(f->nsecs + 1, sizeof *counts);
  if (!f->secs || !f->by_addr || !counts) {
    free(counts);
    return -1;
  }
  /* count per section (the last slot counts the section-less symbols) */
  for (size_t i = 0; i < nsyms; i++) {
    const vt_elf_symbol *s = vt_elf_symbol_at(elf, i);
    if (!s->name[0] || s->type == STT_SECTION) continue;
    size_t k = (s->shndx != SHN_UNDEF && s->shndx < f->nsecs) ? s->shndx : f->nsecs;
    counts[k]++;
  }
  for (size_t k = 0; k <= f->nsecs; k++) {
    dsec *d = k < f->nsecs ? &f->secs[k] : &f->abs;
    d->v = malloc((counts[k] + 1) * sizeof *d->v);
    if (!d->v) {
      free(counts);
      return -1;
    }
  }
  free(counts);
  for (size_t i = 0; i < nsyms; i++) {
    const vt_elf_symbol *s = vt_elf_symbol_at(elf, i);
    if (!s->name[0] || s->type == STT_SECTION) continue;
    dsec *d = (s->shndx != SHN_UNDEF && s->shndx < f->nsecs) ? &f->secs[s->shndx] : &f->abs;
    d->v[d->n++] = (dsym){s->value, s->type, (uint32_t)i, s->name};
  }
  for (size_t k = 0; k < f->nsecs; k++) {
    qsort(f->secs[k].v, f->secs[k].n, sizeof(dsym), cmp_dsym);
    f->by_addr[k] = k;
  }
  qsort(f->abs.v, f->abs.n, sizeof(dsym), cmp_dsym);
  sort_sections(f);
  return 0;
}

/* std::partition_point with "addr <= target", step for step, so the result
 * is the same as llvm's even on the (rare) unsorted list with a dummy. */
static size_t part_point(const dsym *v, size_t n, uint64_t target) {
  size_t first = 0, len = n;
  while (len > 0) {
    size_t half = len >> 1, mid = first + half;
    if (v[mid].addr <= target) {
      first = mid + 1;
      len = len - half - 1;
    } else {
      len = half;
    }
  }
  return first;
}

static const dsym *last_at_or_before(const dsec *d, uint64_t target) {
  size_t p = part_point(d->v, d->n, target);
  return p ? &d->v[p - 1] : NULL;
}

/* Symbolizer for branch and jump targets (llvm-objdump's rules): in a linked
 * file, the sections with the highest start address <= target (largest
 * first), then the section-less symbols; in a relocatable file the current
 * section. */
static const char *symbolize(void *ctx, uint32_t addr, uint32_t *offset) {
  const od_file *f = ctx;
  const dsym *s = NULL;
  if (f->relocatable) {
    s = last_at_or_before(&f->secs[f->cur], addr);
  } else {
    size_t lo = 0, len = f->nsecs; /* partition point over by_addr */
    while (len > 0) {
      size_t half = len >> 1, mid = lo + half;
      if (sec_at(f, f->by_addr[mid])->addr <= addr) {
        lo = mid + 1;
        len = len - half - 1;
      } else {
        len = half;
      }
    }
    if (lo) {
      uint32_t top = sec_at(f, f->by_addr[lo - 1])->addr;
      for (size_t i = lo; i > 0 && !s; i--) {
        size_t k = f->by_addr[i - 1];
        if (sec_at(f, k)->addr != top) break;
        s = last_at_or_before(&f->secs[k], addr);
      }
    }
  }
  if (!s) s = last_at_or_before(&f->abs, addr);
  if (!s) return NULL;
  *offset = addr - s->addr;
  return s->name;
}

/* --- output helpers --- */
static const char hexd[] = "0123456789abcdef";

static char *put_hex(char *p, uint64_t v, int width, char pad) {
  char tmp[17];
  int n = 0;
  do {
    tmp[n++] = hexd[v & 15];
    v >>= 4;
  } while (v && n < 16);
  for (int i = n; i < width; i++) *p++ = pad;
  while (n) *p++ = tmp[--n];
  return p;
}

static void print_file_header(const char *path, const vt_elf *elf) {
  printf("\n%s:\tfile format %s\n", path,
         vt_elf_machine(elf) == EM_RISCV ? "elf32-littleriscv" : "elf32-unknown");
}

/* --- -h --- */
static bool sec_is_text(const vt_elf_section *s) { return s->flags & SHF_EXECINSTR; }
static bool sec_is_data(const vt_elf_section *s) {
  return s->type == SHT_PROGBITS && (s->flags & SHF_ALLOC) && !(s->flags & SHF_EXECINSTR);
}
static bool sec_is_bss(const vt_elf_section *s) {
  return (s->flags & (SHF_ALLOC | SHF_WRITE)) && s->type == SHT_NOBITS;
}
static bool sec_is_debug(const vt_elf_section *s) {
  return !strncmp(s->name, ".debug", 6) || !strncmp(s->name, ".zdebug", 7) ||
         !strcmp(s->name, ".gdb_index");
}

/* Load address: the segment that holds the section maps it. */
static uint32_t sec_lma(const vt_elf *elf, const vt_elf_section *s) {
  if (!(s->flags & SHF_ALLOC)) return s->addr;
  for (size_t i = 0; i < vt_elf_segment_count(elf); i++) {
    const vt_elf_segment *g = vt_elf_segment_at(elf, i);
    if (g->type != PT_LOAD) continue;
    if (s->addr >= g->vaddr && (uint64_t)s->addr < (uint64_t)g->vaddr + g->memsz)
      return g->paddr + (s->addr - g->vaddr);
  }
  return s->addr;
}

static void print_section_headers(const vt_elf *elf) {
  size_t n = vt_elf_section_count(elf), width = 13;
  bool lma = false;
  for (size_t i = 0; i < n; i++) {
    const vt_elf_section *s = vt_elf_section_at(elf, i);
    if (strlen(s->name) > width) width = strlen(s->name);
    if (sec_lma(elf, s) != s->addr) lma = true;
  }
  printf("\nSections:\nIdx %-*s %s\n", (int)width, "Name",
         lma ? "Size     VMA      LMA      Type" : "Size     VMA      Type");
  for (size_t i = 0; i < n; i++) {
    const vt_elf_section *s = vt_elf_section_at(elf, i);
    char type[32] = "";
    if (sec_is_text(s)) strcat(type, "TEXT");
    if (sec_is_data(s)) strcat(type, type[0] ? ", DATA" : "DATA");
    if (sec_is_bss(s)) strcat(type, type[0] ? ", BSS" : "BSS");
    if (sec_is_debug(s)) strcat(type, type[0] ? ", DEBUG" : "DEBUG");
    printf("%3zu %-*s %08" PRIx32 " %08" PRIx32 " ", i, (int)width, s->name, s->size, s->addr);
    if (lma) printf("%08" PRIx32 " ", sec_lma(elf, s));
    printf("%s\n", type);
  }
}

/* --- -t --- */
static void print_symbols(const vt_elf *elf) {
  printf("\nSYMBOL TABLE:\n");
  size_t nsecs = vt_elf_section_count(elf);
  for (size_t i = 0; i < vt_elf_symbol_count(elf); i++) {
    const vt_elf_symbol *s = vt_elf_symbol_at(elf, i);
    bool absolute = s->shndx == SHN_ABS, common = s->shndx == SHN_COMMON;
    const vt_elf_section *sec =
        (s->shndx != SHN_UNDEF && s->shndx < nsecs) ? vt_elf_section_at(elf, s->shndx) : NULL;
    bool weak = s->bind == STB_WEAK, global = s->bind != STB_LOCAL;
    char globloc = ' ';
    if ((sec || absolute) && !weak) globloc = global ? 'g' : 'l';
    if (s->bind == STB_GNU_UNIQUE) globloc = 'u';
    char ifunc = s->type == STT_GNU_IFUNC ? 'i' : ' ';
    char debug = (s->type == STT_SECTION || s->type == STT_FILE) ? 'd' : ' ';
    char ff = ' ';
    if (s->type == STT_FILE) ff = 'f';
    else if (s->type == STT_FUNC) ff = 'F';
    else if (s->type == STT_OBJECT || s->type == STT_COMMON) ff = 'O';
    const char *secname = absolute ? "*ABS*" : common ? "*COM*" : sec ? sec->name : "*UND*";
    const char *name = s->name;
    if (s->type == STT_SECTION && !name[0] && sec) name = sec->name;
    /* common symbols: llvm prints the size as the address and the
     * alignment (st_value) in the size column */
    printf("%08" PRIx32 " %c%c  %c%c%c %s\t%08" PRIx32, common ? s->size : s->value, globloc,
           weak ? 'w' : ' ', ifunc, debug, ff, secname, common ? s->value : s->size);
    switch (s->other) {
    case STV_DEFAULT: break;
    case STV_INTERNAL: fputs(" .internal", stdout); break;
    case STV_HIDDEN: fputs(" .hidden", stdout); break;
    case STV_PROTECTED: fputs(" .protected", stdout); break;
    default: printf(" 0x%02x", s->other); break;
    }
    printf(" %s\n", name);
  }
}

/* --- -d / -D --- */
static size_t skippable_zeroes(const uint8_t *p, size_t n) {
  size_t k = 0;
  while (k < n && !p[k]) k++;
  return k < 8 ? 0 : (k & ~(size_t)3);
}

/* Output buffer of the disassembly loop: lines are formatted in place and
 * written with one fwrite per 64 KiB. */
typedef struct obuf {
  char b[1 << 16];
  size_t n;
} obuf;

static void ob_flush(obuf *o) {
  if (o->n) fwrite(o->b, 1, o->n, stdout);
  o->n = 0;
}
/* Room for at least 'need' more bytes. */
static char *ob_reserve(obuf *o, size_t need) {
  if (sizeof o->b - o->n < need) ob_flush(o);
  return o->b + o->n;
}
static void ob_puts(obuf *o, const char *s) {
  size_t n = strlen(s);
  if (n > sizeof o->b / 2) {
    ob_flush(o);
    fwrite(s, 1, n, stdout);
    return;
  }
  memcpy(ob_reserve(o, n), s, n);
  o->n += n;
}

enum { LINE_MAX_INSN = 512 }; /* address, bytes and the text of one instruction */

/* The text of a 4- or 8-byte instruction (a lone 0x3f word is <unknown>). */
static int disasm_len(uint64_t w, size_t len, uint32_t pc, const vt_disasm_opts *o, char *buf,
                      size_t n) {
  return len == 8 ? vt_disasm64(w, pc, o, buf, n) : vt_disasm((uint32_t)w, pc, o, buf, n);
}

/* One line: address, the bytes and the instruction at b (avail bytes left
 * in the section); returns the bytes consumed. isa2025.md 5.1: 4-byte
 * steps; a first parcel with bits 6:0 = 0x3f and 8 bytes left is one 64-bit
 * instruction; a tail of 1 to 3 bytes prints byte by byte. */
static size_t instruction_line(obuf *ob, const uint8_t *b, size_t avail, uint64_t addr,
                               const vt_disasm_opts *dis) {
  char *line = ob_reserve(ob, LINE_MAX_INSN);
  char *p = put_hex(line, addr, 8, ' ');
  *p++ = ':';
  *p++ = ' ';
  char *hex = p;
  size_t len = avail >= 4 ? 4 : 1;
  if (len == 4 && (b[0] & 0x7f) == 0x3f && avail >= 8) len = 8;
  for (size_t j = 0; j < len; j++) {
    if (j) *p++ = ' ';
    *p++ = hexd[b[j] >> 4];
    *p++ = hexd[b[j] & 15];
  }
  while (p < hex + 13) *p++ = ' ';
  *p++ = '\t';
  size_t room = LINE_MAX_INSN - (size_t)(p - line) - 1;
  if (len >= 4) {
    uint64_t w = 0;
    for (size_t j = len; j-- > 0;) w = w << 8 | b[j];
    size_t n = (size_t)disasm_len(w, len, (uint32_t)addr, dis, p, room);
    if (n >= room) { /* very long symbol name: format it on the heap */
      char *big = malloc(n + 1);
      if (big) disasm_len(w, len, (uint32_t)addr, dis, big, n + 1);
      ob->n += (size_t)(p - line);
      ob_puts(ob, big ? big : "<out of memory>");
      free(big);
      line = p = ob_reserve(ob, 2);
    } else {
      p += n;
    }
  } else {
    memcpy(p, "<unknown>", 9);
    p += 9;
  }
  *p++ = '\n';
  ob->n += (size_t)(p - line);
  return len;
}

/* "\n%08x <name>:\n" */
static void symbol_heading(obuf *ob, uint64_t addr, const char *name) {
  char *p = ob_reserve(ob, 32), *p0 = p;
  *p++ = '\n';
  p = put_hex(p, addr, 8, '0');
  *p++ = ' ';
  *p++ = '<';
  ob->n += (size_t)(p - p0);
  ob_puts(ob, name);
  ob_puts(ob, ">:\n");
}

/* the section's symbols sorted by address, with a dummy first one (the
 * section name) when none starts the section */
static dsec *section_symbols(od_file *f, size_t si) {
  const vt_elf_section *sec = sec_at(f, si);
  dsec *d = &f->secs[si];
  if (d->n == 0 || d->v[0].addr != sec->addr) {
    memmove(d->v + 1, d->v, d->n * sizeof *d->v);
    d->v[0] = (dsym){sec->addr, sec_is_text(sec) ? STT_FUNC : STT_OBJECT, 0, sec->name};
    d->n++;
  }
  return d;
}

static void disassemble_section(od_file *f, size_t si, const od_opts *o, obuf *ob) {
  const vt_elf_section *sec = sec_at(f, si);
  if (sec->size == 0) return;
  ob_puts(ob, "\nDisassembly of section ");
  ob_puts(ob, sec->name);
  ob_puts(ob, ":\n");
  dsec *d = section_symbols(f, si);
  f->cur = si;
  vt_disasm_opts dis = o->dis;
  dis.symbolize = symbolize;
  dis.ctx = f;
  uint64_t base = sec->addr, sec_end = base + sec->size;
  const uint8_t *bytes = sec->data;
  for (size_t k = 0; k < d->n; k++) {
    uint64_t start = d->v[k].addr, end = sec_end;
    if (start < base) continue;
    if (k + 1 < d->n && d->v[k + 1].addr < end) end = d->v[k + 1].addr;
    if (start >= end) continue;
    symbol_heading(ob, start, d->v[k].name);
    if (sec->type == SHT_NOBITS || !bytes) {
      ob_puts(ob, "...\n");
      continue;
    }
    for (size_t idx = (size_t)(start - base), stop = (size_t)(end - base); idx < stop;) {
      size_t z = o->zeroes ? 0 : skippable_zeroes(bytes + idx, stop - idx);
      if (z) {
        ob_puts(ob, "\t\t...\n");
        idx += z;
        continue;
      }
      idx += instruction_line(ob, bytes + idx, sec->size - idx, base + idx, &dis);
    }
  }
}

static int disassemble(const char *path, const vt_elf *elf, const od_opts *o) {
  od_file f;
  if (od_file_init(&f, elf)) {
    od_file_free(&f);
    fflush(stdout);
    fprintf(stderr, "vt objdump: %s: out of memory\n", path);
    return 1;
  }
  obuf *ob = malloc(sizeof *ob);
  if (!ob) {
    od_file_free(&f);
    fflush(stdout);
    fprintf(stderr, "vt objdump: %s: out of memory\n", path);
    return 1;
  }
  ob->n = 0;
  for (size_t i = 1; i < f.nsecs; i++) {
    const vt_elf_section *s = sec_at(&f, i);
    if (o->disasm_all ? s->type == SHT_NULL : !(sec_is_text(s) && s->type != SHT_NOBITS))
      continue;
    disassemble_section(&f, i, o, ob);
  }
  ob_flush(ob);
  free(ob);
  od_file_free(&f);
  return 0;
}

static void usage(FILE *out) {
  fputs("usage: vt objdump [options] FILE...\n"
        "\n"
        "Print ELF32 RISC-V (Ventus) files in llvm-objdump's format.\n"
        "\n"
        "options:\n"
        "  -d, --disassemble          disassemble the executable sections\n"
        "  -D, --disassemble-all      disassemble every section\n"
        "  -t, --syms                 print the symbol table\n"
        "  -h, --section-headers      print the section headers (also --headers)\n"
        "  -z, --disassemble-zeroes   do not collapse runs of zero bytes into '...'\n"
        "      --numeric-csr          print Ventus CSRs as numbers (as the official\n"
        "                             toolchain's dumps do); default: names\n"
        "  -M no-aliases              print base instructions, never aliases (li, mv, ret, ...)\n"
        "  -M numeric-csr             same as --numeric-csr\n"
        "      --help                 show this help\n"
        "\n"
        "Short options can be grouped (-dt). Exit status: 0 ok, 1 a file could not\n"
        "be read or is not a valid ELF32 little-endian file, 2 bad usage.\n",
        out);
}

static int disasm_option(const char *arg, od_opts *o) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", arg);
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    if (!strcmp(tok, "no-aliases"))
      o->dis.no_aliases = true;
    else if (!strcmp(tok, "numeric-csr"))
      o->dis.numeric_csr = true;
    else {
      fprintf(stderr, "vt objdump: unsupported disassembler option '%s'\n", tok);
      return -1;
    }
  }
  return 0;
}

/* one option (possibly a group of short ones); 0, 1 (--help printed) or -1 */
static int parse_option(int argc, char **argv, int *i, od_opts *o) {
  const char *a = argv[*i];
  static const struct {
    const char *name;
    size_t field;
  } flags[] = {{"--disassemble", offsetof(od_opts, disasm)},
               {"--disassemble-all", offsetof(od_opts, disasm_all)},
               {"--syms", offsetof(od_opts, syms)},
               {"--section-headers", offsetof(od_opts, headers)},
               {"--headers", offsetof(od_opts, headers)},
               {"--disassemble-zeroes", offsetof(od_opts, zeroes)},
               {"--numeric-csr", offsetof(od_opts, dis) + offsetof(vt_disasm_opts, numeric_csr)}};
  if (!strcmp(a, "--help")) {
    usage(stdout);
    return 1;
  }
  for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++)
    if (!strcmp(a, flags[k].name)) {
      *(bool *)((char *)o + flags[k].field) = true;
      return 0;
    }
  if (!strncmp(a, "--disassembler-options=", 23)) return disasm_option(a + 23, o);
  if (!strcmp(a, "-M")) {
    if (*i + 1 >= argc) {
      fprintf(stderr, "vt objdump: -M needs an argument\n");
      return -1;
    }
    return disasm_option(argv[++*i], o);
  }
  if (!strncmp(a, "-M", 2)) return disasm_option(a + 2, o);
  if (a[1] == '-') {
    fprintf(stderr, "vt objdump: unknown option '%s'\n", a);
    return -1;
  }
  for (const char *c = a + 1; *c; c++) {
    switch (*c) {
    case 'd': o->disasm = true; break;
    case 'D': o->disasm_all = true; break;
    case 't': o->syms = true; break;
    case 'h': o->headers = true; break;
    case 'z': o->zeroes = true; break;
    default:
      fprintf(stderr, "vt objdump: unknown option '-%c' (in '%s')\n", *c, a);
      return -1;
    }
  }
  return 0;
}

/* what -h/-t/-d/-D ask of one file; 0 or 1 (an error was printed) */
static int dump_file(const char *path, const od_opts *o) {
  vt_elf *elf;
  char err[512];
  if (vt_elf_open_file(path, &elf, err, sizeof err)) {
    fflush(stdout);
    fprintf(stderr, "vt objdump: %s\n", err);
    return 1;
  }
  int status = 0;
  if ((o->disasm || o->disasm_all) && vt_elf_machine(elf) != EM_RISCV) {
    fflush(stdout);
    fprintf(stderr, "vt objdump: %s: not a RISC-V file (e_machine %u), cannot disassemble\n", path,
            vt_elf_machine(elf));
    status = 1;
  } else {
    print_file_header(path, elf);
    if (o->headers) print_section_headers(elf);
    if (o->syms) print_symbols(elf);
    if ((o->disasm || o->disasm_all) && disassemble(path, elf, o)) status = 1;
  }
  vt_elf_free(elf);
  return status;
}

int vt_cmd_objdump(int argc, char **argv) {
  od_opts o;
  memset(&o, 0, sizeof o);
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  if (!files) return 1;
  size_t nfiles = 0;
  bool only_files = false;
  int status = 0;
  for (int i = 1; i < argc && status == 0; i++) {
    const char *a = argv[i];
    if (only_files || a[0] != '-' || !a[1]) files[nfiles++] = a;
    else if (!strcmp(a, "--")) only_files = true;
    else status = parse_option(argc, argv, &i, &o);
  }
  if (status == 0 && !o.disasm && !o.disasm_all && !o.syms && !o.headers) {
    fprintf(stderr, "vt objdump: no action given: use -d, -D, -t or -h\n");
    status = -1;
  } else if (status == 0 && !nfiles) {
    fprintf(stderr, "vt objdump: no input files\n");
    status = -1;
  }
  if (status != 0) {
    if (status < 0) fprintf(stderr, "Run 'vt objdump --help' for the options.\n");
    free(files);
    return status < 0 ? 2 : 0;
  }
  for (size_t i = 0; i < nfiles; i++) status |= dump_file(files[i], &o);
  if (fflush(stdout) != 0) {
    fprintf(stderr, "vt objdump: error writing the output\n");
    status = 1;
  }
  free(files);
  return status;
}
