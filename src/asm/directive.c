/* Assembler directives (docs/as.md lists them): sections, symbols, data,
 * alignment, .equ/.set, .org, .comm, and the harmless ones compilers emit
 * (.file, .ident, .attribute, .cfi_*, .addrsig, ...) which are ignored. */
#include <elf.h>
#include <string.h>

#include "asm_internal.h"

static bool d_comma(vt_asm *as, cursor *c, bool required) {
  skip_ws(c);
  if (*c->s == ',') {
    c->s++;
    return true;
  }
  if (required)
    asm_error(as, cur_col(c), at_end(c) ? "missing operand (expected ',')" : "expected ','");
  return false;
}

static bool d_end(vt_asm *as, cursor *c) {
  skip_ws(c);
  if (at_end(c)) return true;
  asm_error(as, cur_col(c), "unexpected '%s' after the directive's operands", c->s);
  return false;
}

static bool d_const(vt_asm *as, cursor *c, int64_t *out) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  aval v;
  if (!parse_expr_plain(as, c, &v)) return false;
  if (!aval_is_const(&v)) {
    asm_error(as, col, "expression must be a constant");
    return false;
  }
  *out = v.k;
  return true;
}

static asym *d_symbol(vt_asm *as, cursor *c) {
  skip_ws(c);
  size_t n = scan_ident(c->s);
  if (!n) {
    asm_error(as, cur_col(c), "expected a symbol name");
    return NULL;
  }
  asym *s = sym_get(as, c->s, n);
  c->s += n;
  return s;
}

static void switch_to(vt_asm *as, int idx) {
  if (idx != as->f->cur) {
    as->f->prev = as->f->cur;
    as->f->cur = idx;
  }
}

static void d_section(vt_asm *as, cursor *c, bool push) {
  skip_ws(c);
  const char *name = c->s;
  size_t n;
  if (*c->s == '"') {
    name = ++c->s;
    while (*c->s && *c->s != '"') c->s++;
    n = (size_t)(c->s - name);
    if (*c->s) c->s++;
  } else {
    n = 0;
    while (c->s[n] && c->s[n] != ',' && c->s[n] != ' ' && c->s[n] != '\t') n++;
    c->s += n;
  }
  if (!n) {
    asm_error(as, cur_col(c), "expected a section name");
    return;
  }
  bool known = false, alloc = false, write = false, exec = false, nobits = false;
  if (d_comma(as, c, false)) {
    skip_ws(c);
    if (*c->s == '"') {
      known = true;
      c->s++;
      for (; *c->s && *c->s != '"'; c->s++) {
        if (*c->s == 'a') alloc = true;
        if (*c->s == 'w') write = true;
        if (*c->s == 'x') exec = true;
      }
      if (*c->s) c->s++;
      if (d_comma(as, c, false)) {
        skip_ws(c);
        if (*c->s == '@' || *c->s == '%') c->s++;
        size_t k = scan_ident(c->s);
        if (k == 6 && !memcmp(c->s, "nobits", 6)) nobits = true;
        c->s += strlen(c->s); /* entity size, group name ... ignored */
      }
    } else {
      c->s += strlen(c->s);
    }
  }
  if (!d_end(as, c)) return;
  int idx = sec_find_or_add(as, name, n, known, alloc, write, exec, nobits);
  afile *f = as->f;
  if (push) {
    if (f->nstack >= 16) {
      asm_error(as, 1, "section stack overflow");
      return;
    }
    f->stack[f->nstack][0] = f->cur;
    f->stack[f->nstack][1] = f->prev;
    f->nstack++;
  }
  switch_to(as, idx);
}

static void d_data(vt_asm *as, cursor *c, unsigned size) {
  do {
    skip_ws(c);
    uint32_t col = cur_col(c);
    aval v;
    if (!parse_expr_plain(as, c, &v)) return;
    uint64_t k = (uint64_t)v.k;
    if (!aval_is_const(&v)) {
      add_fix(as, size == 1 ? FX_DATA8 : size == 2 ? FX_DATA16 : size == 4 ? FX_DATA32 : FX_DATA64, 0,
              &v, col);
      k = 0;
      if (cur_sec(as)->nobits) {
        asm_error(as, col, "relocation in the no-bits section '%s'", cur_sec(as)->name);
        return;
      }
    }
    uint8_t b[8];
    for (unsigned i = 0; i < size; i++) b[i] = (uint8_t)(k >> (8 * i));
    if (!emit_bytes(as, b, size, col)) return;
  } while (d_comma(as, c, false));
  d_end(as, c);
}

