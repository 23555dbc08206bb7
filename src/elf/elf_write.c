/* ELF32 executable writer: ELF header, one PT_LOAD per segment (file
 * offsets congruent with addresses modulo the 4 KiB page), section
 * contents, .symtab/.strtab/.shstrtab and the section header table. */
#include <elf.h>
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

int vt_elf_write_exec(const vt_ew_image *img, uint8_t **out, size_t *out_size) {
  *out = NULL;
  *out_size = 0;
  size_t ns = img->nsecs;
  /* segments: runs of sections with the same segment number */
  /* loadable sections first (segment >= 0), then non-allocated ones (-1) */
  size_t nload = 0;
  while (nload < ns && img->secs[nload].segment >= 0) nload++;
  size_t nseg = 0;
  for (size_t i = 0; i < nload; i++)
    if (i == 0 || img->secs[i].segment != img->secs[i - 1].segment) nseg++;
  uint32_t *sec_off = calloc(ns ? ns : 1, sizeof *sec_off);
  Elf32_Phdr *ph = calloc(nseg ? nseg : 1, sizeof *ph);
  sbuf shstr = {0}, str = {0};
  Elf32_Sym *syms = calloc(img->nsyms + 1, sizeof *syms);
  uint8_t *buf = NULL;
  int rc = -1;
  if (!sec_off || !ph || !syms) goto done;

  uint32_t off = (uint32_t)(sizeof(Elf32_Ehdr) + nseg * sizeof(Elf32_Phdr));
  size_t seg = 0;
  for (size_t i = 0; i < nload;) {
    size_t j = i;
    while (j < nload && img->secs[j].segment == img->secs[i].segment) j++;
    const vt_ew_section *first = &img->secs[i];
    uint32_t base = align_up(off, PAGE) + (first->addr & (PAGE - 1));
    Elf32_Phdr *p = &ph[seg++];
    p->p_type = PT_LOAD;
    p->p_offset = base;
    p->p_vaddr = p->p_paddr = first->addr;
    p->p_align = PAGE;
    p->p_flags = PF_R;
    uint32_t fend = first->addr, mend = first->addr;
    for (size_t k = i; k < j; k++) {
      const vt_ew_section *s = &img->secs[k];
      sec_off[k] = base + (s->addr - first->addr);
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
  for (size_t i = nload; i < ns; i++) { /* non-allocated: after the segments */
    off = align_up(off, img->secs[i].align ? img->secs[i].align : 1);
    sec_off[i] = off;
    off += img->secs[i].size;
  }
  /* string tables and symbols */
  size_t shn_name[64];
  if (ns + 4 > 64) goto done;
  if (sbuf_add(&shstr, "") == (size_t)-1 || sbuf_add(&str, "") == (size_t)-1) goto done;
  for (size_t i = 0; i < ns; i++)
    if ((shn_name[i] = sbuf_add(&shstr, img->secs[i].name)) == (size_t)-1) goto done;
  size_t n_symtab = sbuf_add(&shstr, ".symtab"), n_strtab = sbuf_add(&shstr, ".strtab");
  size_t n_shstrtab = sbuf_add(&shstr, ".shstrtab");
  if (n_symtab == (size_t)-1 || n_strtab == (size_t)-1 || n_shstrtab == (size_t)-1) goto done;
  for (size_t i = 0; i < img->nsyms; i++) {
    const vt_ew_symbol *s = &img->syms[i];
    size_t at = sbuf_add(&str, s->name);
    if (at == (size_t)-1) goto done;
    Elf32_Sym *e = &syms[i + 1];
    e->st_name = (Elf32_Word)at;
    e->st_value = s->value;
    e->st_size = s->size;
    e->st_info = s->info;
    e->st_shndx = s->shndx;
  }
  uint32_t symtab_off = align_up(off, 4);
  uint32_t symtab_size = (uint32_t)((img->nsyms + 1) * sizeof(Elf32_Sym));
  uint32_t strtab_off = symtab_off + symtab_size;
  uint32_t shstr_off = strtab_off + (uint32_t)str.len;
  uint32_t shdr_off = align_up(shstr_off + (uint32_t)shstr.len, 4);
  size_t nsh = ns + 4;
  size_t total = shdr_off + nsh * sizeof(Elf32_Shdr);
  buf = calloc(1, total);
  if (!buf) goto done;

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
  eh.e_entry = img->entry;
  eh.e_phoff = nseg ? sizeof(Elf32_Ehdr) : 0;
  eh.e_shoff = shdr_off;
  eh.e_flags = img->e_flags;
  eh.e_ehsize = sizeof(Elf32_Ehdr);
  eh.e_phentsize = sizeof(Elf32_Phdr);
  eh.e_phnum = (Elf32_Half)nseg;
  eh.e_shentsize = sizeof(Elf32_Shdr);
  eh.e_shnum = (Elf32_Half)nsh;
  eh.e_shstrndx = (Elf32_Half)(nsh - 1);
  memcpy(buf, &eh, sizeof eh);
  memcpy(buf + sizeof eh, ph, nseg * sizeof(Elf32_Phdr));
  for (size_t i = 0; i < ns; i++)
    if (img->secs[i].type != SHT_NOBITS && img->secs[i].size)
      memcpy(buf + sec_off[i], img->secs[i].data, img->secs[i].size);
  memcpy(buf + symtab_off, syms, symtab_size);
  memcpy(buf + strtab_off, str.p, str.len);
  memcpy(buf + shstr_off, shstr.p, shstr.len);

  Elf32_Shdr *sh = calloc(nsh, sizeof *sh);
  if (!sh) goto done;
  for (size_t i = 0; i < ns; i++) {
    const vt_ew_section *s = &img->secs[i];
    Elf32_Shdr *h = &sh[i + 1];
    h->sh_name = (Elf32_Word)shn_name[i];
    h->sh_type = s->type;
    h->sh_flags = s->flags;
    h->sh_addr = s->addr;
    h->sh_offset = sec_off[i];
    h->sh_size = s->size;
    h->sh_addralign = s->align ? s->align : 1;
  }
  Elf32_Shdr *h = &sh[ns + 1];
  h->sh_name = (Elf32_Word)n_symtab;
  h->sh_type = SHT_SYMTAB;
  h->sh_offset = symtab_off;
  h->sh_size = symtab_size;
  h->sh_link = (Elf32_Word)(ns + 2);
  h->sh_info = (Elf32_Word)(img->nlocals + 1);
  h->sh_addralign = 4;
  h->sh_entsize = sizeof(Elf32_Sym);
  h = &sh[ns + 2];
  h->sh_name = (Elf32_Word)n_strtab;
  h->sh_type = SHT_STRTAB;
  h->sh_offset = strtab_off;
  h->sh_size = (Elf32_Word)str.len;
  h->sh_addralign = 1;
  h = &sh[ns + 3];
  h->sh_name = (Elf32_Word)n_shstrtab;
  h->sh_type = SHT_STRTAB;
  h->sh_offset = shstr_off;
  h->sh_size = (Elf32_Word)shstr.len;
  h->sh_addralign = 1;
  memcpy(buf + shdr_off, sh, nsh * sizeof *sh);
  free(sh);
  *out = buf;
  *out_size = total;
  buf = NULL;
  rc = 0;
done:
  free(buf);
  free(sec_off);
  free(ph);
  free(syms);
  free(shstr.p);
  free(str.p);
  return rc;
}
