/* Table access, decoding and operand field extraction/insertion. */
#include <string.h>

#include "isa_tables.h"
#include "operand_table.h"

const vt_insn_desc *vt_isa_insn(vt_insn_id id) {
  return (unsigned)id < VT_INSN_COUNT ? &vt_isa_insns_tbl[id] : NULL;
}
size_t vt_isa_insn_count(void) { return VT_INSN_COUNT; }
const vt_operand_desc *vt_isa_operand(vt_operand_id id) {
  return (unsigned)id < VT_OP_COUNT ? &vt_operand_table[id] : NULL;
}
const vt_alias_desc *vt_isa_alias(size_t index) {
  return index < vt_isa_alias_n ? &vt_isa_aliases_tbl[index] : NULL;
}
size_t vt_isa_alias_count(void) { return vt_isa_alias_n; }

const char *vt_exec_class_name(vt_exec_class c) {
  static const char *const names[VT_EX_COUNT] = {
      "alu",  "branch", "jump",  "load",  "store",  "amo",   "csr",    "mul",
      "div",  "fpu",    "sfu",   "fence", "system", "vset",  "valu",   "vmul",
      "vdiv", "vfpu",   "vsfu",  "vload", "vstore", "vperm", "vmask",  "vbranch",
      "simt", "barrier", "endprg", "regext", "tensor", "dma"};
  return (unsigned)c < VT_EX_COUNT ? names[c] : "?";
}

const char *vt_sem_name(vt_sem s) {
  static const char *const names[VT_SEM_COUNT] = {
#define SEM_OP(name, doc) #name,
#include "vt/isa_sems.def"
#undef SEM_OP
  };
  return (unsigned)s < VT_SEM_COUNT ? names[s] : "?";
}

unsigned vt_insn_length(uint32_t first) { return (first & 0x7fu) == 0x3fu ? 8u : 4u; }

vt_insn_id vt_decode(uint32_t word) {
  unsigned b = (word & 0x7fu) | ((word >> 5) & 0x380u);
  for (unsigned i = vt_isa_decode_start[b]; i < vt_isa_decode_start[b + 1]; i++) {
    const vt_insn_desc *d = &vt_isa_insns_tbl[vt_isa_decode_list[i]];
    if ((word & d->mask) == d->match) return (vt_insn_id)vt_isa_decode_list[i];
  }
  return VT_INSN_INVALID;
}

vt_insn_id vt_decode64(uint64_t insn) {
  for (size_t i = 0; i < vt_isa_decode64_n; i++) {
    const vt_insn_desc *d = &vt_isa_insns_tbl[vt_isa_decode64_list[i]];
    if ((insn & d->mask) == d->match) return (vt_insn_id)vt_isa_decode64_list[i];
  }
  return VT_INSN_INVALID;
}

unsigned vt_operand_group(vt_operand_id op) {
  const vt_operand_desc *d = vt_isa_operand(op);
  return d ? 1u << ((d->flags & VT_OPF_GROUP_MASK) >> 5) : 1u;
}

bool vt_insn_pairs_even(vt_insn_id id, uint64_t insn) {
  const vt_insn_desc *d = vt_isa_insn(id);
  if (!d) return true;
  for (unsigned k = 0; k < d->nops; k++) {
    unsigned n = vt_operand_group((vt_operand_id)d->ops[k]);
    uint32_t r = (uint32_t)vt_operand_get64((vt_operand_id)d->ops[k], insn);
    if (n > 1 && ((r & 1) || r + n - 1 > 255)) return false;
  }
  static const struct {
    uint32_t flag;
    unsigned lo;
  } pf[4] = {{VT_F_PRD, 7}, {VT_F_PRS1, 15}, {VT_F_PRS2, 20}, {VT_F_PRS3, 27}};
  for (int k = 0; k < 4; k++)
    if ((d->flags & pf[k].flag) && ((insn >> pf[k].lo) & 1)) return false;
  return true;
}

static unsigned op_width(const vt_operand_desc *d) {
  unsigned w = 0;
  for (unsigned i = 0; i < d->nfields; i++) w += d->fields[i].hi - d->fields[i].lo + 1u;
  return w;
}

int32_t vt_operand_get64(vt_operand_id op, uint64_t insn) {
  const vt_operand_desc *d = &vt_operand_table[op];
  uint32_t v = 0;
  unsigned w = 0;
  for (unsigned i = 0; i < d->nfields; i++) {
    unsigned len = d->fields[i].hi - d->fields[i].lo + 1u;
    v = (v << len) | (uint32_t)((insn >> d->fields[i].lo) & ((1ull << len) - 1u));
    w += len;
  }
  if ((d->flags & VT_OPF_SIGNED) && w < 32 && (v >> (w - 1)) & 1u) v |= ~0u << w;
  if (d->flags & VT_OPF_SHIFT1) v <<= 1;
  return (int32_t)v;
}

