/* Instruction statements, driven entirely by the instruction table's
 * syntax templates: every candidate (instructions and AL_ASM aliases with
 * the mnemonic) is tried in table order; the first whose template matches
 * the operand text is encoded. When none matches, the error of the
 * candidate that got furthest is reported. */
#include <stdio.h>
#include <string.h>

#include "asm_internal.h"

typedef struct match {
  insn_operand ops[VT_OP_COUNT];
  uint64_t present[2]; /* bit per operand id */
} match;
_Static_assert(VT_OP_COUNT <= 128, "match.present has one bit per operand id");
static inline bool has_op(const match *m, unsigned op) { return (m->present[op >> 6] >> (op & 63)) & 1; }
static inline void mark_op(match *m, unsigned op) { m->present[op >> 6] |= (uint64_t)1 << (op & 63); }

/* x32..x255 / v32..v255: registers reached through a regext prefix
 * (isa.md 2.6), which emit_insn inserts. */
static int parse_ext_reg(const char *s, size_t n, char kind) {
  if (n < 3 || n > 4 || s[0] != kind || s[1] < '1' || s[1] > '9') return -1;
  int v = 0;
  for (size_t i = 1; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v >= 32 && v <= 255 ? v : -1;
}

/* Register name at the cursor; returns the number or -1 (with a quiet or
 * loud error depending on as->quiet). kind: 'x' or 'v'. */
static int parse_reg(vt_asm *as, cursor *c, char kind, bool fnames) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  size_t n = scan_ident(c->s);
  if (!n) {
    asm_error(as, col, "expected a %s register", kind == 'v' ? "vector" : "scalar");
    return -1;
  }
  int r = kind == 'v' ? vt_parse_vreg(c->s, n) : vt_parse_xreg(c->s, n, fnames);
  if (r < 0) r = parse_ext_reg(c->s, n, kind);
  if (r < 0) {
    asm_error(as, col, "bad register '%.*s' (expected a %s register)", (int)n, c->s,
              kind == 'v' ? "vector" : "scalar");
    return -1;
  }
  c->s += n;
  return r;
}

int parse_xreg_tok(vt_asm *as, cursor *c, bool fnames) {
  return parse_reg(as, c, 'x', fnames);
}

/* "(reg)" follows: the immediate before it was omitted */
static bool paren_reg_follows(const char *s) {
  if (*s != '(') return false;
  s++;
  while (*s == ' ' || *s == '\t') s++;
  size_t n = scan_ident(s);
  if (!n) return false;
  if (vt_parse_xreg(s, n, true) < 0 && vt_parse_vreg(s, n) < 0) return false;
  s += n;
  while (*s == ' ' || *s == '\t') s++;
  return *s == ')';
}

static void range_error(vt_asm *as, uint32_t col, vt_operand_id op, int64_t v, const char *what) {
  int64_t lo, hi;
  vt_operand_range(op, &lo, &hi);
  const vt_operand_desc *d = vt_isa_operand(op);
  if ((d->flags & VT_OPF_SHIFT1) && (v & 1) && v >= lo && v <= hi)
    asm_error(as, col, "misaligned %s: offset %lld is odd", what, (long long)v);
  else
    asm_error(as, col, "%s %lld out of range [%lld, %lld]%s", what, (long long)v, (long long)lo,
              (long long)hi, (d->flags & VT_OPF_SHIFT1) ? " (even)" : "");
}

