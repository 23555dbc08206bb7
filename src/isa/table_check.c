/* Instruction-table compilation and self-checks. Linked into the build-time
 * generator (which refuses a bad table) and into libvt (tests feed it
 * deliberately broken tables from tests/isa/bad_tables). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "vt/isa.h"

typedef struct msgbuf {
  char *buf;
  size_t size, len;
  int count;
} msgbuf;

static void report(msgbuf *m, const char *fmt, ...) {
  m->count++;
  if (!m->buf || m->size == 0 || m->len + 1 >= m->size) return;
  va_list ap;
  va_start(ap, fmt);
  int w = vsnprintf(m->buf + m->len, m->size - m->len, fmt, ap);
  va_end(ap);
  if (w < 0) return;
  m->len += (size_t)w;
  if (m->len >= m->size) m->len = m->size - 1;
  if (m->len + 1 < m->size) {
    m->buf[m->len++] = '\n';
    m->buf[m->len] = 0;
  }
}

static uint64_t range_bits(unsigned hi, unsigned lo) {
  unsigned w = hi - lo + 1;
  return (w == 64 ? ~0ull : ((1ull << w) - 1u)) << lo;
}

static uint64_t field_bits(const vt_operand_desc *op) {
  uint64_t bits = 0;
  for (unsigned i = 0; i < op->nfields; i++) {
    unsigned hi = op->fields[i].hi, lo = op->fields[i].lo;
    if (hi > 63 || lo > hi) continue;
    bits |= range_bits(hi, lo);
  }
  return bits;
}

/* isa2025.md D1: bits 6:0 = 0x3f make a 64-bit instruction */
static unsigned row_length(const vt_raw_insn *a) { return (a->match & 0x7f) == 0x3f ? 8 : 4; }

static int is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* optional operands come last, each after ", "; keyed operands too;
 * keyed after optional is impossible (one kind of tail per syntax) */
static int check_operand_order(const char *syntax, const vt_operand_desc *ops,
                               const uint8_t *opids, uint8_t n, char *err, size_t errn) {
  for (uint8_t j = 0; j < n; j++) {
    uint8_t f = ops[opids[j]].flags, g = j + 1 < n ? ops[opids[j + 1]].flags : 0;
    if ((f & VT_OPF_OPTIONAL) && j + 1 < n && !(g & VT_OPF_OPTIONAL)) {
      snprintf(err, errn, "syntax \"%s\": optional operand '%s' is not last", syntax,
               ops[opids[j]].name);
      return -1;
    }
    if ((f & VT_OPF_KEY) && j + 1 < n && !(g & VT_OPF_KEY)) {
      snprintf(err, errn, "syntax \"%s\": keyed operand '%s' is followed by a positional one",
               syntax, ops[opids[j]].name);
      return -1;
    }
    if ((f & VT_OPF_KEY) && (f & VT_OPF_OPTIONAL)) {
      snprintf(err, errn, "syntax \"%s\": operand '%s' is both keyed and optional", syntax,
               ops[opids[j]].name);
      return -1;
    }
  }
  return 0;
}

