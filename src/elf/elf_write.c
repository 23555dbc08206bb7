/* ELF32 executable writer: ELF header, one PT_LOAD per segment (file
 * offsets congruent with addresses modulo the 4 KiB page), section
 * contents, .symtab/.strtab/.shstrtab and the section header table. */
#include <elf.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "elf/elf_write.h"

#define PAGE 0x1000u

typedef struct sbuf {
  char *p;
  size_t len, cap;
} sbuf;

static size_t sbuf_add(sbuf *b, const char *s) {
  size_t n = strlen(s) + 1, at = b->len;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) return (size_t)-1;
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  return at;
}

static uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) & ~(a - 1); }

/* The file as it is laid out: section offsets, program headers, the
 * string tables and symbols, and where the tables go. */
typedef struct ew_layout {
  const vt_ew_image *img;
  size_t nload, nseg, nsh;
  uint32_t *sec_off;
  Elf32_Phdr *ph;
  size_t *shn_name;
  size_t n_symtab, n_strtab, n_shstrtab;
  sbuf shstr, str;
  Elf32_Sym *syms;
  uint32_t symtab_off, symtab_size, strtab_off, shstr_off, shdr_off;
} ew_layout;

/* one PT_LOAD per run of sections with the same segment number (loadable
 * sections first, then the non-allocated ones); returns the end offset */
static uint32_t place_sections(ew_layout *L) {
  const vt_ew_image *img = L->img;
  uint32_t off = (uint32_t)(sizeof(Elf32_Ehdr) + L->nseg * sizeof(Elf32_Phdr));
  size_t seg = 0;
  for (size_t i = 0; i < L->nload;) {
    size_t j = i;
    while (j < L->nload && img->secs[j].segment == img->secs[i].segment) j++;
    const vt_ew_section *first = &img->secs[i];
    uint32_t base = align_up(off, PAGE) + (first->addr & (PAGE - 1));
    Elf32_Phdr *p = &L->ph[seg++];
    p->p_type = PT_LOAD;
    p->p_offset = base;
    p->p_vaddr = p->p_paddr = first->addr;
    p->p_align = PAGE;
    p->p_flags = PF_R;
    uint32_t fend = first->addr, mend = first->addr;
    for (size_t k = i; k < j; k++) {
      const vt_ew_section *s = &img->secs[k];
      L->sec_off[k] = base + (s->addr - first->addr);
      if (s->flags & SHF_WRITE) p->p_flags |= PF_W;
      if (s->flags & SHF_EXECINSTR) p->p_flags |= PF_X;
      if (s->type != SHT_NOBITS) fend = s->addr + s->size;
      mend = s->addr + s->size;
    }
    p->p_filesz = fend - first->addr;
    p->p_memsz = mend - first->addr;
    off = base + p->p_filesz;
    i = j;
  }
  for (size_t i = L->nload; i < img->nsecs; i++) { /* non-allocated: after the segments */
    off = align_up(off, img->secs[i].align ? img->secs[i].align : 1);
    L->sec_off[i] = off;
    off += img->secs[i].size;
  }
  return off;
}

/* section names, symbol names and the symbols; false when out of memory */
static bool build_tables(ew_layout *L) {
  const vt_ew_image *img = L->img;
  if (sbuf_add(&L->shstr, "") == (size_t)-1 || sbuf_add(&L->str, "") == (size_t)-1) return false;
  for (size_t i = 0; i < img->nsecs; i++)
    if ((L->shn_name[i] = sbuf_add(&L->shstr, img->secs[i].name)) == (size_t)-1) return false;
  L->n_symtab = sbuf_add(&L->shstr, ".symtab");
  L->n_strtab = sbuf_add(&L->shstr, ".strtab");
  L->n_shstrtab = sbuf_add(&L->shstr, ".shstrtab");
  if (L->n_symtab == (size_t)-1 || L->n_strtab == (size_t)-1 || L->n_shstrtab == (size_t)-1)
    return false;
  for (size_t i = 0; i < img->nsyms; i++) {
    const vt_ew_symbol *s = &img->syms[i];
    size_t at = sbuf_add(&L->str, s->name);
    if (at == (size_t)-1) return false;
    Elf32_Sym *e = &L->syms[i + 1];
    e->st_name = (Elf32_Word)at;
    e->st_value = s->value;
    e->st_size = s->size;
    e->st_info = s->info;
    e->st_shndx = s->shndx;
  }
  return true;
}

static void write_ehdr(const ew_layout *L, uint8_t *buf) {
  Elf32_Ehdr eh;
  memset(&eh, 0, sizeof eh);
  memcpy(eh.e_ident, ELFMAG, SELFMAG);
  eh.e_ident[EI_CLASS] = ELFCLASS32;
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_VERSION] = EV_CURRENT;
  eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
  eh.e_type = ET_EXEC;
  eh.e_machine = EM_RISCV;
  eh.e_version = EV_CURRENT;
  eh.e_entry = L->img->entry;
  eh.e_phoff = L->nseg ? sizeof(Elf32_Ehdr) : 0;
  eh.e_shoff = L->shdr_off;
  eh.e_flags = L->img->e_flags;
  eh.e_ehsize = sizeof(Elf32_Ehdr);
  eh.e_phentsize = sizeof(Elf32_Phdr);
  eh.e_phnum = (Elf32_Half)L->nseg;
  eh.e_shentsize = sizeof(Elf32_Shdr);
  eh.e_shnum = (Elf32_Half)L->nsh;
  eh.e_shstrndx = (Elf32_Half)(L->nsh - 1);
  memcpy(buf, &eh, sizeof eh);
}