static void d_string(vt_asm *as, cursor *c, bool nul) {
  do {
    skip_ws(c);
    uint32_t col = cur_col(c);
    if (*c->s != '"') {
      asm_error(as, col, "expected a string");
      return;
    }
    as->strbuf.len = 0;
    if (!scan_string(as, c, &as->strbuf)) return;
    if (nul && !abuf_put(&as->strbuf, "", 1)) as->oom = true;
    if (!emit_bytes(as, as->strbuf.p, as->strbuf.len, col)) return;
  } while (d_comma(as, c, false));
  d_end(as, c);
}

/* kind: 0 = .align (RISC-V: power-of-two exponent), 1 = .p2align, 2 = .balign */
static void d_align(vt_asm *as, cursor *c, int kind) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  int64_t n, fill = -1, max = 0;
  if (!d_const(as, c, &n)) return;
  if (d_comma(as, c, false)) {
    skip_ws(c);
    if (*c->s != ',' && !d_const(as, c, &fill)) return;
    if (d_comma(as, c, false) && !d_const(as, c, &max)) return;
  }
  if (!d_end(as, c)) return;
  uint64_t align;
  if (kind == 2) {
    if (n < 1 || n > 65536 || (n & (n - 1))) {
      asm_error(as, col, "alignment %lld is not a power of two in [1, 65536]", (long long)n);
      return;
    }
    align = (uint64_t)n;
  } else {
    if (n < 0 || n > 16) {
      asm_error(as, col, "alignment exponent %lld out of range [0, 16]", (long long)n);
      return;
    }
    align = (uint64_t)1 << n;
  }
  sec_align(as, (uint32_t)align, fill < 0 ? -1 : (int)(fill & 0xff), (uint32_t)max, col);
}

static void d_space(vt_asm *as, cursor *c) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  int64_t n, fill = 0;
  if (!d_const(as, c, &n)) return;
  if (d_comma(as, c, false) && !d_const(as, c, &fill)) return;
  if (!d_end(as, c)) return;
  if (n < 0 || n > 0x10000000) {
    asm_error(as, col, "size %lld out of range [0, 268435456]", (long long)n);
    return;
  }
  asec *s = cur_sec(as);
  if (!sec_room(as, (uint64_t)n, col)) return;
  if (s->nobits) {
    if (fill & 0xff) {
      asm_error(as, col, "non-zero data in the no-bits section '%s'", s->name);
      return;
    }
    s->size += (uint32_t)n;
    return;
  }
  if (!abuf_fill(&s->data, (uint8_t)fill, (size_t)n)) as->oom = true;
}

static void d_equ(vt_asm *as, cursor *c, bool equiv) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  asym *s = d_symbol(as, c);
  if (!s || !d_comma(as, c, true)) return;
  aval v;
  if (!parse_expr_plain(as, c, &v) || !d_end(as, c)) return;
  if ((s->flags & SF_DEFINED) && (!(s->flags & SF_EQU) || equiv)) {
    asm_error(as, col, "duplicate symbol '%s' (first defined at line %u)", s->name, s->line);
    return;
  }
  if (v.add == s || v.sub == s) {
    asm_error(as, col, "symbol '%s' defined in terms of itself", s->name);
    return;
  }
  s->flags |= SF_DEFINED | SF_EQU;
  s->eq = v;
  s->eq.col = 0;
  s->line = as->line;
  s->col = col;
  if (aval_is_const(&v)) {
    s->sec = SEC_ABS;
    s->value = (uint32_t)v.k;
  } else {
    s->sec = SEC_UNDEF;
  }
}