int32_t vt_operand_get(vt_operand_id op, uint32_t word) { return vt_operand_get64(op, word); }

uint64_t vt_operand_set64(vt_operand_id op, uint64_t insn, int32_t value) {
  const vt_operand_desc *d = &vt_operand_table[op];
  uint64_t v = (uint32_t)value;
  if (d->flags & VT_OPF_SHIFT1) v >>= 1;
  /* fields are listed most significant first: fill from the last */
  for (int i = (int)d->nfields - 1; i >= 0; i--) {
    unsigned len = d->fields[i].hi - d->fields[i].lo + 1u;
    uint64_t m = ((1ull << len) - 1u) << d->fields[i].lo;
    insn = (insn & ~m) | ((v << d->fields[i].lo) & m);
    v >>= len;
  }
  return insn;
}

uint32_t vt_operand_set(vt_operand_id op, uint32_t word, int32_t value) {
  return (uint32_t)vt_operand_set64(op, word, value);
}

uint64_t vt_operand_mask64(vt_operand_id op) {
  const vt_operand_desc *d = &vt_operand_table[op];
  uint64_t m = 0;
  for (unsigned i = 0; i < d->nfields; i++) {
    unsigned len = d->fields[i].hi - d->fields[i].lo + 1u;
    m |= ((1ull << len) - 1u) << d->fields[i].lo;
  }
  return m;
}

uint32_t vt_operand_mask(vt_operand_id op) { return (uint32_t)vt_operand_mask64(op); }

void vt_operand_range(vt_operand_id op, int64_t *min, int64_t *max) {
  const vt_operand_desc *d = &vt_operand_table[op];
  unsigned w = op_width(d), sh = (d->flags & VT_OPF_SHIFT1) ? 1 : 0;
  int64_t lo, hi;
  if (d->flags & VT_OPF_SIGNED) {
    lo = -((int64_t)1 << (w - 1));
    hi = d->flags & VT_OPF_UNSIGNED_OK ? ((int64_t)1 << w) - 1 : ((int64_t)1 << (w - 1)) - 1;
  } else {
    lo = 0;
    hi = ((int64_t)1 << w) - 1;
  }
  *min = lo * ((int64_t)1 << sh);
  *max = hi * ((int64_t)1 << sh);
}

bool vt_operand_fits(vt_operand_id op, int64_t value) {
  const vt_operand_desc *d = &vt_operand_table[op];
  int64_t lo, hi;
  vt_operand_range(op, &lo, &hi);
  if (value < lo || value > hi) return false;
  if ((d->flags & VT_OPF_SHIFT1) && (value & 1)) return false;
  return true;
}

/* Compares the NUL-terminated table name m with name[0..len), which may
 * contain any bytes (a NUL inside it must not make strncmp stop early and
 * the m[len] check then read past the end of m). */
static int cmp_name(const char *m, const char *name, size_t len) {
  size_t ml = strlen(m);
  int c = memcmp(m, name, ml < len ? ml : len);
  if (c) return c;
  return ml < len ? -1 : ml > len ? 1 : 0;
}

static size_t find_sorted(const uint16_t *order, size_t n, const char *(*name_of)(uint16_t),
                          const char *name, size_t len, uint16_t *out, size_t max) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const char *m = name_of(order[mid]);
    int c = cmp_name(m, name, len);
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  size_t count = 0;
  for (size_t i = lo; i < n; i++) {
    const char *m = name_of(order[i]);
    if (cmp_name(m, name, len) != 0) break;
    if (count < max) out[count] = order[i];
    count++;
  }
  return count;
}

static const char *insn_name(uint16_t i) { return vt_isa_insns_tbl[i].mnemonic; }
static const char *alias_name(uint16_t i) { return vt_isa_aliases_tbl[i].mnemonic; }

size_t vt_isa_find_insns(const char *name, size_t len, uint16_t *ids, size_t max) {
  return find_sorted(vt_isa_insn_by_name, VT_INSN_COUNT, insn_name, name, len, ids, max);
}
size_t vt_isa_find_aliases(const char *name, size_t len, uint16_t *idx, size_t max) {
  return find_sorted(vt_isa_alias_by_name, vt_isa_alias_n, alias_name, name, len, idx, max);
}
