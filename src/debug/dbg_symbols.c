/* Symbols of the loaded programs: names to addresses (break SYMBOL,
 * x SYMBOL) and addresses to "name+offset" (stops, disassembly). Section,
 * file and assembler-local (.L...) symbols are not used. */
#include <elf.h>
#include <string.h>

#include "dbg_internal.h"

static bool usable(const vt_elf_symbol *s) {
  return s->name && *s->name && s->shndx != SHN_UNDEF && s->type != STT_SECTION &&
         s->type != STT_FILE && strncmp(s->name, ".L", 2) != 0 && s->name[0] != '$';
}

bool dbg_symbol(const vt_dbg *d, const char *name, uint32_t *value, uint32_t *size) {
  for (size_t e = 0; e < d->nelfs; e++) {
    const vt_elf *elf = d->elfs[e];
    const vt_elf_symbol *found = NULL; /* a global one wins over a local one */
    for (size_t i = 0; i < vt_elf_symbol_count(elf); i++) {
      const vt_elf_symbol *s = vt_elf_symbol_at(elf, i);
      if (!usable(s) || strcmp(s->name, name) != 0) continue;
      if (s->bind != STB_LOCAL) {
        found = s;
        break;
      }
      if (!found) found = s;
    }
    if (found) {
      *value = found->value;
      if (size) *size = found->size;
      return true;
    }
  }
  return false;
}

/* the nearest usable symbol at or below addr (functions and objects cover
 * their size; labels without one reach up to the next symbol) */
static const vt_elf_symbol *nearest(const vt_dbg *d, uint32_t addr) {
  const vt_elf_symbol *best = NULL;
  for (size_t e = 0; e < d->nelfs; e++) {
    const vt_elf *elf = d->elfs[e];
    for (size_t i = 0; i < vt_elf_symbol_count(elf); i++) {
      const vt_elf_symbol *s = vt_elf_symbol_at(elf, i);
      if (!usable(s) || s->value > addr) continue;
      if (s->size && addr - s->value >= s->size) continue;
      /* the closest; among equals a global one, then one with a size */
      if (!best || s->value > best->value ||
          (s->value == best->value &&
           ((s->bind != STB_LOCAL && best->bind == STB_LOCAL) || (s->size && !best->size))))
        best = s;
    }
  }
  return best;
}

const char *dbg_symbol_near(const vt_dbg *d, uint32_t addr, uint32_t *offset) {
  const vt_elf_symbol *s = nearest(d, addr);
  if (!s || addr - s->value > 0x100000u) return NULL; /* a label far away names nothing */
  *offset = addr - s->value;
  return s->name;
}

void dbg_symbolize(const vt_dbg *d, uint32_t addr, char *buf, size_t n) {
  uint32_t off;
  const char *name = dbg_symbol_near(d, addr, &off);
  if (!name) {
    if (n) buf[0] = 0;
  } else if (off == 0) {
    snprintf(buf, n, "%s", name);
  } else {
    snprintf(buf, n, "%s+0x%x", name, off);
  }
}

bool dbg_function_at(const vt_dbg *d, uint32_t addr, uint32_t *start, uint32_t *size) {
  const vt_elf_symbol *s = nearest(d, addr);
  if (!s || !s->size) return false;
  *start = s->value;
  *size = s->size;
  return true;
}