static void d_org(vt_asm *as, cursor *c) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  aval v;
  int64_t fill = 0;
  if (!parse_expr_plain(as, c, &v)) return;
  if (d_comma(as, c, false) && !d_const(as, c, &fill)) return;
  if (!d_end(as, c)) return;
  int64_t target = v.k;
  if (v.add && !v.sub && (v.add->flags & SF_DEFINED) && v.add->sec == as->f->cur &&
      !(v.add->flags & SF_EQU)) {
    target = (int64_t)((uint64_t)target + v.add->value);
  } else if (!aval_is_const(&v)) {
    asm_error(as, col, ".org needs a constant or a location in the current section");
    return;
  }
  asec *s = cur_sec(as);
  int64_t pos = sec_pos(s);
  if (target < pos) {
    asm_error(as, col, ".org moves the location counter backwards (from %lld to %lld)",
              (long long)pos, (long long)target);
    return;
  }
  if (!sec_room(as, (uint64_t)(target - pos), col)) return;
  if (s->nobits)
    s->size = (uint32_t)target;
  else if (!abuf_fill(&s->data, (uint8_t)fill, (size_t)(target - pos)))
    as->oom = true;
}

static void d_comm(vt_asm *as, cursor *c, bool local) {
  skip_ws(c);
  uint32_t col = cur_col(c);
  asym *s = d_symbol(as, c);
  int64_t size, align = 4;
  if (!s || !d_comma(as, c, true) || !d_const(as, c, &size)) return;
  if (d_comma(as, c, false) && !d_const(as, c, &align)) return;
  if (!d_end(as, c)) return;
  if (size < 0 || align < 1 || (align & (align - 1)) || align > 65536) {
    asm_error(as, col, "bad size or alignment for '%s'", s->name);
    return;
  }
  afile *f = as->f;
  int save_cur = f->cur, save_prev = f->prev;
  f->cur = sec_find_or_add(as, ".bss", 4, 0, true, true, false, true);
  sec_align(as, (uint32_t)align, -1, 0, col);
  sym_define_label(as, s, col);
  cur_sec(as)->size += (uint32_t)size;
  s->size = (uint32_t)size;
  s->type = STT_OBJECT;
  if (!local && s->bind == SB_LOCAL) s->bind = SB_GLOBAL;
  f->cur = save_cur;
  f->prev = save_prev;
}

static void d_type(vt_asm *as, cursor *c) {
  asym *s = d_symbol(as, c);
  if (!s || !d_comma(as, c, true)) return;
  skip_ws(c);
  uint32_t col = cur_col(c);
  if (*c->s == '@' || *c->s == '%' || *c->s == '#') c->s++;
  const char *t = c->s;
  bool q = *t == '"';
  if (q) t++;
  size_t n = scan_ident(t);
  static const struct {
    const char *name;
    uint8_t type;
  } types[] = {{"function", STT_FUNC}, {"STT_FUNC", STT_FUNC},       {"object", STT_OBJECT},
               {"STT_OBJECT", STT_OBJECT}, {"notype", STT_NOTYPE}, {"STT_NOTYPE", STT_NOTYPE},
               {"tls_object", STT_TLS}, {"common", STT_COMMON}, {"gnu_indirect_function", STT_GNU_IFUNC}};
  size_t i;
  for (i = 0; i < sizeof types / sizeof types[0]; i++)
    if (strlen(types[i].name) == n && !memcmp(types[i].name, t, n)) break;
  if (i == sizeof types / sizeof types[0]) {
    asm_error(as, col, "unknown symbol type '%.*s'", (int)(n ? n : 1), t);
    return;
  }
  c->s = t + n + (q && t[n] == '"');
  s->type = types[i].type;
  d_end(as, c);
}

static void d_size(vt_asm *as, cursor *c) {
  asym *s = d_symbol(as, c);
  if (!s || !d_comma(as, c, true)) return;
  skip_ws(c);
  uint32_t col = cur_col(c);
  aval v;
  if (!parse_expr_plain(as, c, &v) || !d_end(as, c)) return;
  if (!aval_is_const(&v) || v.k < 0 || v.k > 0xffffffffll) {
    asm_error(as, col, ".size needs a non-negative constant (e.g. .-%s after the symbol)", s->name);
    return;
  }
  s->size = (uint32_t)v.k;
}