int vt_isa_compile_syntax(const char *syntax, const vt_operand_desc *ops, size_t nops,
                          char *tmpl, size_t tmpl_size, uint8_t *opids, uint8_t *nopids,
                          char *err, size_t errn) {
  size_t out = 0;
  uint8_t n = 0;
  const char *p = syntax;
  while (*p) {
    if (is_ident_char(*p)) {
      const char *s = p;
      while (is_ident_char(*p)) p++;
      size_t len = (size_t)(p - s);
      size_t k;
      if (*p == '=') { /* "key=" before a keyed operand: literal text */
        if (out + len + 1 >= tmpl_size) goto too_long;
        memcpy(tmpl + out, s, len + 1);
        out += len + 1;
        p++;
        continue;
      }
      for (k = 0; k < nops; k++)
        if (strlen(ops[k].name) == len && memcmp(ops[k].name, s, len) == 0) break;
      if (k == nops) {
        /* only register names ("v0" of vmerge) and decimal numbers (the
         * copy size of cp_dma) may be literal words */
        size_t digits = 0;
        while (digits < len && s[digits] >= '0' && s[digits] <= '9') digits++;
        if (digits < len && vt_parse_vreg(s, len) < 0 && vt_parse_xreg(s, len, false) < 0) {
          snprintf(err, errn, "syntax \"%s\" names unknown operand '%.*s'", syntax, (int)len, s);
          return -1;
        }
        if (out + len >= tmpl_size) goto too_long;
        memcpy(tmpl + out, s, len);
        out += len;
        continue;
      }
      if (n >= VT_MAX_OPERANDS) {
        snprintf(err, errn, "syntax \"%s\" has more than %d operands", syntax, VT_MAX_OPERANDS);
        return -1;
      }
      for (uint8_t j = 0; j < n; j++)
        if (opids[j] == k) {
          snprintf(err, errn, "syntax \"%s\" names operand '%s' twice", syntax, ops[k].name);
          return -1;
        }
      if ((ops[k].flags & VT_OPF_KEY) && (out == 0 || tmpl[out - 1] != '=')) {
        snprintf(err, errn, "syntax \"%s\": keyed operand '%s' needs a \"key=\" before it", syntax,
                 ops[k].name);
        return -1;
      }
      if (!(ops[k].flags & VT_OPF_KEY) && out && tmpl[out - 1] == '=') {
        snprintf(err, errn, "syntax \"%s\": operand '%s' after \"key=\" is not keyed", syntax,
                 ops[k].name);
        return -1;
      }
      opids[n++] = (uint8_t)k;
      if (out + 1 >= tmpl_size) goto too_long;
      tmpl[out++] = (char)(VT_TMPL_OP + k);
    } else {
      if (out + 1 >= tmpl_size) goto too_long;
      tmpl[out++] = *p++;
    }
  }
  tmpl[out] = 0;
  *nopids = n;
  return check_operand_order(syntax, ops, opids, n, err, errn);
too_long:
  snprintf(err, errn, "syntax \"%s\" is too long", syntax);
  return -1;
}

/* the operands: 1 to 4 bit fields inside 64 bits, used once, at most 31
 * bits, defaults that fit */
static void check_operands(msgbuf *m, const vt_operand_desc *ops, size_t nops) {
  for (size_t k = 0; k < nops; k++) {
    const vt_operand_desc *op = &ops[k];
    uint64_t seen = 0;
    int width = 0;
    if (op->nfields == 0 || op->nfields > 4)
      report(m, "operand '%s': %u bit fields (1 to 4 allowed)", op->name, op->nfields);
    for (unsigned i = 0; i < op->nfields && i < 4; i++) {
      unsigned hi = op->fields[i].hi, lo = op->fields[i].lo;
      if (hi > 63 || lo > hi) {
        report(m, "operand '%s': bit range %u:%u does not fit a 64-bit instruction", op->name,
               hi, lo);
        continue;
      }
      uint64_t bits = range_bits(hi, lo);
      if (seen & bits) report(m, "operand '%s': bit range %u:%u used twice", op->name, hi, lo);
      seen |= bits;
      width += (int)(hi - lo + 1);
    }
    if (width > 31) report(m, "operand '%s': %d bits is too wide", op->name, width);
    if (op->flags & VT_OPF_OPTIONAL) {
      int64_t v = op->default_value;
      int64_t lim = (int64_t)1 << width;
      if (v < 0 || v >= lim)
        report(m, "operand '%s': default %ld does not fit its %d-bit field", op->name, (long)v,
               width);
    }
  }
}

/* one row: match inside mask, opcode fixed, the length rule, its syntax,
 * every bit fixed or in exactly one operand */
