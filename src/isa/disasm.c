/* Table-driven disassembler producing llvm-objdump's text for one 32-bit
 * word or one 64-bit instruction (isa2025.md 5.3). Words are handled as
 * 64-bit values throughout; a 32-bit instruction has nothing above bit 31. */
#include <stdio.h>
#include <string.h>

#include "isa_tables.h"

typedef struct out {
  char *buf;
  size_t size, len;
} out;

static void put(out *o, const char *s, size_t n) {
  if (o->len < o->size) {
    size_t room = o->size - o->len - 1;
    memcpy(o->buf + o->len, s, n < room ? n : room);
    o->buf[o->len + (n < room ? n : room)] = 0;
  }
  o->len += n;
}
static void puts_(out *o, const char *s) { put(o, s, strlen(s)); }

static bool alias_matches(const vt_alias_desc *a, uint64_t word) {
  for (unsigned k = 0; k < a->ncons; k++) {
    const vt_alias_constraint *c = &a->cons[k];
    int32_t v = vt_operand_get64((vt_operand_id)c->op, word);
    int32_t want = c->is_ref ? vt_operand_get64((vt_operand_id)c->value, word) : c->value;
    if (v != want) return false;
  }
  return true;
}

static void put_operand(out *o, vt_operand_id op, uint64_t word, uint32_t pc,
                        const vt_disasm_opts *opts) {
  const vt_operand_desc *d = vt_isa_operand(op);
  int32_t v = vt_operand_get64(op, word);
  char tmp[96];
  switch ((vt_operand_kind)d->kind) {
  case VT_OPK_XREG:
    if (v < 32) {
      puts_(o, vt_xreg_name((unsigned)v));
      return;
    }
    snprintf(tmp, sizeof tmp, "x%d", v); /* 8-bit fields: x32..x255 (isa2025.md 5.3) */
    break;
  case VT_OPK_XRAW:
    snprintf(tmp, sizeof tmp, "x%d", v);
    break;
  case VT_OPK_VREG:
    snprintf(tmp, sizeof tmp, "v%d", v);
    break;
  case VT_OPK_IMM:
    snprintf(tmp, sizeof tmp, "%d", v);
    break;
  case VT_OPK_PCREL: {
    uint32_t target = pc + (uint32_t)v;
    snprintf(tmp, sizeof tmp, "0x%x", target);
    puts_(o, tmp);
    if (opts && opts->symbolize) {
      uint32_t off = 0;
      const char *sym = opts->symbolize(opts->ctx, target, &off);
      if (sym) {
        puts_(o, " <");
        puts_(o, sym);
        if (off) {
          snprintf(tmp, sizeof tmp, "+0x%x", off);
          puts_(o, tmp);
        }
        puts_(o, ">");
      }
    }
    return;
  }
  case VT_OPK_CSR: {
    const char *name = vt_csr_name((unsigned)v);
    if (name && !(opts && opts->numeric_csr && vt_csr_is_ventus((unsigned)v))) {
      puts_(o, name);
      return;
    }
    snprintf(tmp, sizeof tmp, "%d", v);
    break;
  }
  case VT_OPK_RM: {
    const char *name = vt_rm_name((unsigned)v);
    if (name)
      puts_(o, name);
    else
      snprintf(tmp, sizeof tmp, "%d", v), puts_(o, tmp);
    return;
  }
  case VT_OPK_VM:
    puts_(o, "v0.t");
    return;
  case VT_OPK_VTYPE:
    vt_format_vtype((uint32_t)v, tmp, sizeof tmp);
    break;
  case VT_OPK_FENCE:
    vt_format_fence((uint32_t)v, tmp, sizeof tmp);
    break;
  case VT_OPK_MSPACE: {
    static const char *const spaces[4] = {"default", "global", "private", "local"};
    puts_(o, spaces[v & 3]);
    return;
  }
  case VT_OPK_MWIDTH:
    snprintf(tmp, sizeof tmp, "%d", 32 * (v + 1));
    break;
  }
  puts_(o, tmp);
}

/* Keyed operands (VT_OPF_KEY) print as "key=value" only when not at their
 * default; the ", " before an omitted one goes too, and the first printed
 * operand of the line gets no separator. */
