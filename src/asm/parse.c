/* One statement: leading labels ("name:", "1:"), then a directive or an
 * instruction. */
#include <string.h>

#include "asm_internal.h"

void asm_statement(vt_asm *as, cursor *c) {
  for (;;) {
    skip_ws(c);
    const char *p = c->s;
    uint32_t col = cur_col(c);
    if (as->oneshot) break; /* vt_asm_one: one instruction, no labels */
    if (*p >= '0' && *p <= '9') { /* numeric local label */
      size_t n = 0;
      while (p[n] >= '0' && p[n] <= '9') n++;
      size_t k = n;
      while (p[k] == ' ' || p[k] == '\t') k++;
      if (p[k] != ':') break;
      asym *s = sym_numeric_def(as, p, n);
      if (s) sym_define_label(as, s, col);
      c->s = p + k + 1;
      continue;
    }
    size_t n = scan_ident(p);
    if (!n) break;
    size_t k = n;
    while (p[k] == ' ' || p[k] == '\t') k++;
    if (p[k] != ':') break;
    if (n == 1 && p[0] == '.') {
      asm_error(as, col, "'.' cannot be a label");
    } else {
      asym *s = sym_get(as, p, n);
      if (s) sym_define_label(as, s, col);
    }
    c->s = p + k + 1;
  }
  skip_ws(c);
  if (at_end(c)) return;
  uint32_t col = cur_col(c);
  size_t n = scan_ident(c->s);
  if (!n) {
    asm_error(as, col, "expected an instruction or directive, got '%c'", *c->s);
    return;
  }
  const char *name = c->s;
  c->s += n;
  if (*c->s && *c->s != ' ' && *c->s != '\t') {
    asm_error(as, col, "unexpected character '%c' after '%.*s'", *c->s, (int)n, name);
    return;
  }
  /* one instruction only; .insn is one (the disassembler prints words it
   * cannot write as an instruction that way) */
  if (name[0] == '.' && as->oneshot && !(n == 5 && !memcmp(name, ".insn", 5)))
    asm_error(as, col, "directives are not accepted here (one instruction only)");
  else if (name[0] == '.')
    asm_directive(as, name, n, col, c);
  else
    asm_instruction(as, name, n, col, c);
}