static bool parse_vtype(vt_asm *as, cursor *c, vt_operand_id op, int64_t *out) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  if (c->s[0] == 'e' && c->s[1] >= '0' && c->s[1] <= '9') {
    size_t n = scan_ident(c->s);
    int sew = -1;
    static const char *const sews[4] = {"e8", "e16", "e32", "e64"};
    for (int i = 0; i < 4; i++)
      if (strlen(sews[i]) == n && !memcmp(sews[i], c->s, n)) sew = i;
    if (sew < 0) {
      asm_error(as, col, "bad element width '%.*s'", (int)n, c->s);
      return false;
    }
    c->s += n;
    int64_t v = sew << 3;
    static const struct {
      const char *name;
      int mask, val;
    } parts[] = {{"m1", 7, 0},    {"m2", 7, 1},    {"m4", 7, 2},    {"m8", 7, 3},
                 {"mf8", 7, 5},   {"mf4", 7, 6},   {"mf2", 7, 7},   {"tu", 0x40, 0},
                 {"ta", 0x40, 0x40}, {"mu", 0x80, 0}, {"ma", 0x80, 0x80}};
    for (;;) {
      cursor t = *c;
      skip_ws(&t);
      if (*t.s != ',') break;
      t.s++;
      skip_ws(&t);
      size_t m = scan_ident(t.s);
      size_t i;
      for (i = 0; i < sizeof parts / sizeof parts[0]; i++)
        if (strlen(parts[i].name) == m && !memcmp(parts[i].name, t.s, m)) break;
      if (i == sizeof parts / sizeof parts[0]) {
        asm_error(as, cur_col(&t), "bad vtype field '%.*s'", (int)(m ? m : 1), t.s);
        return false;
      }
      v = (v & ~(int64_t)parts[i].mask) | parts[i].val;
      t.s += m;
      *c = t;
    }
    *out = v;
    return true;
  }
  aval a;
  if (!parse_expr_plain(as, c, &a)) return false;
  if (!aval_is_const(&a)) {
    asm_error(as, col, "vtype must be a constant");
    return false;
  }
  if (!vt_operand_fits(op, a.k)) {
    range_error(as, col, op, a.k, "vtype");
    return false;
  }
  *out = a.k;
  return true;
}

/* An immediate or branch target: a constant, or a fixup for the linker
 * (relocation modifiers %hi/%lo/%pcrel_hi/%pcrel_lo). next: the template
 * character after the operand. */
static bool parse_imm_operand(vt_asm *as, cursor *c, vt_operand_id op, char next, uint32_t col,
                              insn_operand *o) {
  const vt_operand_desc *d = vt_isa_operand(op);
  if (next == '(' && paren_reg_follows(c->s)) {
    o->value = 0;
    return true;
  }
  aval v;
  expr_mod mod;
  if (!parse_expr(as, c, &v, &mod)) return false;
  bool pcrel = d->kind == VT_OPK_PCREL;
  if (pcrel && mod != MOD_NONE) {
    asm_error(as, col, "relocation modifier not allowed for a branch or jump target");
    return false;
  }
  if (pcrel) { /* always resolved by the linker: the pc is not known yet */
    o->fixup = true;
    o->kind = FX_OP;
    o->v = v;
    return true;
  }
  if (mod == MOD_HI && aval_is_const(&v)) {
    v.k = (int64_t)((((uint64_t)v.k + 0x800u) >> 12) & 0xfffffu);
    mod = MOD_NONE;
  } else if (mod == MOD_LO && aval_is_const(&v)) {
    v.k = (int64_t)(int32_t)((uint32_t)v.k << 20) >> 20;
    mod = MOD_NONE;
  }
  if (mod == MOD_PCREL_LO && (!v.add || v.sub)) {
    asm_error(as, col, "%%pcrel_lo needs the label of an auipc carrying %%pcrel_hi");
    return false;
  }
  if (mod == MOD_NONE && aval_is_const(&v)) {
    if (!vt_operand_fits(op, v.k)) {
      range_error(as, col, op, v.k, "immediate");
      return false;
    }
    o->value = v.k;
    return true;
  }
  o->fixup = true;
  o->v = v;
  o->kind = mod == MOD_HI         ? FX_HI
            : mod == MOD_LO       ? FX_LO
            : mod == MOD_PCREL_HI ? FX_PCREL_HI
            : mod == MOD_PCREL_LO ? FX_PCREL_LO
                                  : FX_OP;
  return true;
}