static void d_bind(vt_asm *as, cursor *c, uint8_t bind) {
  do {
    asym *s = d_symbol(as, c);
    if (!s) return;
    s->bind = bind;
  } while (d_comma(as, c, false));
  d_end(as, c);
}

static void d_leb(vt_asm *as, cursor *c, bool is_signed) {
  do {
    skip_ws(c);
    uint32_t col = cur_col(c);
    int64_t v;
    if (!d_const(as, c, &v)) return;
    uint8_t b[10];
    size_t n = 0;
    uint64_t u = (uint64_t)v;
    for (;;) {
      uint8_t byte = u & 0x7f;
      if (is_signed) {
        v >>= 7;
        bool done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
        b[n++] = done ? byte : (uint8_t)(byte | 0x80);
        if (done) break;
        u = (uint64_t)v;
      } else {
        u >>= 7;
        b[n++] = u ? (uint8_t)(byte | 0x80) : byte;
        if (!u) break;
      }
    }
    if (!emit_bytes(as, b, n, col)) return;
  } while (d_comma(as, c, false));
  d_end(as, c);
}

typedef enum dkind {
  D_IGNORE, D_FILE, D_LOC, D_TEXT, D_DATA, D_RODATA, D_BSS, D_SDATA, D_SBSS, D_SECTION, D_PUSHSECTION,
  D_POPSECTION, D_PREVIOUS, D_GLOBL, D_LOCAL, D_WEAK, D_TYPE, D_SIZE, D_ALIGN, D_P2ALIGN,
  D_BALIGN, D_BYTE, D_HALF, D_WORD, D_DWORD, D_STRING, D_ASCII, D_SPACE, D_EQU, D_EQUIV,
  D_INSN, D_ORG, D_COMM, D_LCOMM, D_END, D_ULEB, D_SLEB, D_VT_KERNEL, D_VT_KERNEL_ARG
} dkind;

static const struct {
  const char *name;
  dkind kind;
} directives[] = {
    {".text", D_TEXT},       {".data", D_DATA},         {".rodata", D_RODATA},
    {".bss", D_BSS},         {".sdata", D_SDATA},       {".sbss", D_SBSS},
    {".section", D_SECTION}, {".pushsection", D_PUSHSECTION}, {".popsection", D_POPSECTION},
    {".previous", D_PREVIOUS}, {".globl", D_GLOBL},     {".global", D_GLOBL},
    {".local", D_LOCAL},     {".weak", D_WEAK},         {".type", D_TYPE},
    {".size", D_SIZE},       {".align", D_ALIGN},       {".p2align", D_P2ALIGN},
    {".balign", D_BALIGN},   {".byte", D_BYTE},         {".half", D_HALF},
    {".short", D_HALF},      {".2byte", D_HALF},        {".word", D_WORD},
    {".long", D_WORD},       {".4byte", D_WORD},        {".dword", D_DWORD},
    {".quad", D_DWORD},      {".8byte", D_DWORD},       {".string", D_STRING},
    {".asciz", D_STRING},    {".ascii", D_ASCII},       {".zero", D_SPACE},
    {".space", D_SPACE},     {".skip", D_SPACE},        {".equ", D_EQU},
    {".set", D_EQU},         {".equiv", D_EQUIV},       {".insn", D_INSN},
    {".org", D_ORG},         {".comm", D_COMM},         {".lcomm", D_LCOMM},
    {".end", D_END},         {".uleb128", D_ULEB},      {".sleb128", D_SLEB},
    {".vt_kernel", D_VT_KERNEL}, {".vt_kernel_arg", D_VT_KERNEL_ARG}, /* src/asm/kargs.c */
    {".file", D_FILE},       {".loc", D_LOC}, /* line table (dwarf.c) */
    /* accepted and ignored */
    {".option", D_IGNORE},   {".ident", D_IGNORE},
    {".attribute", D_IGNORE}, {".addrsig", D_IGNORE},   {".addrsig_sym", D_IGNORE},
    {".hidden", D_IGNORE},     {".protected", D_IGNORE},
    {".internal", D_IGNORE}, {".variant_cc", D_IGNORE}, {".p2alignl", D_IGNORE},
    {".cfi_sections", D_IGNORE},
};