static void check_row(msgbuf *m, const vt_raw_insn *a, const vt_operand_desc *ops, size_t nops) {
  char tmpl[128], msg[256];
  uint8_t ids[VT_MAX_OPERANDS], nids = 0;
  unsigned len = row_length(a);
  int hex = len == 8 ? 16 : 8;
  uint64_t word = len == 8 ? ~0ull : 0xffffffffull;
  if ((a->match & ~a->mask) != 0)
    report(m, "'%s' (%s): match 0x%0*llx has bits outside mask 0x%0*llx", a->mnemonic, a->id,
           hex, (unsigned long long)a->match, hex, (unsigned long long)a->mask);
  if ((a->mask & 0x7f) != 0x7f)
    report(m, "'%s' (%s): mask does not fix the opcode (bits 6:0)", a->mnemonic, a->id);
  if (len == 4 && ((a->match | a->mask) >> 32) != 0)
    report(m, "'%s' (%s): bits above 31 in a 32-bit row (64-bit rows have opcode 0x3f)",
           a->mnemonic, a->id);
  if (vt_isa_compile_syntax(a->syntax, ops, nops, tmpl, sizeof tmpl, ids, &nids, msg,
                            sizeof msg) != 0) {
    report(m, "'%s' (%s): %s", a->mnemonic, a->id, msg);
    return;
  }
  uint64_t covered = a->mask & word;
  for (uint8_t j = 0; j < nids; j++) {
    uint64_t bits = field_bits(&ops[ids[j]]);
    if (bits & ~word)
      report(m, "'%s' (%s): operand '%s' lies outside the %u-byte instruction", a->mnemonic,
             a->id, ops[ids[j]].name, len);
    else if (bits & a->mask)
      report(m, "'%s' (%s): operand '%s' overlaps fixed bits 0x%0*llx", a->mnemonic, a->id,
             ops[ids[j]].name, hex, (unsigned long long)(bits & a->mask));
    else if (bits & covered & ~a->mask)
      report(m, "'%s' (%s): operand '%s' shares bits 0x%0*llx with another operand", a->mnemonic,
             a->id, ops[ids[j]].name, hex, (unsigned long long)(bits & covered & ~a->mask));
    covered |= bits & word;
  }
  if (covered != word)
    report(m, "'%s' (%s): bits 0x%0*llx are neither fixed nor part of an operand", a->mnemonic,
           a->id, hex, (unsigned long long)(~covered & word));
}

/* overlap: some instruction matches both rows; allowed only when one is a
 * declared superset containing the other, whose more fixed bits make the
 * decoder try it first */
static void check_overlaps(msgbuf *m, const vt_raw_insn *insns, size_t n) {
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) {
      const vt_raw_insn *a = &insns[i], *b = &insns[j];
      if (row_length(a) != row_length(b)) continue;
      uint64_t common = a->mask & b->mask;
      if (((a->match ^ b->match) & common) != 0) continue;
      const vt_raw_insn *sup = (a->sem.flags & VT_F_SUPERSET) ? a : b, *sub = sup == a ? b : a;
      bool contained = (sup->sem.flags & VT_F_SUPERSET) && !(sub->sem.flags & VT_F_SUPERSET) &&
                       (sub->mask & sup->mask) == sup->mask && sub->mask != sup->mask &&
                       (sub->match & sup->mask) == sup->match;
      if (contained) continue;
      int hex = row_length(a) == 8 ? 16 : 8;
      report(m, "'%s' (%s) and '%s' (%s) overlap: word 0x%0*llx matches both", a->mnemonic,
             a->id, b->mnemonic, b->id, hex, (unsigned long long)(a->match | b->match));
    }
}

int vt_isa_check_table(const vt_raw_insn *insns, size_t n, const vt_operand_desc *ops,
                       size_t nops, char *err, size_t errn) {
  msgbuf m = {err, errn, 0, 0};
  if (err && errn) err[0] = 0;
  check_operands(&m, ops, nops);
  for (size_t i = 0; i < n; i++) check_row(&m, &insns[i], ops, nops);
  check_overlaps(&m, insns, n);
  return m.count;
}