/* a CSR by name or number */
static bool parse_csr_operand(vt_asm *as, cursor *c, vt_operand_id op, uint32_t col,
                              insn_operand *o) {
  size_t n = scan_ident(c->s);
  if (n) {
    int r = vt_parse_csr(c->s, n);
    if (r < 0) {
      asm_error(as, col, "unknown CSR '%.*s'", (int)n, c->s);
      return false;
    }
    c->s += n;
    o->value = r;
    return true;
  }
  aval v;
  if (!parse_expr_plain(as, c, &v)) return false;
  if (!aval_is_const(&v)) {
    asm_error(as, col, "CSR number must be a constant");
    return false;
  }
  if (!vt_operand_fits(op, v.k)) {
    range_error(as, col, op, v.k, "CSR number");
    return false;
  }
  o->value = v.k;
  return true;
}

/* a rounding mode by name, or a reserved one (5, 6) by number */
static bool parse_rm_operand(vt_asm *as, cursor *c, uint32_t col, insn_operand *o) {
  size_t n = scan_ident(c->s);
  int r;
  for (r = 0; r < 8; r++) {
    const char *nm = vt_rm_name((unsigned)r);
    if (nm && strlen(nm) == n && !memcmp(nm, c->s, n)) break;
  }
  if (r == 8 && n == 0 && c->s[0] >= '0' && c->s[0] <= '7' && !is_ident_char(c->s[1])) {
    r = c->s[0] - '0'; /* reserved modes 5 and 6 print as numbers */
    n = 1;
  }
  if (r == 8) {
    asm_error(as, col, "bad rounding mode '%.*s'", (int)(n ? n : 1), c->s);
    return false;
  }
  c->s += n;
  o->value = r;
  return true;
}

/* one of 'count' names (the operand's value is its index); the error is
 * "bad WHAT 'TEXT' HINT" */
static bool parse_named_operand(vt_asm *as, cursor *c, uint32_t col, const char *const *names,
                                int count, const char *what, const char *hint, insn_operand *o) {
  size_t n = scan_ident(c->s);
  int r;
  for (r = 0; r < count; r++)
    if (strlen(names[r]) == n && !memcmp(names[r], c->s, n)) break;
  if (r == count) {
    asm_error(as, col, "bad %s '%.*s' %s", what, (int)(n ? n : 1), c->s, hint);
    return false;
  }
  c->s += n;
  o->value = r;
  return true;
}

/* a fence set: letters of iorw, or 0 */
static bool parse_fence_operand(vt_asm *as, cursor *c, uint32_t col, insn_operand *o) {
  size_t n = scan_ident(c->s);
  int v = 0;
  if (n == 0 && *c->s == '0') {
    n = 1;
  } else {
    for (size_t i = 0; i < n; i++) {
      int bit = c->s[i] == 'i' ? 8 : c->s[i] == 'o' ? 4 : c->s[i] == 'r' ? 2 : c->s[i] == 'w' ? 1 : 0;
      if (!bit || (v & bit)) {
        v = -1;
        break;
      }
      v |= bit;
    }
    if (n == 0 || v < 0) {
      asm_error(as, col, "bad fence set '%.*s' (use letters of iorw)", (int)(n ? n : 1), c->s);
      return false;
    }
  }
  c->s += n;
  o->value = v;
  return true;
}

/* a memory-access width: 32, 64, 96 or 128 (field 0..3) */
static bool parse_width_operand(vt_asm *as, cursor *c, uint32_t col, insn_operand *o) {
  aval v;
  if (!parse_expr_plain(as, c, &v)) return false;
  if (!aval_is_const(&v) || (v.k != 32 && v.k != 64 && v.k != 96 && v.k != 128)) {
    asm_error(as, col, "width must be 32, 64, 96 or 128");
    return false;
  }
  o->value = v.k / 32 - 1;
  return true;
}

/* Parse one operand of the template into m. next: the template character
 * after the operand. */
