/* Multi-instruction pseudo-instructions (li with any 32-bit value, la, lla,
 * call, tail, and the GNU "lw rd, symbol" / "sw rs, symbol, rt" forms) and
 * the .insn directive. Single-instruction aliases come from the table
 * (isa_aliases.def); these expand to several table instructions. */
#include <string.h>

#include "asm_internal.h"

typedef struct ops_t {
  insn_operand o[VT_OP_COUNT];
} ops_t;

static void set_reg(ops_t *p, vt_operand_id op, int64_t v) {
  p->o[op].value = v;
  p->o[op].fixup = false;
}

static void set_fix(ops_t *p, vt_operand_id op, fx_kind k, const aval *v, uint32_t col,
                    uint32_t hi_off) {
  p->o[op].fixup = true;
  p->o[op].kind = k;
  p->o[op].v = *v;
  p->o[op].col = col;
  p->o[op].hi_off = hi_off;
}

static bool expect_comma(vt_asm *as, cursor *c) {
  skip_ws(c);
  if (*c->s != ',') {
    asm_error(as, cur_col(c), at_end(c) ? "missing operand (expected ',')" : "expected ','");
    return false;
  }
  c->s++;
  return true;
}

static bool expect_end(vt_asm *as, cursor *c) {
  skip_ws(c);
  if (!at_end(c)) {
    asm_error(as, cur_col(c), "unexpected '%s' after the operands", c->s);
    return false;
  }
  return true;
}

static bool parse_target(vt_asm *as, cursor *c, aval *v, uint32_t *col) {
  skip_ws(c);
  *col = cur_col(c);
  expr_mod mod;
  if (!parse_expr(as, c, v, &mod)) return false;
  if (mod != MOD_NONE) {
    asm_error(as, *col, "relocation modifier not allowed here");
    return false;
  }
  return true;
}

/* auipc reg, %pcrel_hi(v) followed by 'second' with %pcrel_lo in lo_op */
static void emit_pcrel_pair(vt_asm *as, int reg, const aval *v, uint32_t col, vt_insn_id second,
                            int rd, int rs1, int rs2, vt_operand_id lo_op) {
  ops_t p;
  memset(&p, 0, sizeof p);
  set_reg(&p, VT_OP_RD, reg);
  set_fix(&p, VT_OP_UIMM20, FX_PCREL_HI, v, col, 0);
  uint32_t hi_off = emit_insn(as, VT_INSN_AUIPC, p.o);
  memset(&p, 0, sizeof p);
  set_reg(&p, VT_OP_RD, rd);
  set_reg(&p, VT_OP_RS1, rs1);
  set_reg(&p, VT_OP_RS2, rs2);
  set_fix(&p, lo_op, FX_PCREL_LO_AT, v, col, hi_off);
  emit_insn(as, second, p.o);
}

static void emit_li(vt_asm *as, int rd, int64_t value, uint32_t col) {
  if (value < -(int64_t)0x80000000 || value > (int64_t)0xffffffff) {
    asm_error(as, col, "immediate %lld out of range [-2147483648, 4294967295]", (long long)value);
    return;
  }
  int32_t v = (int32_t)(uint32_t)value;
  ops_t p;
  memset(&p, 0, sizeof p);
  set_reg(&p, VT_OP_RD, rd);
  if (v >= -2048 && v <= 2047) {
    set_reg(&p, VT_OP_RS1, 0);
    set_reg(&p, VT_OP_IMM12, v);
    emit_insn(as, VT_INSN_ADDI, p.o);
    return;
  }
  uint32_t hi = (((uint32_t)v + 0x800u) >> 12) & 0xfffffu;
  int32_t lo = (int32_t)((uint32_t)v << 20) >> 20;
  set_reg(&p, VT_OP_UIMM20, hi);
  emit_insn(as, VT_INSN_LUI, p.o);
  if (lo) {
    set_reg(&p, VT_OP_RS1, rd);
    set_reg(&p, VT_OP_IMM12, lo);
    emit_insn(as, VT_INSN_ADDI, p.o);
  }
}

