/* libFuzzer target: the decoder, the disassembler and operand access.
 *
 * The input is read as little-endian 32-bit words (a short tail is
 * zero-padded); a word with bits 6:0 = 0x3f and the word after it form a
 * 64-bit instruction (isa2025.md D1). Every instruction goes through
 * vt_decode/vt_decode64 and vt_disasm/vt_disasm64 with every option
 * combination, with exact-size and tiny output buffers; decoded instructions
 * get an operand get/set/fits/range round trip. The raw bytes are also fed
 * to the name parsers. Any inconsistency aborts. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_check.h"
#include "vt/isa.h"

static const char long_name[] =
    "a_rather_long_symbol_name_to_push_the_disassembly_past_small_buffers";

/* Symbolizers: one names every target, one names only some, one never. */
static const char *sym_all(void *ctx, uint32_t addr, uint32_t *offset) {
  (void)ctx;
  *offset = addr & 0xff;
  return (addr & 0x100) ? long_name : "f";
}
static const char *sym_some(void *ctx, uint32_t addr, uint32_t *offset) {
  uint32_t salt = *(const uint32_t *)ctx;
  *offset = 0;
  return ((addr ^ salt) & 4) ? "label" : NULL;
}
static const char *sym_none(void *ctx, uint32_t addr, uint32_t *offset) {
  (void)ctx;
  (void)addr;
  (void)offset;
  return NULL;
}

/* An instruction of either length (insn holds the second parcel of a 64-bit
 * instruction in bits 63:32). */
typedef struct insn {
  uint64_t word;
  unsigned length;
} insn;

static int disasm_any(insn in, uint32_t pc, const vt_disasm_opts *o, char *buf, size_t n) {
  return in.length == 8 ? vt_disasm64(in.word, pc, o, buf, n)
                        : vt_disasm((uint32_t)in.word, pc, o, buf, n);
}

static vt_insn_id decode_any(insn in) {
  return in.length == 8 ? vt_decode64(in.word) : vt_decode((uint32_t)in.word);
}

/* Disassemble with one option set: the full text into an exact-size buffer,
 * then into NULL/0 and tiny buffers, which must give a prefix and the same
 * length. Returns the full length. */
static int check_disasm(insn in, uint32_t pc, const vt_disasm_opts *o) {
  uint32_t word = (uint32_t)in.word;
  int len = disasm_any(in, pc, o, NULL, 0);
  FUZZ_CHECK(len > 0 && len < 4096, "word 0x%08x: length %d", word, len);
  char *full = malloc((size_t)len + 1);
  FUZZ_CHECK(full != NULL, "out of memory");
  int len2 = disasm_any(in, pc, o, full, (size_t)len + 1);
  FUZZ_CHECK(len2 == len, "word 0x%08x: %d then %d", word, len, len2);
  FUZZ_CHECK(strlen(full) == (size_t)len, "word 0x%08x: strlen %zu, returned %d", word,
             strlen(full), len);
  /* sizes 1 and 2 and one in the middle of the text */
  size_t sizes[3] = {1, 2, 3 + (word ^ pc) % (size_t)len};
  for (int k = 0; k < 3; k++) {
    size_t n = sizes[k];
    char *tiny = malloc(n); /* exact size: ASan sees any overflow */
    FUZZ_CHECK(tiny != NULL, "out of memory");
    memset(tiny, 'X', n);
    int l = disasm_any(in, pc, o, tiny, n);
    size_t want = (size_t)len < n - 1 ? (size_t)len : n - 1;
    FUZZ_CHECK(l == len, "word 0x%08x: buffer %zu gave length %d, expected %d", word, n, l, len);
    FUZZ_CHECK(tiny[want] == 0 && memcmp(tiny, full, want) == 0,
               "word 0x%08x: buffer %zu: bad truncated text", word, n);
    free(tiny);
  }
  bool unknown = strcmp(full, "<unknown>") == 0;
  FUZZ_CHECK(unknown == (decode_any(in) == VT_INSN_INVALID), "word 0x%08x: \"%s\"", word, full);
  free(full);
  return len;
}

static unsigned op_width(const vt_operand_desc *d) {
  unsigned w = 0;
  for (unsigned i = 0; i < d->nfields; i++) w += d->fields[i].hi - d->fields[i].lo + 1u;
  return w;
}

/* A declared superset row (VT_F_SUPERSET, e.g. prefix) contains a more
 * specific row (regext): new operand values may land in it. */
static bool inside_specific_row(const vt_insn_desc *d, insn w) {
  const vt_insn_desc *e = vt_isa_insn(decode_any(w));
  if (!(d->flags & VT_F_SUPERSET) || e == NULL || e == d) return false;
  return (w.word & e->mask) == e->match && (e->mask & d->mask) == d->mask &&
         (e->match & d->mask) == d->match;
}