static bool parse_operand(vt_asm *as, cursor *c, vt_operand_id op, char next, bool fnames,
                          match *m) {
  static const char *const spaces[4] = {"default", "global", "private", "local"};
  const vt_operand_desc *d = vt_isa_operand(op);
  insn_operand *o = &m->ops[op];
  o->fixup = false;
  o->v.add = o->v.sub = NULL;
  skip_ws(c);
  o->col = cur_col(c);
  uint32_t col = o->col;
  bool ok = true;
  switch ((vt_operand_kind)d->kind) {
  case VT_OPK_XREG:
  case VT_OPK_XRAW:
  case VT_OPK_VREG: {
    /* x32..x255: 8-bit fields of 64-bit instructions hold them; in 5-bit
     * fields emit_insn extends them with a regext prefix where it can */
    char kind = d->kind == VT_OPK_VREG ? 'v' : 'x';
    int r = parse_reg(as, c, kind, kind == 'x' && fnames);
    ok = r >= 0;
    o->value = r;
    break;
  }
  case VT_OPK_IMM:
  case VT_OPK_PCREL: ok = parse_imm_operand(as, c, op, next, col, o); break;
  case VT_OPK_CSR: ok = parse_csr_operand(as, c, op, col, o); break;
  case VT_OPK_RM: ok = parse_rm_operand(as, c, col, o); break;
  case VT_OPK_VM:
    if (scan_ident(c->s) != 4 || memcmp(c->s, "v0.t", 4) != 0) {
      asm_error(as, col, "expected the mask operand 'v0.t'");
      return false;
    }
    c->s += 4;
    o->value = 0;
    break;
  case VT_OPK_VTYPE: ok = parse_vtype(as, c, op, &o->value); break;
  case VT_OPK_MSPACE:
    ok = parse_named_operand(as, c, col, spaces, 4, "space", "(default, global, private or local)", o);
    break;
  case VT_OPK_MWIDTH: ok = parse_width_operand(as, c, col, o); break;
  case VT_OPK_FENCE: ok = parse_fence_operand(as, c, col, o); break;
  }
  if (!ok) return false;
  mark_op(m, op);
  return true;
}

/* The rest of the template is only ", " separators and optional operands. */
static bool rest_optional(const char *t) {
  for (; *t; t++) {
    unsigned char ch = (unsigned char)*t;
    if (ch >= VT_TMPL_OP) {
      if (!(vt_isa_operand((vt_operand_id)(ch - VT_TMPL_OP))->flags & VT_OPF_OPTIONAL)) return false;
    } else if (ch != ',' && ch != ' ') {
      return false;
    }
  }
  return true;
}

static bool is_key_op(unsigned char ch) {
  return ch >= VT_TMPL_OP &&
         (vt_isa_operand((vt_operand_id)(ch - VT_TMPL_OP))->flags & VT_OPF_KEY);
}

/* Where the keyed operands of a template begin (at the ", " before the first
 * "key="), or NULL. vt_isa_compile_syntax puts them last. */
static const char *keyed_tail(const char *tmpl) {
  const char *p = tmpl;
  while (*p && !is_key_op((unsigned char)*p)) p++;
  if (!*p) return NULL;
  while (p > tmpl && p[-1] != ',' && p[-1] != ' ') p--; /* the key */
  while (p > tmpl && (p[-1] == ',' || p[-1] == ' ')) p--;  /* the separator */
  return p;
}

/* "key=value, ..." in any order, each key at most once, omitted keys at
 * their defaults (filled by encode). tail starts at the keyed part of the
 * template; a ',' is needed before the first item when positional operands
 * precede it. */
static bool parse_keyed(vt_asm *as, cursor *c, const char *tail, bool fnames, match *m) {
  struct {
    const char *key;
    size_t len;
    vt_operand_id op;
  } keys[VT_MAX_OPERANDS];
  size_t nk = 0;
  for (const char *p = tail; *p; p++)
    if (is_key_op((unsigned char)*p) && nk < VT_MAX_OPERANDS) {
      const char *k = p - 1; /* the '=' */
      while (k > tail && k[-1] != ',' && k[-1] != ' ') k--;
      keys[nk].key = k;
      keys[nk].len = (size_t)(p - 1 - k);
      keys[nk].op = (vt_operand_id)((unsigned char)*p - VT_TMPL_OP);
      nk++;
    }
  bool need_comma = tail[0] == ',' || tail[0] == ' ';
  for (;;) {
    skip_ws(c);
    if (at_end(c)) return true;
    if (need_comma) {
      if (*c->s != ',') {
        asm_error(as, cur_col(c), "expected ','");
        return false;
      }
      c->s++;
      skip_ws(c);
    }
    need_comma = true;
    uint32_t col = cur_col(c);
    size_t n = scan_ident(c->s);
    size_t i;
    for (i = 0; i < nk; i++)
      if (keys[i].len == n && !memcmp(keys[i].key, c->s, n)) break;
    if (i == nk) {
      char list[128] = "";
      for (size_t j = 0; j < nk; j++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.*s", j ? ", " : "",
                 (int)keys[j].len, keys[j].key);
      asm_error(as, col, "expected key=value with a key of: %s", list);
      return false;
    }
    if (has_op(m, keys[i].op)) {
      asm_error(as, col, "key '%.*s' given twice", (int)n, c->s);
      return false;
    }
    c->s += n;
    skip_ws(c);
    if (*c->s != '=') {
      asm_error(as, cur_col(c), "expected '=' after '%.*s'", (int)keys[i].len, keys[i].key);
      return false;
    }
    c->s++;
    if (!parse_operand(as, c, keys[i].op, 0, fnames, m)) return false;
  }
}

