/* Internal data structures of the assembler/linker (src/asm). Everything
 * lives in one vt_asm session; there is no global mutable state. */
#ifndef VT_ASM_INTERNAL_H
#define VT_ASM_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vt/asm.h"
#include "vt/isa.h"

#define ASM_MAX_ERRORS_PER_FILE 50

/* ---- growable byte buffer and bump arena ---- */
typedef struct abuf {
  uint8_t *p;
  size_t len, cap;
} abuf;

bool abuf_reserve(abuf *b, size_t extra);
bool abuf_put(abuf *b, const void *data, size_t n);
bool abuf_fill(abuf *b, uint8_t byte, size_t n);
void abuf_free(abuf *b);

typedef struct arena_block arena_block;
typedef struct arena {
  arena_block *head;
  size_t used, size;
} arena;

void *arena_alloc(arena *a, size_t n); /* zeroed, 8-aligned; NULL when out of memory */
char *arena_strdup(arena *a, const char *s, size_t n);
void arena_free(arena *a);

/* Simple growable array of fixed-size elements. */
typedef struct avec {
  void *p;
  size_t n, cap, elem;
} avec;
void *avec_push(avec *v); /* zeroed new element or NULL */
void avec_free(avec *v);
#define AVEC_AT(v, T, i) (((T *)(v).p)[i])

/* ---- symbols ---- */
typedef struct asym asym;

/* Expression value: k + add - sub. */
typedef struct aval {
  int64_t k;
  asym *add, *sub;
  uint32_t col; /* column of the first symbol in the expression (for messages) */
} aval;

enum { SEC_UNDEF = -1, SEC_ABS = -2, SEC_LINKER = -3 };
enum {
  SF_DEFINED = 1,  /* label or .equ seen */
  SF_TEMP = 2,     /* numeric local label or internal: not in the output symtab */
  SF_EQU = 4,      /* value is the expression 'eq' */
  SF_USED = 8,
  SF_DOT = 16,     /* anonymous symbol for '.' */
  SF_RESOLVING = 32,
  SF_RESOLVED = 64
};
enum { SB_LOCAL = 0, SB_GLOBAL = 1, SB_WEAK = 2 };

struct asym {
  const char *name;
  uint32_t len, hash;
  int32_t sec;    /* section index in its file, or SEC_* */
  uint32_t value; /* offset in the section (or absolute value) */
  uint32_t size;
  uint8_t bind, type, flags;
  uint16_t file; /* index of the defining file */
  uint32_t line, col; /* where defined */
  aval eq;            /* SF_EQU */
  /* link time */
  uint32_t addr;
  int32_t out_sec; /* index into the output section list, -1 = absolute */
  asym *def;       /* undefined here, defined in another file */
};

/* Open-addressing hash table of asym pointers keyed by name. */
typedef struct symtab {
  asym **slots;
  size_t cap, count;
} symtab;

uint32_t sym_hash(const char *s, size_t n);
asym *symtab_find(const symtab *t, const char *s, size_t n, uint32_t h);
bool symtab_insert(symtab *t, asym *s);
void symtab_free(symtab *t);

/* ---- sections ---- */
typedef enum sec_cat {
  CAT_TEXT, CAT_TOHOST, CAT_RODATA, CAT_DATA, CAT_SDATA, CAT_SBSS, CAT_BSS, CAT_NONE,
  CAT_KEEP, /* kept by name, not loaded: .ventus.* (.ventus.resource.<kernel>) */
  CAT_COUNT
} sec_cat;

typedef struct asec {
  const char *name;
  uint8_t cat;    /* sec_cat */
  bool nobits;
  bool code;      /* 'x' flag: alignment padding uses nops */
  uint32_t align; /* bytes */
  abuf data;
  uint32_t size; /* for nobits */
  uint32_t addr; /* link time */
} asec;

/* ---- fixups (internal relocations, resolved by the linker) ---- */
typedef enum fx_kind {
  FX_OP,        /* operand 'op' gets the value (PCREL: target - pc) */
  FX_HI,        /* operand gets %hi(value) */
  FX_LO,        /* operand gets %lo(value) */
  FX_PCREL_HI,  /* operand gets %pcrel_hi(value) */
  FX_PCREL_LO,  /* value.add is the label of an auipc carrying %pcrel_hi */
  FX_PCREL_LO_AT, /* %pcrel_lo of value relative to the auipc at 'hi_off' */
  FX_DATA8, FX_DATA16, FX_DATA32, FX_DATA64
} fx_kind;