/* Operand access on a decoded instruction; 'other' supplies new values. */
static void check_operands(vt_insn_id id, insn in, uint32_t other) {
  const vt_insn_desc *d = vt_isa_insn(id);
  uint64_t word = in.word, all = in.length == 8 ? ~0ull : 0xffffffffull;
  FUZZ_CHECK(d != NULL && d->mnemonic != NULL, "id %d has no descriptor", (int)id);
  FUZZ_CHECK((word & d->mask) == d->match && d->length == in.length, "0x%llx decoded as %s",
             (unsigned long long)word, d->mnemonic);
  FUZZ_CHECK(d->nops <= VT_MAX_OPERANDS, "%s: %u operands", d->mnemonic, d->nops);
  uint64_t covered = 0;
  for (unsigned i = 0; i < d->nops; i++) {
    vt_operand_id op = (vt_operand_id)d->ops[i];
    FUZZ_CHECK((unsigned)op < VT_OP_COUNT, "%s: operand id %u", d->mnemonic, (unsigned)op);
    const vt_operand_desc *od = vt_isa_operand(op);
    uint64_t mask = vt_operand_mask64(op);
    covered |= mask;
    FUZZ_CHECK((mask & d->mask) == 0 && (mask & ~all) == 0, "%s: operand %s overlaps fixed bits",
               d->mnemonic, od->name);
    int64_t lo, hi;
    vt_operand_range(op, &lo, &hi);
    int32_t v = vt_operand_get64(op, word);
    FUZZ_CHECK(v >= lo && v <= hi && vt_operand_fits(op, v), "%s %s: value %d outside [%lld, %lld]",
               d->mnemonic, od->name, v, (long long)lo, (long long)hi);
    FUZZ_CHECK(vt_operand_set64(op, word, v) == word, "%s %s: set(get) changed 0x%llx",
               d->mnemonic, od->name, (unsigned long long)word);

    /* a new value from the input: only the operand's bits change */
    int32_t nv = (int32_t)(other * 2654435761u + i);
    insn w2 = {vt_operand_set64(op, word, nv), in.length};
    FUZZ_CHECK((w2.word & ~mask) == (word & ~mask), "%s %s: set touched other bits", d->mnemonic,
               od->name);
    FUZZ_CHECK(decode_any(w2) == id || inside_specific_row(d, w2),
               "%s %s: 0x%llx decodes as another instruction", d->mnemonic, od->name,
               (unsigned long long)w2.word);
    /* clamp into range: a fitting value reads back (modulo the unsigned
     * reading of VT_OPF_UNSIGNED_OK immediates) */
    int64_t span = hi - lo + 1, fv = lo + (int64_t)((uint64_t)(uint32_t)nv % (uint64_t)span);
    if (od->flags & VT_OPF_SHIFT1) fv &= ~(int64_t)1;
    if (fv < lo) fv += 2;
    if (vt_operand_fits(op, fv)) {
      int32_t back = vt_operand_get64(op, vt_operand_set64(op, word, (int32_t)fv));
      unsigned w = op_width(od) + ((od->flags & VT_OPF_SHIFT1) ? 1u : 0u);
      bool ok = back == fv ||
                ((od->flags & VT_OPF_UNSIGNED_OK) && w < 63 && back == fv - ((int64_t)1 << w));
      FUZZ_CHECK(ok, "%s %s: set %lld, got %d back", d->mnemonic, od->name, (long long)fv,
                 back);
    }
    FUZZ_CHECK(!vt_operand_fits(op, hi + 1) && !vt_operand_fits(op, lo - 1),
               "%s %s: range ends are not tight", d->mnemonic, od->name);

    /* printed names parse back */
    if (od->kind == VT_OPK_XREG && v < 32) {
      const char *name = vt_xreg_name((unsigned)v);
      FUZZ_CHECK(name && vt_parse_xreg(name, strlen(name), false) == v, "xreg %d", v);
    } else if (od->kind == VT_OPK_CSR) {
      const char *name = vt_csr_name((unsigned)v);
      if (name) FUZZ_CHECK(vt_parse_csr(name, strlen(name)) == v, "csr %d (%s)", v, name);
    }
  }
  FUZZ_CHECK((covered | d->mask) == all, "%s: bits 0x%llx are neither fixed nor operands",
             d->mnemonic, (unsigned long long)(~(covered | d->mask) & all));
}