void asm_directive(vt_asm *as, const char *name, size_t len, uint32_t col, cursor *c) {
  size_t i;
  for (i = 0; i < sizeof directives / sizeof directives[0]; i++) {
    const char *d = directives[i].name;
    if (d[1] == name[1] && strlen(d) == len && !memcmp(d, name, len)) break;
  }
  dkind k;
  if (i < sizeof directives / sizeof directives[0]) {
    k = directives[i].kind;
  } else if (len > 5 && !memcmp(name, ".cfi_", 5)) {
    k = D_IGNORE;
  } else {
    asm_error(as, col, "unknown directive '%.*s'", (int)len, name);
    return;
  }
  afile *f = as->f;
  switch (k) {
  case D_IGNORE: return;
  case D_FILE: asm_dot_file(as, c); return;
  case D_LOC: asm_dot_loc(as, c); return;
  case D_TEXT: switch_to(as, sec_find_or_add(as, ".text", 5, 0, 1, 0, 1, 0)); d_end(as, c); return;
  case D_DATA: switch_to(as, sec_find_or_add(as, ".data", 5, 0, 1, 1, 0, 0)); d_end(as, c); return;
  case D_RODATA: switch_to(as, sec_find_or_add(as, ".rodata", 7, 0, 1, 0, 0, 0)); d_end(as, c); return;
  case D_BSS: switch_to(as, sec_find_or_add(as, ".bss", 4, 0, 1, 1, 0, 1)); d_end(as, c); return;
  case D_SDATA: switch_to(as, sec_find_or_add(as, ".sdata", 6, 0, 1, 1, 0, 0)); d_end(as, c); return;
  case D_SBSS: switch_to(as, sec_find_or_add(as, ".sbss", 5, 0, 1, 1, 0, 1)); d_end(as, c); return;
  case D_SECTION: d_section(as, c, false); return;
  case D_PUSHSECTION: d_section(as, c, true); return;
  case D_POPSECTION:
    if (!f->nstack) {
      asm_error(as, col, ".popsection without .pushsection");
      return;
    }
    f->nstack--;
    f->cur = f->stack[f->nstack][0];
    f->prev = f->stack[f->nstack][1];
    d_end(as, c);
    return;
  case D_PREVIOUS: {
    int t = f->cur;
    f->cur = f->prev;
    f->prev = t;
    d_end(as, c);
    return;
  }
  case D_GLOBL: d_bind(as, c, SB_GLOBAL); return;
  case D_LOCAL: d_bind(as, c, SB_LOCAL); return;
  case D_WEAK: d_bind(as, c, SB_WEAK); return;
  case D_TYPE: d_type(as, c); return;
  case D_SIZE: d_size(as, c); return;
  case D_ALIGN: d_align(as, c, 0); return;
  case D_P2ALIGN: d_align(as, c, 1); return;
  case D_BALIGN: d_align(as, c, 2); return;
  case D_BYTE: d_data(as, c, 1); return;
  case D_HALF: d_data(as, c, 2); return;
  case D_WORD: d_data(as, c, 4); return;
  case D_DWORD: d_data(as, c, 8); return;
  case D_STRING: d_string(as, c, true); return;
  case D_ASCII: d_string(as, c, false); return;
  case D_SPACE: d_space(as, c); return;
  case D_EQU: d_equ(as, c, false); return;
  case D_EQUIV: d_equ(as, c, true); return;
  case D_INSN: asm_insn_directive(as, c); return;
  case D_ORG: d_org(as, c); return;
  case D_COMM: d_comm(as, c, false); return;
  case D_LCOMM: d_comm(as, c, true); return;
  case D_END: as->ended = true; return;
  case D_ULEB: d_leb(as, c, false); return;
  case D_SLEB: d_leb(as, c, true); return;
  case D_VT_KERNEL: asm_kargs_directive(as, false, c); return;
  case D_VT_KERNEL_ARG: asm_kargs_directive(as, true, c); return;
  }
}
