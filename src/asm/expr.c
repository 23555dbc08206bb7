/* Expressions: constants, symbols, '.', numeric local label references,
 * unary - ~ + !, binary operators with GNU as precedence
 * (* / % << >>  above  | & ^  above  + -), parentheses, and the
 * relocation modifiers %hi %lo %pcrel_hi %pcrel_lo. Values are
 * "constant + symbol - symbol"; anything else must be constant. */
#include <string.h>

#include "asm_internal.h"

void aval_fold(aval *v) {
  if (v->add && (v->add->flags & SF_DEFINED) && v->add->sec == SEC_ABS) {
    v->k = (int64_t)((uint64_t)v->k + (uint64_t)(int64_t)(int32_t)v->add->value);
    v->add = NULL;
  }
  if (v->sub && (v->sub->flags & SF_DEFINED) && v->sub->sec == SEC_ABS) {
    v->k = (int64_t)((uint64_t)v->k - (uint64_t)(int64_t)(int32_t)v->sub->value);
    v->sub = NULL;
  }
  if (v->add && v->sub && (v->add->flags & SF_DEFINED) && (v->sub->flags & SF_DEFINED) &&
      !(v->add->flags & SF_EQU) && !(v->sub->flags & SF_EQU) && v->add->sec >= 0 &&
      v->add->sec == v->sub->sec && v->add->file == v->sub->file) {
    v->k = (int64_t)((uint64_t)v->k + (uint64_t)v->add->value - (uint64_t)v->sub->value);
    v->add = v->sub = NULL;
  }
}

typedef struct eparse {
  vt_asm *as;
  cursor *c;
  int depth;
} eparse;

static bool expr_level(eparse *e, int level, aval *v);

static bool need_const(eparse *e, const aval *a, const aval *b, uint32_t col) {
  if (aval_is_const(a) && (!b || aval_is_const(b))) return true;
  asm_error(e->as, col, "expression must be constant here (only symbol +/- constant is relocatable)");
  return false;
}

static bool primary(eparse *e, aval *v);

/* "( expr )" */
static bool parenthesised(eparse *e, aval *v) {
  cursor *c = e->c;
  c->s++;
  if (!expr_level(e, 0, v)) return false;
  skip_ws(c);
  if (*c->s != ')') {
    asm_error(e->as, cur_col(c), "expected ')'");
    return false;
  }
  c->s++;
  return true;
}

/* unary - ~ + ! (only - applies to a relocatable value) */
static bool unary(eparse *e, aval *v, char op, uint32_t col) {
  e->c->s++;
  if (!primary(e, v)) return false;
  if (op == '+') return true;
  if (op == '-' && !aval_is_const(v)) { /* -(k + a - b) = -k + b - a */
    asym *t = v->add;
    v->add = v->sub;
    v->sub = t;
    v->k = (int64_t)(0 - (uint64_t)v->k);
    return true;
  }
  if (!need_const(e, v, NULL, col)) return false;
  v->k = op == '-' ? (int64_t)(0 - (uint64_t)v->k) : op == '~' ? ~v->k : !v->k;
  return true;
}

/* a number, or a numeric local label reference (1f, 2b) */
static bool number(eparse *e, aval *v, uint32_t col) {
  cursor *c = e->c;
  size_t n = 0;
  while (c->s[n] >= '0' && c->s[n] <= '9') n++;
  char suf = c->s[n];
  bool binary = n == 1 && c->s[0] == '0' && (suf == 'b' || suf == 'B') &&
                (c->s[2] == '0' || c->s[2] == '1');
  if ((suf == 'f' || suf == 'b') && !is_ident_char(c->s[n + 1]) && !binary) {
    asym *s = sym_numeric_ref(e->as, c->s, n, suf == 'f');
    c->s += n + 1;
    if (!s) {
      asm_error(e->as, col, "no previous definition of local label '%.*s'", (int)n, c->s - n - 1);
      return false;
    }
    v->add = s;
    v->col = col;
    return true;
  }
  if (scan_number(c, &v->k)) return true;
  asm_error(e->as, col, "bad number");
  return false;
}

/* a symbol (an .equ/.set value stands for its expression) */
static bool symbol(eparse *e, aval *v, uint32_t col) {
  cursor *c = e->c;
  size_t n = scan_ident(c->s);
  asym *s = sym_get(e->as, c->s, n);
  c->s += n;
  if (!s) return false;
  s->flags |= SF_USED;
  if ((s->flags & SF_EQU) && (s->flags & SF_DEFINED)) {
    *v = s->eq;
    if (!v->col) v->col = col;
  } else {
    v->add = s;
    v->col = col;
  }
  return true;
}