/* Name parsers and formatters on raw input bytes (not NUL-terminated). */
static void check_parsers(const uint8_t *data, size_t size) {
  size_t len = size < 24 ? size : 24;
  char *s = malloc(len ? len : 1);
  FUZZ_CHECK(s != NULL, "out of memory");
  if (len) memcpy(s, data, len);
  int r = vt_parse_xreg(s, len, true);
  FUZZ_CHECK(r >= -1 && r < 256, "vt_parse_xreg gave %d", r);
  r = vt_parse_xreg(s, len, false);
  FUZZ_CHECK(r >= -1 && r < 256, "vt_parse_xreg gave %d", r);
  r = vt_parse_vreg(s, len);
  FUZZ_CHECK(r >= -1 && r < 256, "vt_parse_vreg gave %d", r);
  r = vt_parse_csr(s, len);
  FUZZ_CHECK(r >= -1 && r < 4096, "vt_parse_csr gave %d", r);
  uint16_t ids[4];
  size_t n = vt_isa_find_insns(s, len, ids, 4);
  for (size_t i = 0; i < n && i < 4; i++) {
    const vt_insn_desc *d = vt_isa_insn((vt_insn_id)ids[i]);
    FUZZ_CHECK(d && strlen(d->mnemonic) == len && memcmp(d->mnemonic, s, len) == 0,
               "vt_isa_find_insns returned another name");
  }
  n = vt_isa_find_aliases(s, len, ids, 4);
  for (size_t i = 0; i < n && i < 4; i++) {
    const vt_alias_desc *a = vt_isa_alias(ids[i]);
    FUZZ_CHECK(a && strlen(a->mnemonic) == len && memcmp(a->mnemonic, s, len) == 0,
               "vt_isa_find_aliases returned another name");
  }
  free(s);
}

static void check_formatters(uint32_t word) {
  char small[5], big[64];
  int l1 = vt_format_vtype(word & 0x7ff, big, sizeof big);
  int l2 = vt_format_vtype(word & 0x7ff, small, sizeof small);
  FUZZ_CHECK(l1 >= 0 && l1 == l2 && (size_t)l1 == strlen(big) && strlen(small) < sizeof small &&
                 strncmp(big, small, strlen(small)) == 0,
             "vt_format_vtype(0x%x)", word & 0x7ff);
  l1 = vt_format_fence(word & 0xf, big, sizeof big);
  l2 = vt_format_fence(word & 0xf, small, 2);
  FUZZ_CHECK(l1 > 0 && l1 == l2 && (size_t)l1 == strlen(big) && strlen(small) < 2,
             "vt_format_fence(0x%x)", word & 0xf);
  const char *rm = vt_rm_name((word >> 12) & 7);
  if (rm) FUZZ_CHECK(strlen(rm) == 3, "rm name %s", rm);
  (void)vt_csr_is_ventus(word >> 20);
  const char *csr = vt_csr_name(word >> 20);
  if (csr) FUZZ_CHECK(vt_parse_csr(csr, strlen(csr)) == (int)(word >> 20), "csr %s", csr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  check_parsers(data, size);
  size_t nwords = (size + 3) / 4;
  if (nwords > 64) nwords = 64; /* keep each run fast */
  for (size_t i = 0; i < nwords; i++) {
    uint32_t w[2] = {0, 0};
    for (size_t k = 0; k < 2 && i + k < nwords; k++) {
      uint8_t b[4] = {0, 0, 0, 0};
      memcpy(b, data + 4 * (i + k), size - 4 * (i + k) < 4 ? size - 4 * (i + k) : 4);
      w[k] = b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    }
    uint32_t word = w[0];
    insn in = {word, 4};
    if (vt_insn_length(word) == 8 && i + 1 < nwords) { /* a 64-bit instruction */
      in.word |= (uint64_t)w[1] << 32;
      in.length = 8;
    }
    uint32_t other = i + 1 < nwords ? word ^ (uint32_t)(data[4 * i + 4] * 0x01010101u) : ~word;

    vt_insn_id id = decode_any(in);
    FUZZ_CHECK(id == VT_INSN_INVALID || (unsigned)id < vt_isa_insn_count(), "bad id %d",
               (int)id);
    if (in.length == 4 && vt_insn_length(word) == 8)
      FUZZ_CHECK(id == VT_INSN_INVALID, "a lone 64-bit first parcel decoded");
    /* two pcs: a plausible one and one that makes targets wrap around */
    uint32_t pcs[2] = {0x80000000u + 4u * (uint32_t)i, ~word & ~3u};
    for (int p = 0; p < 2; p++) {
      int len0 = check_disasm(in, pcs[p], NULL);
      if (p == 1 && vt_isa_insn(id) && !strchr(vt_isa_insn(id)->tmpl, VT_TMPL_OP + VT_OP_BIMM) &&
          !strchr(vt_isa_insn(id)->tmpl, VT_TMPL_OP + VT_OP_JIMM))
        continue; /* the pc only matters to pc-relative operands */
      uint32_t salt = word;
      for (int combo = 0; combo < 12; combo++) {
        vt_disasm_opts o = {0};
        o.numeric_csr = combo & 1;
        o.no_aliases = (combo >> 1) & 1;
        o.symbolize = (combo >> 2) == 0 ? NULL : (combo >> 2) == 1 ? sym_all : sym_some;
        o.ctx = &salt;
        int len = check_disasm(in, pcs[p], &o);
        if (combo == 0) FUZZ_CHECK(len == len0, "NULL options differ from the defaults");
      }
      vt_disasm_opts o = {0};
      o.symbolize = sym_none;
      FUZZ_CHECK(check_disasm(in, pcs[p], &o) == len0, "a NULL-returning symbolizer changed the text");
    }
    if (id != VT_INSN_INVALID) check_operands(id, in, other);
    check_formatters(word);
    if (in.length == 8) i++;
  }
  return 0;
}
