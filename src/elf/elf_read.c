/* ELF32 little-endian reader. The image is copied once; every field is read
 * with explicit little-endian loads from the byte buffer (no struct casts),
 * and every offset, size, index and string is checked before use, with
 * 64-bit arithmetic so that offset + size cannot wrap. No global state. */
#include <elf.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/elf.h"
#include "util/file.h"

struct vt_elf {
  uint8_t *data;
  size_t size;
  uint16_t type, machine;
  uint32_t entry, flags;
  vt_elf_section *sections; /* all section headers, index 0 included */
  size_t nsections;
  vt_elf_segment *segments;
  size_t nsegments;
  vt_elf_symbol *symbols; /* .symtab without the null symbol */
  size_t nsymbols;
};

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static int fail(char *err, size_t errn, const char *fmt, ...) {
  if (err && errn) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errn, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* Is [off, off+len) inside the file? */
static int in_file(const vt_elf *e, uint64_t off, uint64_t len) {
  return off <= e->size && len <= e->size - off;
}

/* NUL-terminated string at 'idx' inside string table section 'sec'. */
static const char *str_at(const vt_elf_section *sec, uint32_t idx) {
  if (!sec->data || idx >= sec->size) return NULL;
  if (!memchr(sec->data + idx, 0, sec->size - idx)) return NULL;
  return (const char *)sec->data + idx;
}

static const char *type_name(uint32_t t) {
  switch (t) {
  case SHT_NULL: return "NULL";
  case SHT_PROGBITS: return "PROGBITS";
  case SHT_SYMTAB: return "SYMTAB";
  case SHT_STRTAB: return "STRTAB";
  case SHT_NOBITS: return "NOBITS";
  default: return "other";
  }
}

static int parse_sections(vt_elf *e, uint32_t shoff, uint16_t shentsize, uint32_t shnum_raw,
                          uint32_t shstrndx, char *err, size_t errn) {
  const uint8_t *d = e->data;
  uint64_t shnum = shnum_raw;
  if (shoff == 0) {
    if (shnum_raw != 0)
      return fail(err, errn, "bad ELF header: e_shnum is %u but e_shoff is 0", shnum_raw);
    return 0;
  }
  if (shentsize != sizeof(Elf32_Shdr))
    return fail(err, errn, "bad ELF header: e_shentsize is %u, expected %zu", shentsize,
                sizeof(Elf32_Shdr));
  if (!in_file(e, shoff, sizeof(Elf32_Shdr)))
    return fail(err, errn,
                "truncated file: section header table at offset 0x%x extends past end (size %zu)",
                shoff, e->size);
  /* Extended numbering: the real counts live in section header 0. */
  if (shnum == 0) shnum = rd32(d + shoff + 20);
  if (shstrndx == SHN_XINDEX) shstrndx = rd32(d + shoff + 24);
  if (shnum == 0) return fail(err, errn, "bad ELF header: e_shoff is set but there are no sections");
  if (!in_file(e, shoff, shnum * sizeof(Elf32_Shdr)))
    return fail(err, errn,
                "truncated file: section header table at offset 0x%x (%llu entries of %zu bytes) "
                "extends past end (size %zu)",
                shoff, (unsigned long long)shnum, sizeof(Elf32_Shdr), e->size);
  e->sections = calloc((size_t)shnum, sizeof *e->sections);
  if (!e->sections) return fail(err, errn, "out of memory");
  e->nsections = (size_t)shnum;
  for (size_t i = 0; i < e->nsections; i++) {
    const uint8_t *h = d + shoff + i * sizeof(Elf32_Shdr);
    vt_elf_section *s = &e->sections[i];
    s->type = rd32(h + 4);
    s->flags = rd32(h + 8);
    s->addr = rd32(h + 12);
    s->offset = rd32(h + 16);
    s->size = rd32(h + 20);
    s->link = rd32(h + 24);
    s->info = rd32(h + 28);
    s->align = rd32(h + 32);
    s->entsize = rd32(h + 36);
    s->name = "";
    if (i == 0) continue; /* holds extended counts, not a real section */
    if (s->type != SHT_NOBITS && s->size) {
      if (!in_file(e, s->offset, s->size))
        return fail(err, errn,
                    "truncated file: section %zu at offset 0x%x size 0x%x extends past end "
                    "(size %zu)",
                    i, s->offset, s->size, e->size);
      s->data = d + s->offset;
    }
    if (s->link >= shnum)
      return fail(err, errn, "bad section %zu: sh_link %u out of range (%llu sections)", i,
                  s->link, (unsigned long long)shnum);
  }
  if (shstrndx != SHN_UNDEF) {
    if (shstrndx >= shnum)
      return fail(err, errn, "bad ELF header: e_shstrndx %u out of range (%llu sections)",
                  shstrndx, (unsigned long long)shnum);
    const vt_elf_section *strs = &e->sections[shstrndx];
    if (strs->type != SHT_STRTAB)
      return fail(err, errn, "bad ELF header: e_shstrndx %u is a %s section, not STRTAB",
                  shstrndx, type_name(strs->type));
    for (size_t i = 1; i < e->nsections; i++) {
      uint32_t name = rd32(d + shoff + i * sizeof(Elf32_Shdr));
      const char *n = str_at(strs, name);
      if (!n)
        return fail(err, errn,
                    "bad section %zu: sh_name %u outside the section name table or not "
                    "terminated (table size %u)",
                    i, name, strs->size);
      e->sections[i].name = n;
    }
  }
  return 0;
}

static int parse_segments(vt_elf *e, uint32_t phoff, uint16_t phentsize, uint32_t phnum,
                          char *err, size_t errn) {
  if (phnum == 0) return 0;
  if (phnum == PN_XNUM) {
    if (e->nsections == 0)
      return fail(err, errn, "bad ELF header: e_phnum is PN_XNUM but there is no section 0");
    phnum = e->sections[0].info;
  }
  if (phentsize != sizeof(Elf32_Phdr))
    return fail(err, errn, "bad ELF header: e_phentsize is %u, expected %zu", phentsize,
                sizeof(Elf32_Phdr));
  if (!in_file(e, phoff, (uint64_t)phnum * sizeof(Elf32_Phdr)))
    return fail(err, errn,
                "truncated file: program header table at offset 0x%x (%u entries) extends past "
                "end (size %zu)",
                phoff, phnum, e->size);
  e->segments = calloc(phnum, sizeof *e->segments);
  if (!e->segments) return fail(err, errn, "out of memory");
  e->nsegments = phnum;
  for (uint32_t i = 0; i < phnum; i++) {
    const uint8_t *h = e->data + phoff + (size_t)i * sizeof(Elf32_Phdr);
    vt_elf_segment *s = &e->segments[i];
    s->type = rd32(h + 0);
    s->offset = rd32(h + 4);
    s->vaddr = rd32(h + 8);
    s->paddr = rd32(h + 12);
    s->filesz = rd32(h + 16);
    s->memsz = rd32(h + 20);
    s->flags = rd32(h + 24);
    s->align = rd32(h + 28);
    if (s->filesz) {
      if (!in_file(e, s->offset, s->filesz))
        return fail(err, errn,
                    "truncated file: segment %u at offset 0x%x filesz 0x%x extends past end "
                    "(size %zu)",
                    i, s->offset, s->filesz, e->size);
      s->data = e->data + s->offset;
    }
    if (s->type == PT_LOAD && s->filesz > s->memsz)
      return fail(err, errn, "bad segment %u: p_filesz 0x%x larger than p_memsz 0x%x", i,
                  s->filesz, s->memsz);
  }
  return 0;
}

static int parse_symbols(vt_elf *e, char *err, size_t errn) {
  const vt_elf_section *symtab = NULL;
  size_t symidx = 0;
  for (size_t i = 1; i < e->nsections; i++)
    if (e->sections[i].type == SHT_SYMTAB) {
      symtab = &e->sections[i];
      symidx = i;
      break;
    }
  if (!symtab) return 0;
  if (symtab->entsize != sizeof(Elf32_Sym))
    return fail(err, errn, "bad symbol table (section %zu): sh_entsize %u, expected %zu", symidx,
                symtab->entsize, sizeof(Elf32_Sym));
  if (symtab->size % sizeof(Elf32_Sym))
    return fail(err, errn,
                "bad symbol table (section %zu): size 0x%x is not a multiple of %zu", symidx,
                symtab->size, sizeof(Elf32_Sym));
  if (symtab->link == 0 || symtab->link >= e->nsections)
    return fail(err, errn, "bad symbol table (section %zu): sh_link %u is not a section", symidx,
                symtab->link);
  const vt_elf_section *strtab = &e->sections[symtab->link];
  if (strtab->type != SHT_STRTAB)
    return fail(err, errn,
                "bad symbol table (section %zu): sh_link %u is a %s section, not STRTAB", symidx,
                symtab->link, type_name(strtab->type));
  size_t n = symtab->size / sizeof(Elf32_Sym);
  if (n <= 1) return 0;
  e->symbols = calloc(n - 1, sizeof *e->symbols);
  if (!e->symbols) return fail(err, errn, "out of memory");
  e->nsymbols = n - 1;
  for (size_t i = 1; i < n; i++) {
    const uint8_t *p = symtab->data + i * sizeof(Elf32_Sym);
    vt_elf_symbol *s = &e->symbols[i - 1];
    uint32_t name = rd32(p + 0);
    s->value = rd32(p + 4);
    s->size = rd32(p + 8);
    s->bind = (uint8_t)ELF32_ST_BIND(p[12]);
    s->type = (uint8_t)ELF32_ST_TYPE(p[12]);
    s->other = p[13];
    s->shndx = rd16(p + 14);
    s->name = str_at(strtab, name);
    if (!s->name)
      return fail(err, errn,
                  "bad symbol %zu: st_name %u outside the string table or not terminated "
                  "(table size %u)",
                  i, name, strtab->size);
    if (s->shndx >= e->nsections && s->shndx < SHN_LORESERVE)
      return fail(err, errn, "bad symbol %zu (%s): section index %u out of range (%zu sections)",
                  i, s->name, s->shndx, e->nsections);
  }
  return 0;
}

int vt_elf_open_mem(const uint8_t *data, size_t size, vt_elf **out, char *err, size_t errn) {
  if (out) *out = NULL;
  if (err && errn) err[0] = 0;
  if (!out) return fail(err, errn, "no output pointer");
  if (!data && size) return fail(err, errn, "no data");
  if (size < SELFMAG || memcmp(data, ELFMAG, SELFMAG) != 0)
    return fail(err, errn, "not an ELF file (bad magic)");
  if (size < EI_NIDENT)
    return fail(err, errn, "truncated file: ELF identification needs %d bytes, file has %zu",
                EI_NIDENT, size);
  if (data[EI_CLASS] != ELFCLASS32)
    return fail(err, errn, "unsupported ELF class %u (only ELFCLASS32 is supported)",
                data[EI_CLASS]);
  if (data[EI_DATA] != ELFDATA2LSB)
    return fail(err, errn, "unsupported ELF data encoding %u (only little-endian is supported)",
                data[EI_DATA]);
  if (data[EI_VERSION] != EV_CURRENT)
    return fail(err, errn, "unsupported ELF identification version %u", data[EI_VERSION]);
  if (size < sizeof(Elf32_Ehdr))
    return fail(err, errn, "truncated file: ELF header needs %zu bytes, file has %zu",
                sizeof(Elf32_Ehdr), size);
  vt_elf *e = calloc(1, sizeof *e);
  if (!e) return fail(err, errn, "out of memory");
  e->data = malloc(size);
  if (!e->data) {
    free(e);
    return fail(err, errn, "out of memory");
  }
  memcpy(e->data, data, size);
  e->size = size;
  const uint8_t *d = e->data;
  e->type = rd16(d + 16);
  e->machine = rd16(d + 18);
  uint32_t version = rd32(d + 20);
  e->entry = rd32(d + 24);
  uint32_t phoff = rd32(d + 28), shoff = rd32(d + 32);
  e->flags = rd32(d + 36);
  uint16_t ehsize = rd16(d + 40), phentsize = rd16(d + 42), phnum = rd16(d + 44);
  uint16_t shentsize = rd16(d + 46), shnum = rd16(d + 48), shstrndx = rd16(d + 50);
  int rc = 0;
  if (version != EV_CURRENT)
    rc = fail(err, errn, "unsupported ELF version %u", version);
  else if (ehsize != sizeof(Elf32_Ehdr))
    rc = fail(err, errn, "bad ELF header: e_ehsize is %u, expected %zu", ehsize,
              sizeof(Elf32_Ehdr));
  if (!rc) rc = parse_sections(e, shoff, shentsize, shnum, shstrndx, err, errn);
  if (!rc) rc = parse_segments(e, phoff, phentsize, phnum, err, errn);
  if (!rc) rc = parse_symbols(e, err, errn);
  if (rc) {
    vt_elf_free(e);
    return -1;
  }
  *out = e;
  return 0;
}

int vt_elf_open_file(const char *path, vt_elf **out, char *err, size_t errn) {
  if (out) *out = NULL;
  uint8_t *buf;
  size_t len;
  char msg[512];
  if (vt_read_file(path, VT_FILE_LIMIT_ELF, &buf, &len, msg, sizeof msg))
    return fail(err, errn, "%s", msg);
  int rc = vt_elf_open_mem(buf, len, out, msg, sizeof msg);
  free(buf);
  if (rc) return fail(err, errn, "%s: %s", path, msg);
  return 0;
}

void vt_elf_free(vt_elf *elf) {
  if (!elf) return;
  free(elf->sections);
  free(elf->segments);
  free(elf->symbols);
  free(elf->data);
  free(elf);
}

uint32_t vt_elf_entry(const vt_elf *elf) { return elf->entry; }
uint16_t vt_elf_machine(const vt_elf *elf) { return elf->machine; }
uint16_t vt_elf_type(const vt_elf *elf) { return elf->type; }
uint32_t vt_elf_flags(const vt_elf *elf) { return elf->flags; }

size_t vt_elf_section_count(const vt_elf *elf) { return elf->nsections; }
const vt_elf_section *vt_elf_section_at(const vt_elf *elf, size_t i) {
  return i < elf->nsections ? &elf->sections[i] : NULL;
}
const vt_elf_section *vt_elf_section_by_name(const vt_elf *elf, const char *name) {
  for (size_t i = 1; i < elf->nsections; i++)
    if (!strcmp(elf->sections[i].name, name)) return &elf->sections[i];
  return NULL;
}

size_t vt_elf_segment_count(const vt_elf *elf) { return elf->nsegments; }
const vt_elf_segment *vt_elf_segment_at(const vt_elf *elf, size_t i) {
  return i < elf->nsegments ? &elf->segments[i] : NULL;
}

size_t vt_elf_symbol_count(const vt_elf *elf) { return elf->nsymbols; }
const vt_elf_symbol *vt_elf_symbol_at(const vt_elf *elf, size_t i) {
  return i < elf->nsymbols ? &elf->symbols[i] : NULL;
}
/* A global or weak definition wins over a local one of the same name. */
int vt_elf_find_symbol(const vt_elf *elf, const char *name, uint32_t *value) {
  const vt_elf_symbol *local = NULL;
  for (size_t i = 0; i < elf->nsymbols; i++) {
    const vt_elf_symbol *s = &elf->symbols[i];
    if (s->shndx == SHN_UNDEF || s->type == STT_SECTION || s->type == STT_FILE ||
        strcmp(s->name, name) != 0)
      continue;
    if (s->bind != STB_LOCAL) {
      if (value) *value = s->value;
      return 0;
    }
    if (!local) local = s;
  }
  if (!local) return -1;
  if (value) *value = local->value;
  return 0;
}