static void render(out *o, const char *tmpl, uint64_t word, uint32_t pc,
                   const vt_disasm_opts *opts) {
  const char *pending = tmpl;
  size_t start = o->len;
  for (const char *p = tmpl; *p; p++) {
    unsigned char c = (unsigned char)*p;
    if (c < VT_TMPL_OP) continue;
    vt_operand_id op = (vt_operand_id)(c - VT_TMPL_OP);
    const vt_operand_desc *d = vt_isa_operand(op);
    bool at_default = vt_operand_get64(op, word) == d->default_value;
    if ((d->flags & VT_OPF_KEY)) {
      /* pending = [", "] "key=" */
      const char *key = p;
      while (key > pending && key[-1] != ' ' && key[-1] != ',') key--;
      if (at_default) {
        pending = p + 1;
        continue;
      }
      if (o->len > start) put(o, ", ", 2);
      put(o, key, (size_t)(p - key));
      put_operand(o, op, word, pc, opts);
      pending = p + 1;
      continue;
    }
    if ((d->flags & VT_OPF_OPTIONAL) && at_default) {
      /* drop only the ", " separator before the omitted operand: literal
       * text such as the ")" of "(rs1), vm" still belongs to the output */
      size_t lit = (size_t)(p - pending);
      while (lit && pending[lit - 1] == ' ') lit--;
      if (lit && pending[lit - 1] == ',') lit--;
      put(o, pending, lit);
      pending = p + 1;
      continue;
    }
    put(o, pending, (size_t)(p - pending));
    put_operand(o, op, word, pc, opts);
    pending = p + 1;
  }
  puts_(o, pending);
}

static int disasm_row(vt_insn_id id, uint64_t word, uint32_t pc, const vt_disasm_opts *opts,
                      char *buf, size_t n) {
  out o = {buf, n, 0};
  if (n) buf[0] = 0;
  if (id == VT_INSN_INVALID) {
    puts_(&o, "<unknown>");
    return (int)o.len;
  }
  const vt_insn_desc *d = vt_isa_insn(id);
  const char *mnemonic = d->mnemonic, *tmpl = d->tmpl;
  if (!vt_insn_pairs_even(id, word)) {
    /* an odd register where the row needs a pair: the text would not
     * assemble (isa2025.md 5.3), so print the raw word and, as a comment,
     * what it decodes to (the simulator rejects it at execution) */
    char tmp[40];
    bool group = false;
    for (unsigned k = 0; k < d->nops; k++) group |= vt_operand_group((vt_operand_id)d->ops[k]) > 1;
    if (d->length == 8)
      snprintf(tmp, sizeof tmp, ".insn\t8, 0x%016llx # ", (unsigned long long)word);
    else
      snprintf(tmp, sizeof tmp, ".insn\t4, 0x%08x # ", (uint32_t)word);
    puts_(&o, tmp);
    puts_(&o, mnemonic);
    char ops[256];
    out t = {ops, sizeof ops, 0};
    ops[0] = 0;
    render(&t, tmpl, word, pc, opts);
    puts_(&o, " ");
    puts_(&o, ops);
    puts_(&o, group ? " (misaligned register group)" : " (odd register pair)");
    return (int)o.len;
  }
  if (!(opts && opts->no_aliases)) {
    for (unsigned i = vt_isa_print_alias_start[id]; i < vt_isa_print_alias_start[id + 1]; i++) {
      const vt_alias_desc *a = &vt_isa_aliases_tbl[vt_isa_print_alias_list[i]];
      if (alias_matches(a, word)) {
        mnemonic = a->mnemonic;
        tmpl = a->tmpl;
        break;
      }
    }
  }
  puts_(&o, mnemonic);
  /* llvm-objdump prints no tab after an operand-less mnemonic; keyed
   * operands at their defaults may leave nothing to print */
  char ops[256];
  out t = {ops, sizeof ops, 0};
  ops[0] = 0;
  render(&t, tmpl, word, pc, opts);
  if (t.len) {
    puts_(&o, "\t");
    if (t.len < sizeof ops) {
      puts_(&o, ops);
    } else { /* a very long symbol name: render again into the output */
      render(&o, tmpl, word, pc, opts);
    }
  }
  return (int)o.len;
}

int vt_disasm(uint32_t word, uint32_t pc, const vt_disasm_opts *opts, char *buf, size_t n) {
  return disasm_row(vt_decode(word), word, pc, opts, buf, n);
}

int vt_disasm64(uint64_t insn, uint32_t pc, const vt_disasm_opts *opts, char *buf, size_t n) {
  return disasm_row(vt_decode64(insn), insn, pc, opts, buf, n);
}
