/* Kernel argument directives and the .vt.kernel_args section they produce
 * (vt/kargs.h; docs/as.md "Kernel argument information"):
 *   .vt_kernel NAME                     declares a kernel (no arguments yet)
 *   .vt_kernel_arg KERNEL, KIND, SIZE, NAME[, TYPE[, QUALIFIERS]]
 *                                       appends one argument to KERNEL
 * KIND is global, constant, local or value; TYPE a string ("float*");
 * QUALIFIERS the words const, restrict, volatile. The linker checks that
 * every declared kernel is a global symbol in a code section. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"
#include "vt/kargs.h"

typedef struct kdecl {
  const char *name;
  const char *file;
  uint32_t line, col;
  avec args; /* vt_karg */
} kdecl;

struct asm_kargs {
  avec kernels; /* kdecl */
};

void asm_kargs_free(vt_asm *as) {
  if (!as->kargs) return;
  for (size_t i = 0; i < as->kargs->kernels.n; i++)
    avec_free(&AVEC_AT(as->kargs->kernels, kdecl, i).args);
  avec_free(&as->kargs->kernels);
  free(as->kargs);
  as->kargs = NULL;
}

static kdecl *kernel_get(vt_asm *as, const char *name, size_t n, uint32_t col) {
  if (!as->kargs && !(as->kargs = calloc(1, sizeof *as->kargs))) return NULL;
  avec *v = &as->kargs->kernels;
  v->elem = sizeof(kdecl);
  for (size_t i = 0; i < v->n; i++) {
    kdecl *k = &AVEC_AT(*v, kdecl, i);
    if (strlen(k->name) == n && !memcmp(k->name, name, n)) return k;
  }
  if (v->n >= VT_KARGS_MAX_KERNELS) {
    asm_error(as, col, "more than %u kernels declared", VT_KARGS_MAX_KERNELS);
    return NULL;
  }
  kdecl *k = avec_push(v);
  if (!k || !(k->name = arena_strdup(&as->mem, name, n))) return NULL;
  k->file = as->f->name;
  k->line = as->line;
  k->col = col;
  k->args.elem = sizeof(vt_karg);
  return k;
}

/* An identifier or a string literal, copied into the arena. */
static const char *word_or_string(vt_asm *as, cursor *c, const char *what) {
  skip_ws(c);
  if (*c->s == '"') {
    as->strbuf.len = 0;
    if (!scan_string(as, c, &as->strbuf)) return NULL;
    if (memchr(as->strbuf.p, 0, as->strbuf.len)) {
      asm_error(as, cur_col(c), "%s contains a NUL byte", what);
      return NULL;
    }
    return arena_strdup(&as->mem, as->strbuf.len ? (const char *)as->strbuf.p : "",
                        as->strbuf.len);
  }
  size_t n = scan_ident(c->s);
  if (!n) {
    asm_error(as, cur_col(c), "expected %s (a name or a string)", what);
    return NULL;
  }
  const char *s = arena_strdup(&as->mem, c->s, n);
  c->s += n;
  return s;
}

static bool comma(vt_asm *as, cursor *c, bool required) {
  skip_ws(c);
  if (*c->s == ',') {
    c->s++;
    return true;
  }
  if (required) asm_error(as, cur_col(c), "missing operand (expected ',')");
  return false;
}

static bool parse_kind(vt_asm *as, cursor *c, vt_karg *a) {
  static const struct {
    const char *word;
    uint8_t kind, space;
  } kinds[] = {{"global", VT_KARG_BUFFER, VT_KSPACE_GLOBAL},
               {"constant", VT_KARG_BUFFER, VT_KSPACE_CONSTANT},
               {"local", VT_KARG_LOCAL, VT_KSPACE_LOCAL},
               {"value", VT_KARG_VALUE, VT_KSPACE_PRIVATE}};
  skip_ws(c);
  size_t n = scan_ident(c->s);
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (n == strlen(kinds[i].word) && !memcmp(c->s, kinds[i].word, n)) {
      a->kind = kinds[i].kind;
      a->space = kinds[i].space;
      c->s += n;
      return true;
    }
  asm_error(as, cur_col(c), "unknown argument kind '%.*s' (global, constant, local or value)",
            (int)(n ? n : 1), c->s);
  return false;
}