static bool primary(eparse *e, aval *v) {
  cursor *c = e->c;
  vt_asm *as = e->as;
  skip_ws(c);
  memset(v, 0, sizeof *v);
  uint32_t col = cur_col(c);
  char ch = *c->s;
  if (++e->depth > 64) {
    asm_error(as, col, "expression nested too deeply");
    return false;
  }
  bool ok;
  if (ch == '(') {
    ok = parenthesised(e, v);
  } else if (ch == '-' || ch == '~' || ch == '+' || ch == '!') {
    ok = unary(e, v, ch, col);
  } else if (ch >= '0' && ch <= '9') {
    ok = number(e, v, col);
  } else if (ch == '\'') {
    ok = scan_number(c, &v->k);
    if (!ok) asm_error(as, col, "bad character literal");
  } else if (ch == '.' && !is_ident_char(c->s[1])) {
    c->s++;
    v->add = sym_dot(as);
    v->col = col;
    ok = v->add != NULL;
  } else if (is_ident_start(ch)) {
    ok = symbol(e, v, col);
  } else {
    if (ch == 0 || ch == ',') asm_error(as, col, "expected an expression");
    else asm_error(as, col, "unexpected character '%c' in expression", ch);
    ok = false;
  }
  e->depth--;
  if (ok) aval_fold(v);
  return ok;
}

/* GNU as precedence: level 2 = * / % << >>, level 1 = | & ^, level 0 = + - */
static int binop(const char *s, int *len) {
  *len = 1;
  switch (s[0]) {
  case '*': case '/': case '%': return 2;
  case '<': if (s[1] == '<') { *len = 2; return 2; } return -1;
  case '>': if (s[1] == '>') { *len = 2; return 2; } return -1;
  case '|': case '&': case '^': return 1;
  case '+': case '-': return 0;
  default: return -1;
  }
}

static bool expr_level(eparse *e, int level, aval *v) {
  cursor *c = e->c;
  if (level > 2) return primary(e, v);
  if (!expr_level(e, level + 1, v)) return false;
  for (;;) {
    skip_ws(c);
    int len, prec = binop(c->s, &len);
    if (prec != level) return true;
    char op = c->s[0];
    uint32_t col = cur_col(c);
    c->s += len;
    aval r;
    if (!expr_level(e, level + 1, &r)) return false;
    if (op == '+') {
      if ((v->add && r.add) || (v->sub && r.sub)) {
        asm_error(e->as, col, "cannot add two symbols");
        return false;
      }
      v->k = (int64_t)((uint64_t)v->k + (uint64_t)r.k); /* wraps, as GNU as */
      if (r.add) v->add = r.add;
      if (r.sub) v->sub = r.sub;
      if (!v->col) v->col = r.col;
    } else if (op == '-') {
      if ((v->sub && r.add) || (v->add && r.sub)) {
        asm_error(e->as, col, "expression is too complex for a relocation");
        return false;
      }
      v->k = (int64_t)((uint64_t)v->k - (uint64_t)r.k);
      if (r.add) v->sub = r.add;
      if (r.sub) v->add = r.sub;
      if (!v->col) v->col = r.col;
    } else {
      if (!need_const(e, v, &r, col)) return false;
      int64_t a = v->k, b = r.k;
      switch (op) {
      case '*': a = (int64_t)((uint64_t)a * (uint64_t)b); break;
      case '/':
      case '%':
        if (b == 0) {
          asm_error(e->as, col, "division by zero");
          return false;
        }
        if (b == -1)
          a = op == '/' ? (int64_t)(0 - (uint64_t)a) : 0;
        else
          a = op == '/' ? a / b : a % b;
        break;
      case '<': a = (b < 0 || b > 63) ? 0 : (int64_t)((uint64_t)a << b); break;
      case '>': a = (b < 0 || b > 63) ? (a < 0 ? -1 : 0) : a >> b; break;
      case '|': a |= b; break;
      case '&': a &= b; break;
      case '^': a ^= b; break;
      }
      v->k = a;
    }
    aval_fold(v);
  }
}

bool parse_expr_plain(vt_asm *as, cursor *c, aval *v) {
  eparse e = {as, c, 0};
  return expr_level(&e, 0, v);
}

bool parse_expr(vt_asm *as, cursor *c, aval *v, expr_mod *mod) {
  skip_ws(c);
  *mod = MOD_NONE;
  if (*c->s == '%') {
    static const struct {
      const char *name;
      expr_mod mod;
    } mods[] = {{"hi", MOD_HI}, {"lo", MOD_LO}, {"pcrel_hi", MOD_PCREL_HI},
                {"pcrel_lo", MOD_PCREL_LO}};
    uint32_t col = cur_col(c);
    size_t n = scan_ident(c->s + 1);
    size_t i;
    for (i = 0; i < sizeof mods / sizeof mods[0]; i++)
      if (strlen(mods[i].name) == n && memcmp(mods[i].name, c->s + 1, n) == 0) break;
    if (i == sizeof mods / sizeof mods[0]) {
      asm_error(as, col, "unknown relocation modifier '%%%.*s'", (int)n, c->s + 1);
      return false;
    }
    c->s += 1 + n;
    skip_ws(c);
    if (*c->s != '(') {
      asm_error(as, cur_col(c), "expected '(' after %%%s", mods[i].name);
      return false;
    }
    c->s++;
    if (!parse_expr_plain(as, c, v)) return false;
    skip_ws(c);
    if (*c->s != ')') {
      asm_error(as, cur_col(c), "expected ')'");
      return false;
    }
    c->s++;
    if (!v->col) v->col = col;
    *mod = mods[i].mod;
    return true;
  }
  return parse_expr_plain(as, c, v);
}