typedef struct afix {
  uint32_t sec, off;
  uint8_t kind, op;
  aval v;
  uint32_t line, col;
  uint32_t hi_off;
} afix;

/* ---- line table rows (dwarf.c) ---- */
typedef struct aline {
  uint32_t sec, off; /* instruction: section index in its file, offset */
  uint32_t line;
  uint16_t file;     /* .file number (0: the assembly file itself) */
} aline;

/* ---- one input file ---- */
typedef struct afile {
  const char *name;
  avec lines;       /* aline: from .loc, or (-g) the instructions' own lines */
  avec dnames;      /* const char *: .file N "name", index N */
  bool any_loc;     /* a .loc was seen: its rows win over -g's */
  uint16_t loc_file;
  uint32_t loc_line;
  avec secs;  /* asec */
  avec syms;  /* asym* (definition order) */
  avec fixes; /* afix */
  symtab tab;
  int cur, prev;
  int stack[16][2];
  int nstack;
  int nerrors;
} afile;

/* ---- the session ---- */
struct vt_asm {
  vt_asm_options opts;
  arena mem;
  abuf errors;
  size_t nerrors;
  avec files; /* afile* */
  afile *f;   /* file being assembled */
  uint32_t line;
  const char *line_text; /* statement buffer of the current line (columns) */
  bool oneshot;          /* vt_asm_one: PC-relative constants are absolute targets */
  bool debug_lines;      /* -g: line rows for files without .loc */
  char *stmt;            /* scratch statement buffer */
  size_t stmt_cap;
  bool oom;
  bool ended; /* .end seen */
  uint64_t data_bytes; /* initialised bytes so far (bounded) */
  /* quiet mode: while trying instruction candidates, the first error is
   * captured here instead of being reported */
  int quiet;
  bool qhas;
  uint32_t qcol;
  char qmsg[200];
  abuf strbuf; /* scratch for string literals */
  struct asm_kargs *kargs; /* .vt_kernel / .vt_kernel_arg declarations (kargs.c) */
};