static bool is(const char *mn, size_t n, const char *s) {
  return strlen(s) == n && memcmp(mn, s, n) == 0;
}

bool asm_pseudo(vt_asm *as, const char *mn, size_t n, uint32_t mcol, cursor *c) {
  (void)mcol;
  if (n < 2 || n > 4) return false;
  bool li = is(mn, n, "li"), la = is(mn, n, "la") || is(mn, n, "lla");
  bool call = is(mn, n, "call"), tail = is(mn, n, "tail");
  if (!li && !la && !call && !tail) return false;
  int rd = -1;
  bool call_rd = false;
  if (li || la) {
    rd = parse_xreg_tok(as, c, false);
    if (rd < 0 || !expect_comma(as, c)) return true;
  } else if (call) {
    /* "call rd, sym" or "call sym" */
    cursor t = *c;
    skip_ws(&t);
    size_t k = scan_ident(t.s);
    int r = k ? vt_parse_xreg(t.s, k, false) : -1;
    cursor u = t;
    u.s += k;
    skip_ws(&u);
    if (r >= 0 && *u.s == ',') {
      rd = r;
      call_rd = true;
      c->s = u.s + 1;
    } else {
      rd = 1;
    }
  }
  aval v;
  uint32_t col;
  if (!parse_target(as, c, &v, &col) || !expect_end(as, c)) return true;
  if (li) {
    if (aval_is_const(&v)) {
      emit_li(as, rd, v.k, col);
    } else { /* lui + addi with %hi/%lo */
      ops_t p;
      memset(&p, 0, sizeof p);
      set_reg(&p, VT_OP_RD, rd);
      set_fix(&p, VT_OP_UIMM20, FX_HI, &v, col, 0);
      emit_insn(as, VT_INSN_LUI, p.o);
      memset(&p, 0, sizeof p);
      set_reg(&p, VT_OP_RD, rd);
      set_reg(&p, VT_OP_RS1, rd);
      set_fix(&p, VT_OP_IMM12, FX_LO, &v, col, 0);
      emit_insn(as, VT_INSN_ADDI, p.o);
    }
  } else if (la) {
    emit_pcrel_pair(as, rd, &v, col, VT_INSN_ADDI, rd, rd, 0, VT_OP_IMM12);
  } else if (call) { /* GNU: "call sym" uses ra, "call rd, sym" uses t1 for the auipc */
    int tmp = rd == 1 && !call_rd ? 1 : 6;
    emit_pcrel_pair(as, tmp, &v, col, VT_INSN_JALR, rd, tmp, 0, VT_OP_IMM12);
  } else {
    emit_pcrel_pair(as, 6, &v, col, VT_INSN_JALR, 0, 6, 0, VT_OP_IMM12);
  }
  return true;
}

/* GNU forms "lw rd, symbol" and "sw rs, symbol, rt" (pc-relative). Called
 * after the table forms failed; parses quietly and emits nothing unless the
 * whole statement fits. */
bool asm_pseudo_fallback(vt_asm *as, const char *mn, size_t n, cursor *c) {
  static const struct {
    const char *name;
    vt_insn_id id;
    bool store;
  } forms[] = {{"lb", VT_INSN_LB, false},  {"lh", VT_INSN_LH, false},  {"lw", VT_INSN_LW, false},
               {"lbu", VT_INSN_LBU, false}, {"lhu", VT_INSN_LHU, false}, {"flw", VT_INSN_FLW, false},
               {"sb", VT_INSN_SB, true},   {"sh", VT_INSN_SH, true},   {"sw", VT_INSN_SW, true},
               {"fsw", VT_INSN_FSW, true}};
  size_t i;
  for (i = 0; i < sizeof forms / sizeof forms[0]; i++)
    if (is(mn, n, forms[i].name)) break;
  if (i == sizeof forms / sizeof forms[0]) return false;
  bool fn = mn[0] == 'f';
  cursor t = *c;
  as->quiet++;
  as->qhas = false;
  int r = parse_xreg_tok(as, &t, fn), rt = -1;
  aval v;
  uint32_t col = 0;
  bool ok = r >= 0 && expect_comma(as, &t) && parse_target(as, &t, &v, &col) && !aval_is_const(&v);
  if (ok && forms[i].store) ok = expect_comma(as, &t) && (rt = parse_xreg_tok(as, &t, false)) >= 0;
  ok = ok && expect_end(as, &t);
  as->quiet--;
  if (!ok) return false;
  if (forms[i].store)
    emit_pcrel_pair(as, rt, &v, col, forms[i].id, 0, rt, r, VT_OP_SIMM12);
  else
    emit_pcrel_pair(as, r, &v, col, forms[i].id, r, r, 0, VT_OP_IMM12);
  return true;
}