static bool parse_quals(vt_asm *as, cursor *c, vt_karg *a) {
  static const char *const names[] = {"const", "restrict", "volatile"};
  for (;;) {
    skip_ws(c);
    if (at_end(c)) return true;
    size_t n = scan_ident(c->s), i;
    for (i = 0; i < 3; i++)
      if (n == strlen(names[i]) && !memcmp(c->s, names[i], n)) break;
    if (i == 3) {
      asm_error(as, cur_col(c), "unknown type qualifier '%.*s' (const, restrict, volatile)",
                (int)(n ? n : 1), c->s);
      return false;
    }
    a->quals |= (uint8_t)(1u << i);
    c->s += n;
  }
}

static void kernel_arg(vt_asm *as, cursor *c) {
  skip_ws(c);
  uint32_t kcol = cur_col(c);
  size_t n = scan_ident(c->s);
  if (!n) {
    asm_error(as, kcol, "expected a kernel name");
    return;
  }
  const char *kname = c->s;
  c->s += n;
  vt_karg a = {0};
  if (!comma(as, c, true) || !parse_kind(as, c, &a) || !comma(as, c, true)) return;
  skip_ws(c);
  uint32_t scol = cur_col(c);
  aval v;
  if (!parse_expr_plain(as, c, &v)) return;
  if (!aval_is_const(&v) || v.k < 0 || v.k > 0xffffffffll) {
    asm_error(as, scol, "the argument size must be a non-negative constant");
    return;
  }
  a.size = (uint32_t)v.k;
  if (!comma(as, c, true) || !(a.name = word_or_string(as, c, "an argument name"))) return;
  a.type = "";
  if (comma(as, c, false) && !(a.type = word_or_string(as, c, "a type name"))) return;
  if (comma(as, c, false) && !parse_quals(as, c, &a)) return;
  skip_ws(c);
  if (!at_end(c)) {
    asm_error(as, cur_col(c), "unexpected '%s' after the directive's operands", c->s);
    return;
  }
  const char *bad = vt_karg_check(&a);
  if (bad) {
    asm_error(as, scol, "%s", bad);
    return;
  }
  kdecl *k = kernel_get(as, kname, n, kcol);
  if (!k) {
    if (!as->nerrors) as->oom = true;
    return;
  }
  if (k->args.n >= VT_KARGS_MAX_ARGS) {
    asm_error(as, kcol, "kernel '%s' has more than %u arguments", k->name, VT_KARGS_MAX_ARGS);
    return;
  }
  vt_karg *slot = avec_push(&k->args);
  if (!slot) as->oom = true;
  else *slot = a;
}

void asm_kargs_directive(vt_asm *as, bool arg, cursor *c) {
  if (arg) {
    kernel_arg(as, c);
    return;
  }
  skip_ws(c);
  uint32_t col = cur_col(c);
  size_t n = scan_ident(c->s);
  if (!n) {
    asm_error(as, col, "expected a kernel name");
    return;
  }
  const char *name = c->s;
  c->s += n;
  skip_ws(c);
  if (!at_end(c)) {
    asm_error(as, cur_col(c), "unexpected '%s' after the kernel name", c->s);
    return;
  }
  if (!kernel_get(as, name, n, col) && !as->nerrors) as->oom = true;
}

/* Is the kernel a global symbol defined in a code section of some file? */
static bool is_global_function(vt_asm *as, const symtab *g, const char *name) {
  size_t n = strlen(name);
  asym *s = symtab_find(g, name, n, sym_hash(name, n));
  if (!s || !(s->flags & SF_DEFINED) || s->bind == SB_LOCAL || s->sec < 0) return false;
  afile *f = AVEC_AT(as->files, afile *, s->file);
  return AVEC_AT(f->secs, asec, s->sec).code;
}

int asm_kargs_section(vt_asm *as, const symtab *g, uint8_t **data, size_t *size) {
  *data = NULL;
  *size = 0;
  if (!as->kargs || !as->kargs->kernels.n) return 0;
  size_t n = as->kargs->kernels.n;
  vt_kargs_kernel *ks = calloc(n, sizeof *ks);
  if (!ks) return -1;
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    kdecl *k = &AVEC_AT(as->kargs->kernels, kdecl, i);
    if (!is_global_function(as, g, k->name)) {
      asm_error_at(as, k->file, k->line, k->col,
                   "kernel '%s' is not a global symbol in a code section (add .globl %s and "
                   "its label in .text)",
                   k->name, k->name);
      rc = -1;
    }
    ks[i].name = k->name;
    ks[i].nargs = (uint32_t)k->args.n;
    ks[i].args = k->args.p;
  }
  char msg[256];
  if (rc == 0 && vt_kargs_encode(ks, n, data, size, msg, sizeof msg) != 0) {
    asm_error_at(as, "<link>", 1, 1, "%s", msg);
    rc = -1;
  }
  free(ks);
  return rc;
}