/* A literal register word of the template ("zero" of regext, "v0" of
 * vmerge) matches any name of that register (x0, zero). t is at the word. */
static bool literal_register(vt_asm *as, const char **t, cursor *c) {
  size_t tn = 0;
  while (is_ident_char((*t)[tn])) tn++;
  int want = vt_parse_xreg(*t, tn, false);
  char kind = 'x';
  if (want < 0) {
    want = vt_parse_vreg(*t, tn);
    kind = 'v';
  }
  skip_ws(c);
  uint32_t col = cur_col(c);
  size_t n = scan_ident(c->s);
  int got = kind == 'x' ? vt_parse_xreg(c->s, n, false) : vt_parse_vreg(c->s, n);
  if (got != want) {
    asm_error(as, col, "expected '%.*s'", (int)tn, *t);
    return false;
  }
  c->s += n;
  *t += tn - 1;
  return true;
}

/* A literal number of the template (the copy size of cp_dma) matches a
 * constant expression of that value. t is at its first digit. */
static bool literal_number(vt_asm *as, const char **t, cursor *c) {
  size_t tn = 0;
  int64_t want = 0;
  while ((*t)[tn] >= '0' && (*t)[tn] <= '9') want = want * 10 + ((*t)[tn++] - '0');
  skip_ws(c);
  uint32_t col = cur_col(c);
  aval v;
  bool had = as->qhas;
  as->quiet++;
  bool ok = parse_expr_plain(as, c, &v);
  as->quiet--;
  if (!ok || !aval_is_const(&v) || v.k != want) {
    as->qhas = had; /* report the literal, not the expression's own error */
    asm_error(as, col, "expected %.*s", (int)tn, *t);
    return false;
  }
  *t += tn - 1;
  return true;
}

/* Try one template; true on success (m filled, c advanced to the end). */
static bool try_template(vt_asm *as, const char *tmpl, cursor *c, bool fnames, match *m) {
  m->present[0] = m->present[1] = 0;
  const char *keyed = keyed_tail(tmpl);
  for (const char *t = tmpl; *t; t++) {
    unsigned char ch = (unsigned char)*t;
    if (t == keyed) return parse_keyed(as, c, t, fnames, m);
    cursor probe = *c;
    skip_ws(&probe);
    if (at_end(&probe) && rest_optional(t)) {
      *c = probe;
      return true;
    }
    if (ch >= VT_TMPL_OP) {
      if (!parse_operand(as, c, (vt_operand_id)(ch - VT_TMPL_OP), t[1], fnames, m)) return false;
    } else if (ch == ' ') {
      skip_ws(c);
    } else if (is_ident_start((char)ch) && (t == tmpl || !is_ident_char(t[-1]))) {
      if (!literal_register(as, &t, c)) return false;
    } else if (ch >= '0' && ch <= '9' && (t == tmpl || !is_ident_char(t[-1]))) {
      if (!literal_number(as, &t, c)) return false;
    } else {
      skip_ws(c);
      if (*c->s != (char)ch) {
        if (at_end(c))
          asm_error(as, cur_col(c), "missing operand (expected '%c')", ch);
        else
          asm_error(as, cur_col(c), "expected '%c'", ch);
        return false;
      }
      c->s++;
    }
  }
  skip_ws(c);
  if (!at_end(c)) {
    asm_error(as, cur_col(c), "unexpected '%s' after the operands", c->s);
    return false;
  }
  return true;
}