static void table_shdr(Elf32_Shdr *h, size_t name, uint32_t type, uint32_t off, uint32_t size) {
  h->sh_name = (Elf32_Word)name;
  h->sh_type = type;
  h->sh_offset = off;
  h->sh_size = size;
  h->sh_addralign = 1;
}

/* the section header table: null, the image's sections, .symtab, .strtab,
 * .shstrtab */
static void write_shdrs(const ew_layout *L, uint8_t *buf) {
  const vt_ew_image *img = L->img;
  size_t ns = img->nsecs;
  Elf32_Shdr *sh = (Elf32_Shdr *)(buf + L->shdr_off); /* 4-byte aligned in a calloc'd buffer */
  for (size_t i = 0; i < ns; i++) {
    const vt_ew_section *s = &img->secs[i];
    Elf32_Shdr *h = &sh[i + 1];
    h->sh_name = (Elf32_Word)L->shn_name[i];
    h->sh_type = s->type;
    h->sh_flags = s->flags;
    h->sh_addr = s->addr;
    h->sh_offset = L->sec_off[i];
    h->sh_size = s->size;
    h->sh_addralign = s->align ? s->align : 1;
  }
  Elf32_Shdr *h = &sh[ns + 1];
  table_shdr(h, L->n_symtab, SHT_SYMTAB, L->symtab_off, L->symtab_size);
  h->sh_link = (Elf32_Word)(ns + 2);
  h->sh_info = (Elf32_Word)(img->nlocals + 1);
  h->sh_addralign = 4;
  h->sh_entsize = sizeof(Elf32_Sym);
  table_shdr(&sh[ns + 2], L->n_strtab, SHT_STRTAB, L->strtab_off, (uint32_t)L->str.len);
  table_shdr(&sh[ns + 3], L->n_shstrtab, SHT_STRTAB, L->shstr_off, (uint32_t)L->shstr.len);
}

static uint8_t *write_file(ew_layout *L, uint32_t end, size_t *total) {
  const vt_ew_image *img = L->img;
  L->symtab_off = align_up(end, 4);
  L->symtab_size = (uint32_t)((img->nsyms + 1) * sizeof(Elf32_Sym));
  L->strtab_off = L->symtab_off + L->symtab_size;
  L->shstr_off = L->strtab_off + (uint32_t)L->str.len;
  L->shdr_off = align_up(L->shstr_off + (uint32_t)L->shstr.len, 4);
  *total = L->shdr_off + L->nsh * sizeof(Elf32_Shdr);
  uint8_t *buf = calloc(1, *total);
  if (!buf) return NULL;
  write_ehdr(L, buf);
  memcpy(buf + sizeof(Elf32_Ehdr), L->ph, L->nseg * sizeof(Elf32_Phdr));
  for (size_t i = 0; i < img->nsecs; i++)
    if (img->secs[i].type != SHT_NOBITS && img->secs[i].size)
      memcpy(buf + L->sec_off[i], img->secs[i].data, img->secs[i].size);
  memcpy(buf + L->symtab_off, L->syms, L->symtab_size);
  memcpy(buf + L->strtab_off, L->str.p, L->str.len);
  memcpy(buf + L->shstr_off, L->shstr.p, L->shstr.len);
  write_shdrs(L, buf);
  return buf;
}

int vt_elf_write_exec(const vt_ew_image *img, uint8_t **out, size_t *out_size) {
  *out = NULL;
  *out_size = 0;
  ew_layout L;
  memset(&L, 0, sizeof L);
  L.img = img;
  while (L.nload < img->nsecs && img->secs[L.nload].segment >= 0) L.nload++;
  for (size_t i = 0; i < L.nload; i++)
    if (i == 0 || img->secs[i].segment != img->secs[i - 1].segment) L.nseg++;
  L.nsh = img->nsecs + 4;
  L.sec_off = calloc(img->nsecs ? img->nsecs : 1, sizeof *L.sec_off);
  L.shn_name = calloc(img->nsecs ? img->nsecs : 1, sizeof *L.shn_name);
  L.ph = calloc(L.nseg ? L.nseg : 1, sizeof *L.ph);
  L.syms = calloc(img->nsyms + 1, sizeof *L.syms);
  int rc = -1;
  if (L.sec_off && L.shn_name && L.ph && L.syms && L.nsh <= 0xff00) {
    uint32_t end = place_sections(&L);
    if (build_tables(&L)) {
      *out = write_file(&L, end, out_size);
      rc = *out ? 0 : -1;
    }
  }
  free(L.sec_off);
  free(L.shn_name);
  free(L.ph);
  free(L.syms);
  free(L.shstr.p);
  free(L.str.p);
  return rc;
}