/* ---- .insn ---- */
static int any_reg(vt_asm *as, cursor *c) {
  skip_ws(c);
  size_t k = scan_ident(c->s);
  int r = k ? vt_parse_xreg(c->s, k, true) : -1;
  if (r < 0 && k) r = vt_parse_vreg(c->s, k);
  if (r < 0 || r > 31) {
    asm_error(as, cur_col(c), r < 0 ? "expected a register" : "register does not fit a 5-bit field");
    return -1;
  }
  c->s += k;
  return r;
}

static bool const_field(vt_asm *as, cursor *c, int64_t lo, int64_t hi, int64_t *out,
                        const char *what) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  static const struct {
    const char *name;
    int v;
  } majors[] = {{"LOAD", 0x03},     {"LOAD_FP", 0x07}, {"CUSTOM_0", 0x0b}, {"MISC_MEM", 0x0f},
                {"OP_IMM", 0x13},   {"AUIPC", 0x17},   {"STORE", 0x23},    {"STORE_FP", 0x27},
                {"CUSTOM_1", 0x2b}, {"AMO", 0x2f},     {"OP", 0x33},       {"LUI", 0x37},
                {"MADD", 0x43},     {"MSUB", 0x47},    {"NMSUB", 0x4b},    {"NMADD", 0x4f},
                {"OP_FP", 0x53},    {"OP_V", 0x57},    {"CUSTOM_2", 0x5b}, {"BRANCH", 0x63},
                {"JALR", 0x67},     {"JAL", 0x6f},     {"SYSTEM", 0x73},   {"CUSTOM_3", 0x7b}};
  size_t k = scan_ident(c->s);
  for (size_t i = 0; k && i < sizeof majors / sizeof majors[0]; i++)
    if (strlen(majors[i].name) == k && !memcmp(majors[i].name, c->s, k)) {
      c->s += k;
      *out = majors[i].v;
      return true;
    }
  aval v;
  if (!parse_expr_plain(as, c, &v)) return false;
  if (!aval_is_const(&v) || v.k < lo || v.k > hi) {
    asm_error(as, col, "%s out of range [%lld, %lld]", what, (long long)lo, (long long)hi);
    return false;
  }
  *out = v.k;
  return true;
}

static bool insn_imm(vt_asm *as, cursor *c, ops_t *p, vt_operand_id op) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  aval v;
  expr_mod mod;
  if (!parse_expr(as, c, &v, &mod)) return false;
  const vt_operand_desc *d = vt_isa_operand(op);
  if (mod == MOD_NONE && aval_is_const(&v) && d->kind != VT_OPK_PCREL) {
    if (!vt_operand_fits(op, v.k)) {
      int64_t lo, hi;
      vt_operand_range(op, &lo, &hi);
      asm_error(as, col, "immediate %lld out of range [%lld, %lld]", (long long)v.k,
                (long long)lo, (long long)hi);
      return false;
    }
    set_reg(p, op, v.k);
    return true;
  }
  fx_kind k = mod == MOD_HI ? FX_HI : mod == MOD_LO ? FX_LO : mod == MOD_PCREL_HI ? FX_PCREL_HI
              : mod == MOD_PCREL_LO ? FX_PCREL_LO : FX_OP;
  set_fix(p, op, k, &v, col, 0);
  return true;
}

/* ".insn VALUE", ".insn 4, VALUE", ".insn 8, VALUE" (isa2025.md 5.2, D39):
 * a word with bits 6:0 = 0x3f is the first parcel of a 64-bit instruction,
 * every other word is a 32-bit instruction (D1). */