/* ---- shared helpers ---- */
/* Report an error at the current line; 'col' 1-based (0 = unknown). */
void asm_error(vt_asm *as, uint32_t col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void asm_error_at(vt_asm *as, const char *file, uint32_t line, uint32_t col, const char *fmt,
                  ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
bool asm_too_many_errors(const vt_asm *as);

/* Parsing cursor over a NUL-terminated statement. */
typedef struct cursor {
  const char *s;    /* current position */
  const char *base; /* start of the line (column 1) */
} cursor;

static inline uint32_t cur_col(const cursor *c) { return (uint32_t)(c->s - c->base) + 1; }
static inline void skip_ws(cursor *c) {
  while (*c->s == ' ' || *c->s == '\t') c->s++;
}
static inline bool is_ident_start(char ch) {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '.' ||
         ch == '$';
}
static inline bool is_ident_char(char ch) {
  return is_ident_start(ch) || (ch >= '0' && ch <= '9');
}
static inline bool at_end(const cursor *c) { return *c->s == 0; }

void asm_statement(vt_asm *as, cursor *c); /* parse.c */

/* lex.c */
size_t scan_ident(const char *s);
bool scan_number(cursor *c, int64_t *out); /* decimal/hex/octal/binary, char literal */
/* Parse a string literal at c->s (which must be '"'); append bytes to out.
 * Returns false after reporting an error. */
bool scan_string(vt_asm *as, cursor *c, abuf *out);
/* Split the text into statements; calls stmt_fn for each with a NUL-terminated
 * copy whose comments are blanked (so columns stay right). */
void asm_run_text(vt_asm *as, const char *text, size_t len);

/* symtab.c / session */
asym *sym_get(vt_asm *as, const char *name, size_t len); /* find or create in file */
asym *sym_numeric_ref(vt_asm *as, const char *digits, size_t n, bool forward);
asym *sym_numeric_def(vt_asm *as, const char *digits, size_t n);
asym *sym_dot(vt_asm *as);
void sym_define_label(vt_asm *as, asym *s, uint32_t col);

/* expr.c */
typedef enum expr_mod { MOD_NONE, MOD_HI, MOD_LO, MOD_PCREL_HI, MOD_PCREL_LO } expr_mod;
/* Parse an expression (with an optional leading %modifier). Returns false
 * after reporting an error. */
bool parse_expr(vt_asm *as, cursor *c, aval *v, expr_mod *mod);
bool parse_expr_plain(vt_asm *as, cursor *c, aval *v); /* no modifiers */
static inline bool aval_is_const(const aval *v) { return !v->add && !v->sub; }
void aval_fold(aval *v);

/* section.c */
asec *cur_sec(vt_asm *as);
int sec_find_or_add(vt_asm *as, const char *name, size_t len, int flags_known, bool alloc,
                    bool write, bool exec, bool nobits);
bool emit_bytes(vt_asm *as, const void *p, size_t n, uint32_t col);
/* Whether the current section may grow by n bytes (sections and the total
 * of initialised data are limited to the 256 MiB program window). */
bool sec_room(vt_asm *as, uint64_t n, uint32_t col);
bool emit_word(vt_asm *as, uint32_t w);
uint32_t sec_pos(const asec *s);
void sec_align(vt_asm *as, uint32_t align, int fill, uint32_t max, uint32_t col);
afix *add_fix(vt_asm *as, fx_kind kind, uint8_t op, const aval *v, uint32_t col);

/* dwarf.c: .file/.loc, rows per instruction, .debug_* sections */
void asm_dot_file(vt_asm *as, cursor *c);
void asm_dot_loc(vt_asm *as, cursor *c);
void asm_line_row(vt_asm *as, asec *s);
struct vt_ew_section;
/* Appends .debug_line/.debug_abbrev/.debug_info to secs (room for 3);
 * returns the count added, -1 out of memory. */
int asm_debug_sections(vt_asm *as, struct vt_ew_section *secs, void **owned);

/* insn.c */
/* Assemble one instruction statement; c is after the mnemonic. */
void asm_instruction(vt_asm *as, const char *mn, size_t mlen, uint32_t mcol, cursor *c);
void asm_insn_directive(vt_asm *as, cursor *c); /* .insn */
/* Encode from a template; used by pseudo.c too. */
typedef struct insn_operand {
  int64_t value;
  bool fixup;
  fx_kind kind;
  aval v;
  uint32_t col;
  uint32_t hi_off;
} insn_operand;
/* Emits the instruction (after a regext prefix when a register operand is
 * above 31) and returns the offset of its word in the section. */
uint32_t emit_insn(vt_asm *as, uint16_t insn, const insn_operand *ops /* by operand id */);

/* pseudo.c */
/* Returns true if the statement was handled (including error reporting). */
bool asm_pseudo(vt_asm *as, const char *mn, size_t mlen, uint32_t mcol, cursor *c);
bool asm_pseudo_fallback(vt_asm *as, const char *mn, size_t mlen, cursor *c);
int parse_xreg_tok(vt_asm *as, cursor *c, bool fnames);

/* directive.c */
void asm_directive(vt_asm *as, const char *name, size_t len, uint32_t col, cursor *c);

/* kargs.c: kernel argument directives and the .vt.kernel_args section */
void asm_kargs_directive(vt_asm *as, bool arg, cursor *c);
/* The section's bytes (malloc'd; NULL and 0 when no kernel was declared);
 * -1 after reporting a kernel that is not a global function in g. */
int asm_kargs_section(vt_asm *as, const symtab *g, uint8_t **data, size_t *size);
void asm_kargs_free(vt_asm *as);

/* link.c */
int asm_link(vt_asm *as, uint8_t **elf, size_t *elf_size);
/* Value of an expression after layout; false (with an error if 'report')
 * when a symbol is undefined. */
bool resolve_value(vt_asm *as, afile *f, const aval *v, int64_t *out, uint32_t line,
                   uint32_t col, bool report);
/* Patch every fixup of one file, its sections placed at their addresses
 * (also used by vt_asm_one). */
void apply_fixups(vt_asm *as, afile *f);

#endif