/* The regext slot of a register operand (isa.md 2.6: 0 = rd/vd, 1 = rs1,
 * 2 = rs2, 3 = rs3; the store data vs3 of standard vector stores, encoded in
 * the rd field, takes the rs3 slot), or -1 when it cannot be extended. */
static int regext_slot(const vt_insn_desc *d, vt_operand_id op) {
  if (op == VT_OP_VS3 || op == VT_OP_XS3) return 3; /* DMA rs3 too (isa2025.md 3.0) */
  if ((d->flags & VT_F_FSCALAR) && op == VT_OP_RS1) return -1; /* raw f[rs1] */
  if (d->exec_class == VT_EX_VSET || d->exec_class == VT_EX_REGEXT) return -1;
  const vt_operand_desc *od = vt_isa_operand(op);
  if (od->nfields != 1) return -1;
  switch (od->fields[0].lo) {
  case 7: return 0;
  case 15: return 1;
  case 20: return 2;
  case 27: return 3;
  default: return -1;
  }
}

/* The regext immediate the operands need (0: none); -1 after an error. */
static int regext_imm(vt_asm *as, const vt_insn_desc *d, const insn_operand *ops) {
  int imm = 0;
  for (unsigned i = 0; i < d->nops; i++) {
    vt_operand_id op = (vt_operand_id)d->ops[i];
    uint8_t kind = vt_isa_operand(op)->kind;
    if (kind != VT_OPK_XREG && kind != VT_OPK_VREG && kind != VT_OPK_XRAW) continue;
    int64_t r = ops[op].value;
    if (ops[op].fixup || r < 32) continue;
    int slot = regext_slot(d, op);
    if (slot < 0 || r > 255) {
      asm_error(as, ops[op].col, "register %c%lld cannot be used here (no register extension "
                "for this operand of '%s')", kind == VT_OPK_VREG ? 'v' : 'x', (long long)r,
                d->mnemonic);
      return -1;
    }
    imm |= (int)((r >> 5) & 7) << (3 * slot);
  }
  return imm;
}

/* A 64-bit instruction (isa2025.md D1): constant operands only, emitted as
 * two parcels, low first; registers up to 255 fit its 8-bit fields. */
static uint32_t emit_insn64(vt_asm *as, const vt_insn_desc *d, const insn_operand *ops) {
  uint64_t w = d->match;
  uint32_t at = sec_pos(cur_sec(as));
  for (unsigned i = 0; i < d->nops; i++) {
    vt_operand_id op = (vt_operand_id)d->ops[i];
    if (ops[op].fixup) {
      asm_error(as, ops[op].col, "operands of a 64-bit instruction must be constants");
      return at;
    }
    if (!vt_operand_fits(op, ops[op].value)) {
      int64_t lo, hi;
      vt_operand_range(op, &lo, &hi);
      asm_error(as, ops[op].col, "%lld does not fit this field of '%s' (%lld..%lld)",
                (long long)ops[op].value, d->mnemonic, (long long)lo, (long long)hi);
      return at;
    }
    w = vt_operand_set64(op, w, (int32_t)ops[op].value);
  }
  if (emit_word(as, (uint32_t)w)) emit_word(as, (uint32_t)(w >> 32));
  return at;
}