static void insn_value(vt_asm *as, cursor *c) {
  uint32_t col = cur_col(c);
  aval v, len = {0};
  if (!parse_expr_plain(as, c, &v)) return;
  skip_ws(c);
  bool sized = *c->s == ',';
  if (sized) {
    len = v;
    c->s++;
    skip_ws(c);
    col = cur_col(c);
    if (!parse_expr_plain(as, c, &v)) return;
    if (!aval_is_const(&len) || (len.k != 4 && len.k != 8)) {
      asm_error(as, col, ".insn length must be 4 or 8");
      return;
    }
  }
  if (!expect_end(as, c)) return;
  if (!aval_is_const(&v)) {
    asm_error(as, col, ".insn value must be a constant");
    return;
  }
  uint64_t x = (uint64_t)v.k;
  bool is64 = (x & 0x7f) == 0x3f;
  if (sized && is64 != (len.k == 8)) {
    asm_error(as, col, len.k == 8 ? "a 64-bit instruction needs bits 6:0 = 0x3f"
                                   : "a word with bits 6:0 = 0x3f starts a 64-bit instruction "
                                     "(.insn 8, VALUE)");
    return;
  }
  if (!is64 && (v.k < -(int64_t)0x80000000 || v.k > (int64_t)0xffffffff)) {
    asm_error(as, col, ".insn value must be a 32-bit constant");
    return;
  }
  if (emit_word(as, (uint32_t)x) && is64) emit_word(as, (uint32_t)(x >> 32));
}

/* .insn r/r4 OPC, F3, F7|F2, RD, RS1, RS2[, RS3] */
static void insn_r(vt_asm *as, cursor *c, uint32_t w, bool r4) {
  int64_t f7;
  int rd, rs1, rs2, rs3;
  if (!expect_comma(as, c) || !const_field(as, c, 0, r4 ? 3 : 127, &f7, r4 ? "func2" : "func7"))
    return;
  w |= (uint32_t)f7 << 25;
  if (!expect_comma(as, c) || (rd = any_reg(as, c)) < 0 || !expect_comma(as, c) ||
      (rs1 = any_reg(as, c)) < 0 || !expect_comma(as, c) || (rs2 = any_reg(as, c)) < 0)
    return;
  w = vt_operand_set(VT_OP_RD, w, rd);
  w = vt_operand_set(VT_OP_RS1, w, rs1);
  w = vt_operand_set(VT_OP_RS2, w, rs2);
  if (r4) {
    if (!expect_comma(as, c) || (rs3 = any_reg(as, c)) < 0) return;
    w = vt_operand_set(VT_OP_RS3, w, rs3);
  }
  if (expect_end(as, c)) emit_word(as, w);
}

/* "imm(rs1)" of the i and s formats; the register is returned */
static int imm_paren_reg(vt_asm *as, cursor *c, ops_t *p, vt_operand_id immop) {
  skip_ws(c);
  if (*c->s == '(') set_reg(p, immop, 0);
  else if (!insn_imm(as, c, p, immop)) return -1;
  skip_ws(c);
  if (*c->s != '(') {
    asm_error(as, cur_col(c), "expected '('");
    return -1;
  }
  c->s++;
  int rs1 = any_reg(as, c);
  if (rs1 < 0) return -1;
  skip_ws(c);
  if (*c->s != ')') {
    asm_error(as, cur_col(c), "expected ')'");
    return -1;
  }
  c->s++;
  return rs1;
}

