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

static uint32_t field_bits(const vt_operand_desc *op) {
  uint32_t bits = 0;
  for (unsigned i = 0; i < op->nfields; i++) {
    unsigned hi = op->fields[i].hi, lo = op->fields[i].lo;
    if (hi > 31 || lo > hi) continue;
    uint32_t w = hi - lo + 1;
    bits |= (w == 32 ? 0xffffffffu : ((1u << w) - 1u)) << lo;
  }
  return bits;
}

static int is_ident_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
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
      for (k = 0; k < nops; k++)
        if (strlen(ops[k].name) == len && memcmp(ops[k].name, s, len) == 0) break;
      if (k == nops) {
        /* only register names may be literal words ("v0" of vmerge) */
        if (vt_parse_vreg(s, len) < 0 && vt_parse_xreg(s, len, false) < 0) {
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
  /* optional operands must come last, each after ", " */
  for (uint8_t j = 0; j < n; j++)
    if ((ops[opids[j]].flags & VT_OPF_OPTIONAL) && j + 1 < n &&
        !(ops[opids[j + 1]].flags & VT_OPF_OPTIONAL)) {
      snprintf(err, errn, "syntax \"%s\": optional operand '%s' is not last", syntax,
               ops[opids[j]].name);
      return -1;
    }
  return 0;
too_long:
  snprintf(err, errn, "syntax \"%s\" is too long", syntax);
  return -1;
}

int vt_isa_check_table(const vt_raw_insn *insns, size_t n, const vt_operand_desc *ops,
                       size_t nops, char *err, size_t errn) {
  msgbuf m = {err, errn, 0, 0};
  if (err && errn) err[0] = 0;

  for (size_t k = 0; k < nops; k++) {
    const vt_operand_desc *op = &ops[k];
    uint32_t seen = 0;
    int width = 0;
    if (op->nfields == 0 || op->nfields > 4)
      report(&m, "operand '%s': %u bit fields (1 to 4 allowed)", op->name, op->nfields);
    for (unsigned i = 0; i < op->nfields && i < 4; i++) {
      unsigned hi = op->fields[i].hi, lo = op->fields[i].lo;
      if (hi > 31 || lo > hi) {
        report(&m, "operand '%s': bit range %u:%u does not fit a 32-bit word", op->name, hi, lo);
        continue;
      }
      uint32_t w = hi - lo + 1;
      uint32_t bits = (w == 32 ? 0xffffffffu : ((1u << w) - 1u)) << lo;
      if (seen & bits) report(&m, "operand '%s': bit range %u:%u used twice", op->name, hi, lo);
      seen |= bits;
      width += (int)w;
    }
    if (width > 31) report(&m, "operand '%s': %d bits is too wide", op->name, width);
    if (op->flags & VT_OPF_OPTIONAL) {
      int64_t v = op->default_value;
      int64_t lim = (int64_t)1 << width;
      if (v < 0 || v >= lim)
        report(&m, "operand '%s': default %ld does not fit its %d-bit field", op->name, (long)v,
               width);
    }
  }

  for (size_t i = 0; i < n; i++) {
    const vt_raw_insn *a = &insns[i];
    char tmpl[128], msg[256];
    uint8_t ids[VT_MAX_OPERANDS], nids = 0;
    if ((a->match & ~a->mask) != 0)
      report(&m, "'%s' (%s): match 0x%08x has bits outside mask 0x%08x", a->mnemonic, a->id,
             a->match, a->mask);
    if (vt_isa_compile_syntax(a->syntax, ops, nops, tmpl, sizeof tmpl, ids, &nids, msg,
                              sizeof msg) != 0) {
      report(&m, "'%s' (%s): %s", a->mnemonic, a->id, msg);
      continue;
    }
    uint32_t covered = a->mask;
    for (uint8_t j = 0; j < nids; j++) {
      uint32_t bits = field_bits(&ops[ids[j]]);
      if (bits & a->mask)
        report(&m, "'%s' (%s): operand '%s' overlaps fixed bits 0x%08x", a->mnemonic, a->id,
               ops[ids[j]].name, bits & a->mask);
      else if (bits & covered & ~a->mask)
        report(&m, "'%s' (%s): operand '%s' shares bits 0x%08x with another operand",
               a->mnemonic, a->id, ops[ids[j]].name, bits & covered & ~a->mask);
      covered |= bits;
    }
    if (covered != 0xffffffffu)
      report(&m, "'%s' (%s): bits 0x%08x are neither fixed nor part of an operand", a->mnemonic,
             a->id, ~covered);
  }

  /* overlap: some word matches both entries */
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) {
      const vt_raw_insn *a = &insns[i], *b = &insns[j];
      uint32_t common = a->mask & b->mask;
      if (((a->match ^ b->match) & common) == 0) {
        uint32_t w = a->match | b->match;
        report(&m, "'%s' (%s) and '%s' (%s) overlap: word 0x%08x matches both", a->mnemonic,
               a->id, b->mnemonic, b->id, w);
      }
    }
  return m.count;
}