uint32_t emit_insn(vt_asm *as, uint16_t id, const insn_operand *ops) {
  const vt_insn_desc *d = vt_isa_insn((vt_insn_id)id);
  if (d->length == 8) return emit_insn64(as, d, ops);
  uint32_t w = (uint32_t)d->match;
  int ext = regext_imm(as, d, ops);
  if (ext > 0) { /* the prefix applies to exactly the next instruction */
    const vt_insn_desc *rx = vt_isa_insn(VT_INSN_REGEXT);
    emit_word(as, vt_operand_set(VT_OP_UIMM12, (uint32_t)rx->match, ext));
  }
  uint32_t at = sec_pos(cur_sec(as));
  for (unsigned i = 0; i < d->nops; i++) {
    vt_operand_id op = (vt_operand_id)d->ops[i];
    const insn_operand *o = &ops[op];
    if (o->fixup) {
      afix *x = add_fix(as, (fx_kind)o->kind, (uint8_t)op, &o->v, o->col);
      if (x) x->hi_off = o->hi_off;
    } else {
      int32_t v = (int32_t)o->value;
      uint8_t kind = vt_isa_operand(op)->kind;
      if ((kind == VT_OPK_XREG || kind == VT_OPK_VREG || kind == VT_OPK_XRAW) && v >= 32) v &= 31;
      w = vt_operand_set(op, w, v);
    }
  }
  emit_word(as, w);
  return at;
}

/* isa2025.md 5.3: registers the row marks as pairs (VT_F_PRD/PRS1/PRS2/PRS3,
 * by field position) must be even. */
static bool pairs_even(vt_asm *as, const vt_insn_desc *d, const match *m) {
  /* register groups (MMA fragments, isa2025.md 3.6.4 and 5.3) */
  for (unsigned i = 0; i < d->nops; i++) {
    unsigned n = vt_operand_group((vt_operand_id)d->ops[i]);
    const insn_operand *o = &m->ops[d->ops[i]];
    if (n > 1 && (o->value & 1)) {
      asm_error(as, o->col, "a group of %u registers must start at an even register: v%lld is odd",
                n, (long long)o->value);
      return false;
    }
    if (n > 1 && o->value + n - 1 > 255) {
      asm_error(as, o->col, "the group v%lld..v%lld of %u registers passes v255",
                (long long)o->value, (long long)o->value + n - 1, n);
      return false;
    }
  }
  static const struct {
    uint32_t flag;
    uint8_t lo;
    const char *field;
  } pf[4] = {{VT_F_PRD, 7, "rd"}, {VT_F_PRS1, 15, "rs1"}, {VT_F_PRS2, 20, "rs2"},
             {VT_F_PRS3, 27, "rs3"}};
  for (unsigned i = 0; i < d->nops; i++) {
    const vt_operand_desc *od = vt_isa_operand((vt_operand_id)d->ops[i]);
    if (od->kind != VT_OPK_XREG && od->kind != VT_OPK_XRAW && od->kind != VT_OPK_VREG) continue;
    for (int k = 0; k < 4; k++) {
      const insn_operand *o = &m->ops[d->ops[i]];
      if ((d->flags & pf[k].flag) && od->fields[0].lo == pf[k].lo && (o->value & 1)) {
        asm_error(as, o->col, "%s of %s is a register pair: %c%lld is odd", pf[k].field,
                  d->mnemonic, od->kind == VT_OPK_VREG ? 'v' : 'x', (long long)o->value);
        return false;
      }
    }
  }
  return true;
}

/* A declared superset row (prefix, prefixi) whose operands give a word of
 * the more specific row it contains (regext, regexti) is written as that
 * row (isa2025.md 3.5.1: prefix needs a modifier). */
static bool not_a_subset_word(vt_asm *as, uint16_t insn, const match *m) {
  const vt_insn_desc *d = vt_isa_insn((vt_insn_id)insn);
  if (!(d->flags & VT_F_SUPERSET)) return true;
  uint32_t w = (uint32_t)d->match;
  for (unsigned i = 0; i < d->nops; i++)
    w = vt_operand_set((vt_operand_id)d->ops[i], w, (int32_t)m->ops[d->ops[i]].value);
  vt_insn_id got = vt_decode(w);
  if (got == (vt_insn_id)insn) return true;
  char text[96];
  vt_disasm(w, 0, NULL, text, sizeof text);
  for (char *p = text; *p; p++)
    if (*p == '\t') *p = ' ';
  asm_error(as, 1, "these operands give the word 0x%08x of another instruction: write '%s'", w,
            text);
  return false;
}