/* the operands of the i/s formats (RD|RS2, RS1, IMM or RD|RS2, IMM(RS1)) */
static bool insn_i_s(vt_asm *as, cursor *c, char fmt, uint32_t *w, ops_t *p, vt_operand_id immop) {
  vt_operand_id first = fmt == 'i' ? VT_OP_RD : VT_OP_RS2;
  int rd, rs1;
  if (!expect_comma(as, c) || (rd = any_reg(as, c)) < 0 || !expect_comma(as, c)) return false;
  *w = vt_operand_set(first, *w, rd);
  cursor t = *c;
  skip_ws(&t);
  size_t m = scan_ident(t.s);
  bool reg_first = fmt == 'i' && m && (vt_parse_xreg(t.s, m, true) >= 0 ||
                                       vt_parse_vreg(t.s, m) >= 0);
  if (reg_first) { /* rd, rs1, imm */
    if ((rs1 = any_reg(as, c)) < 0 || !expect_comma(as, c) || !insn_imm(as, c, p, immop))
      return false;
  } else if ((rs1 = imm_paren_reg(as, c, p, immop)) < 0) {
    return false;
  }
  *w = vt_operand_set(VT_OP_RS1, *w, rs1);
  return true;
}

/* the operands of the b/sb (RS1, RS2, TARGET) and u/j/uj (RD, IMM) formats */
static bool insn_b_u_j(vt_asm *as, cursor *c, char fmt, uint32_t *w, ops_t *p,
                       vt_operand_id immop) {
  int rd, rs1, rs2;
  if (fmt == 'b') {
    if (!expect_comma(as, c) || (rs1 = any_reg(as, c)) < 0 || !expect_comma(as, c) ||
        (rs2 = any_reg(as, c)) < 0 || !expect_comma(as, c) || !insn_imm(as, c, p, immop))
      return false;
    *w = vt_operand_set(VT_OP_RS1, *w, rs1);
    *w = vt_operand_set(VT_OP_RS2, *w, rs2);
    return true;
  }
  if (!expect_comma(as, c) || (rd = any_reg(as, c)) < 0 || !expect_comma(as, c) ||
      !insn_imm(as, c, p, immop))
    return false;
  *w = vt_operand_set(VT_OP_RD, *w, rd);
  return true;
}

void asm_insn_directive(vt_asm *as, cursor *c) {
  skip_ws(c);
  size_t k = scan_ident(c->s);
  static const char *const fmts[] = {"r", "r4", "i", "s", "b", "sb", "u", "j", "uj"};
  size_t fi = sizeof fmts / sizeof fmts[0];
  for (size_t i = 0; k && i < sizeof fmts / sizeof fmts[0]; i++)
    if (strlen(fmts[i]) == k && !memcmp(fmts[i], c->s, k)) fi = i;
  if (fi == sizeof fmts / sizeof fmts[0]) {
    insn_value(as, c);
    return;
  }
  c->s += k;
  const char *f = fmts[fi];
  int64_t opc, f3 = 0;
  if (!const_field(as, c, 0, 127, &opc, "opcode")) return;
  if (opc == 0x3f) {
    asm_error(as, cur_col(c), "opcode 0x3f starts a 64-bit instruction (use .insn 8, VALUE)");
    return;
  }
  uint32_t w = (uint32_t)opc;
  if (f[0] != 'u' && f[0] != 'j') {
    if (!expect_comma(as, c) || !const_field(as, c, 0, 7, &f3, "func3")) return;
    w |= (uint32_t)f3 << 12;
  }
  if (f[0] == 'r') {
    insn_r(as, c, w, f[1] == '4');
    return;
  }
  ops_t p;
  memset(&p, 0, sizeof p);
  char fmt = f[0] == 's' && f[1] == 'b' ? 'b' : f[0];
  vt_operand_id immop = fmt == 'i' ? VT_OP_IMM12 : fmt == 's' ? VT_OP_SIMM12
                      : fmt == 'b' ? VT_OP_BIMM : (fmt == 'u' && !f[1]) ? VT_OP_UIMM20 : VT_OP_JIMM;
  bool ok = fmt == 'i' || fmt == 's' ? insn_i_s(as, c, fmt, &w, &p, immop)
                                     : insn_b_u_j(as, c, fmt, &w, &p, immop);
  if (!ok || !expect_end(as, c)) return;
  insn_operand *o = &p.o[immop];
  if (o->fixup) add_fix(as, (fx_kind)o->kind, (uint8_t)immop, &o->v, o->col);
  else w = vt_operand_set(immop, w, (int32_t)o->value);
  emit_word(as, w);
}