/* Fill defaults of omitted operands and apply alias constraints, then emit. */
static void encode(vt_asm *as, uint16_t insn, const vt_alias_desc *a, match *m) {
  const vt_insn_desc *d = vt_isa_insn((vt_insn_id)insn);
  if (a)
    for (unsigned k = 0; k < a->ncons; k++) {
      const vt_alias_constraint *cn = &a->cons[k];
      insn_operand *o = &m->ops[cn->op];
      if (cn->is_ref) {
        *o = m->ops[cn->value];
      } else {
        o->value = cn->value;
        o->fixup = false;
      }
      mark_op(m, cn->op);
    }
  for (unsigned i = 0; i < d->nops; i++) {
    unsigned op = d->ops[i];
    if (!has_op(m, op)) {
      m->ops[op].value = vt_isa_operand((vt_operand_id)op)->default_value;
      m->ops[op].fixup = false;
    }
  }
  if (!pairs_even(as, d, m) || !not_a_subset_word(as, insn, m)) return;
  emit_insn(as, insn, m->ops);
}

static bool fp_names(const char *mn, size_t n) {
  return (n >= 1 && mn[0] == 'f') || (n >= 2 && mn[0] == 'v' && mn[1] == 'f') ||
         (n >= 3 && mn[0] == 'v' && mn[1] == 'm' && mn[2] == 'f');
}

/* Forms of one mnemonic that fail at the same column with "expected X"
 * (literal numbers: the sizes of cp_dma) are reported together:
 * "expected 4, 8 or 16". */
static void merge_expected(char *best, size_t n, const char *msg) {
  static const char ex[] = "expected ";
  const size_t k = sizeof ex - 1;
  if (strncmp(best, ex, k) || strncmp(msg, ex, k) || !strcmp(best, msg)) return;
  char tmp[512];
  const char *or_ = strstr(best, " or ");
  if (or_)
    snprintf(tmp, sizeof tmp, "%.*s, %s or %s", (int)(or_ - best), best, or_ + 4, msg + k);
  else
    snprintf(tmp, sizeof tmp, "%s or %s", best, msg + k);
  size_t len = strlen(tmp);
  if (len >= n) len = n - 1;
  memcpy(best, tmp, len);
  best[len] = 0;
}

void asm_instruction(vt_asm *as, const char *mn, size_t mlen, uint32_t mcol, cursor *c) {
  if (asm_pseudo(as, mn, mlen, mcol, c)) return;
  uint16_t insns[16], aliases[32];
  size_t ni = vt_isa_find_insns(mn, mlen, insns, 16);
  size_t na = vt_isa_find_aliases(mn, mlen, aliases, 32);
  if (ni > 16) ni = 16;
  if (na > 32) na = 32;
  bool fn = fp_names(mn, mlen);
  match m;
  uint32_t best_col = 0;
  char best_msg[sizeof as->qmsg] = "";
  bool any = false;
  for (size_t i = 0; i < ni + na; i++) {
    const vt_alias_desc *a = NULL;
    const char *tmpl;
    uint16_t insn;
    if (i < ni) {
      insn = insns[i];
      tmpl = vt_isa_insn((vt_insn_id)insn)->tmpl;
    } else {
      a = vt_isa_alias(aliases[i - ni]);
      if (!(a->flags & VT_AL_ASM)) continue;
      insn = a->insn;
      tmpl = a->tmpl;
    }
    any = true;
    cursor t = *c;
    as->quiet++;
    as->qhas = false;
    bool ok = try_template(as, tmpl, &t, fn, &m);
    as->quiet--;
    if (ok) {
      encode(as, insn, a, &m);
      return;
    }
    if (as->qhas && (as->qcol > best_col || !best_msg[0])) {
      best_col = as->qcol;
      memcpy(best_msg, as->qmsg, sizeof best_msg);
    } else if (as->qhas && as->qcol == best_col) {
      merge_expected(best_msg, sizeof best_msg, as->qmsg);
    }
  }
  if (!any) {
    asm_error(as, mcol, "unknown instruction '%.*s'", (int)mlen, mn);
    return;
  }
  if (asm_pseudo_fallback(as, mn, mlen, c)) return;
  asm_error(as, best_col, "%s", best_msg[0] ? best_msg : "invalid operands");
}
