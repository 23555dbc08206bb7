/* spike_log.h - test-side parser for the commit logs of the Ventus spike
 * fork (`spike -l --log-commits`), both line formats of
 * formats-and-launch.md 9.2 / isa.md Appendix A. Test code, not library
 * code: header-only, static functions, used by test_sim_traces.c.
 *
 * A log is split into one record list per core (core N = warp N of the
 * workgroup). Only commit records ("core N: 3 0xPC (0xINSN) effects") are
 * kept; fetch/disassembly lines and "Executed K times" lines carry nothing
 * the commit records do not (spike prints one commit record per execution,
 * repeats included). SIMT-stack dumps are attached to the record they
 * follow, inline (new format) or on their own lines (old format). */
#ifndef VT_TEST_SPIKE_LOG_H
#define VT_TEST_SPIKE_LOG_H
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SL_MAX_CORES 64
#define SL_MAX_X 4
#define SL_MAX_CSR 8
#define SL_MAX_V 4
#define SL_MAX_MEM 64
#define SL_MAX_STACK 16
#define SL_MAX_ELEMS 32

typedef struct sl_vwrite {
  uint16_t reg;
  bool has_mask; /* new format: the SIMT mask is printed */
  uint32_t mask;
  unsigned nelem;               /* elements printed (the whole register) */
  uint32_t elem[SL_MAX_ELEMS];  /* elem[i] = lane i */
} sl_vwrite;

typedef struct sl_mem {
  uint32_t addr, value;
  uint8_t size; /* stores: 1, 2 or 4 from the digits printed; loads: 0 */
  bool store;
} sl_mem;

typedef struct sl_stack_entry {
  uint32_t r_pc, else_pc, else_mask;
} sl_stack_entry;

typedef struct sl_rec {
  unsigned line; /* 1-based line in the log */
  uint32_t pc, insn;
  unsigned nx;
  struct {
    uint16_t reg;
    uint32_t val;
  } x[SL_MAX_X];
  unsigned ncsr;
  struct {
    uint16_t csr;
    uint32_t val;
  } csr[SL_MAX_CSR];
  bool has_vctx; /* "e32 m1 lL" */
  unsigned sew, vl;
  unsigned nv;
  sl_vwrite v[SL_MAX_V];
  unsigned nmem;
  sl_mem mem[SL_MAX_MEM];
  bool has_simt; /* SIMT state after the instruction (opcode 0x5b) */
  uint32_t simt_mask, simt_npc;
  unsigned stack_size, nstack; /* entries listed top first */
  sl_stack_entry stack[SL_MAX_STACK];
} sl_rec;

typedef struct sl_core {
  sl_rec *r;
  size_t n, cap;
} sl_core;

typedef struct sl_log {
  sl_core core[SL_MAX_CORES];
  unsigned ncores;  /* highest core number seen + 1 */
  bool old_format;  /* a vector write without a mask was seen */
} sl_log;

static inline void sl_free(sl_log *log) {
  for (unsigned c = 0; c < SL_MAX_CORES; c++) free(log->core[c].r);
  memset(log, 0, sizeof *log);
}

/* ---- tokenizer over one line ---- */
typedef struct sl_tok {
  const char *s;
  size_t n;
} sl_tok;

static inline size_t sl_split(const char *s, size_t len, sl_tok *out, size_t max) {
  size_t n = 0, i = 0;
  while (i < len) {
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r')) i++;
    if (i >= len) break;
    size_t b = i;
    while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r') i++;
    if (n < max) out[n] = (sl_tok){s + b, i - b};
    n++;
  }
  return n;
}

static inline bool sl_is(const sl_tok *t, const char *lit) {
  return t->n == strlen(lit) && memcmp(t->s, lit, t->n) == 0;
}

static inline bool sl_hex(const char *s, size_t n, uint32_t *v) {
  uint32_t x = 0;
  if (n == 0 || n > 8) return false;
  for (size_t i = 0; i < n; i++) {
    int c = (unsigned char)s[i];
    if (!isxdigit(c)) return false;
    x = x * 16 + (uint32_t)(isdigit(c) ? c - '0' : tolower(c) - 'a' + 10);
  }
  *v = x;
  return true;
}
/* "0x..." with 1..8 digits */
static inline bool sl_hex0x(const sl_tok *t, uint32_t *v, unsigned *digits) {
  if (t->n < 3 || t->s[0] != '0' || t->s[1] != 'x') return false;
  if (digits) *digits = (unsigned)(t->n - 2);
  return sl_hex(t->s + 2, t->n - 2, v);
}
static inline bool sl_dec(const char *s, size_t n, unsigned *v) {
  unsigned x = 0;
  if (n == 0 || n > 9) return false;
  for (size_t i = 0; i < n; i++) {
    if (!isdigit((unsigned char)s[i])) return false;
    x = x * 10 + (unsigned)(s[i] - '0');
  }
  *v = x;
  return true;
}
/* register token "x12" / "v32" */
static inline bool sl_reg(const sl_tok *t, char kind, unsigned *r) {
  return t->n >= 2 && t->s[0] == kind && sl_dec(t->s + 1, t->n - 1, r);
}

/* SIMT dump tokens: "current mask: M current npc: P stack size: S" (any
 * subset, as the old format puts each on its own line) */
static inline size_t sl_simt(sl_rec *r, const sl_tok *t, size_t n, size_t i) {
  while (i + 2 < n) {
    uint32_t v;
    unsigned d;
    if (sl_is(&t[i], "current") && sl_is(&t[i + 1], "mask:") && sl_hex(t[i + 2].s, t[i + 2].n, &v)) {
      r->has_simt = true;
      r->simt_mask = v;
      i += 3;
    } else if (sl_is(&t[i], "current") && sl_is(&t[i + 1], "npc:") &&
               sl_hex(t[i + 2].s, t[i + 2].n, &v)) {
      r->has_simt = true;
      r->simt_npc = v;
      i += 3;
    } else if (sl_is(&t[i], "stack") && sl_is(&t[i + 1], "size:") &&
               sl_dec(t[i + 2].s, t[i + 2].n, &d)) {
      r->has_simt = true;
      r->stack_size = d;
      i += 3;
    } else {
      break;
    }
  }
  return i;
}

/* Parse the effects of a commit record, tokens t[i..n). Returns false with
 * a message on anything unknown. */
static inline bool sl_effects(sl_rec *r, const sl_tok *t, size_t n, size_t i, sl_log *log,
                              char *err, size_t errn) {
  while (i < n) {
    unsigned reg, digits;
    uint32_t v;
    const sl_tok *k = &t[i];
    if (sl_reg(k, 'x', &reg) && i + 1 < n && sl_hex0x(&t[i + 1], &v, NULL)) {
      if (r->nx < SL_MAX_X) r->x[r->nx].reg = (uint16_t)reg, r->x[r->nx++].val = v;
      i += 2;
    } else if (k->n > 2 && k->s[0] == 'c' && isdigit((unsigned char)k->s[1]) && i + 1 < n &&
               sl_hex0x(&t[i + 1], &v, NULL)) {
      /* cNNNN_name: the number is decimal */
      size_t u = 1;
      unsigned csr = 0;
      while (u < k->n && isdigit((unsigned char)k->s[u])) csr = csr * 10 + (unsigned)(k->s[u++] - '0');
      if (r->ncsr < SL_MAX_CSR) r->csr[r->ncsr].csr = (uint16_t)csr, r->csr[r->ncsr++].val = v;
      i += 2;
    } else if (k->n >= 2 && k->s[0] == 'e' && sl_dec(k->s + 1, k->n - 1, &reg) && i + 2 < n &&
               t[i + 1].s[0] == 'm' && t[i + 2].s[0] == 'l' &&
               sl_dec(t[i + 2].s + 1, t[i + 2].n - 1, &r->vl)) {
      r->has_vctx = true;
      r->sew = reg;
      i += 3;
    } else if (sl_reg(k, 'v', &reg) && i + 1 < n) {
      if (r->nv >= SL_MAX_V) {
        snprintf(err, errn, "more than %d vector writes", SL_MAX_V);
        return false;
      }
      sl_vwrite *w = &r->v[r->nv++];
      memset(w, 0, sizeof *w);
      w->reg = (uint16_t)reg;
      i++;
      uint32_t hi[SL_MAX_ELEMS];
      unsigned ne = 0;
      if (t[i].n == 8 && sl_hex(t[i].s, 8, &v) && i + 1 < n && t[i + 1].n == 10 &&
          sl_hex0x(&t[i + 1], &hi[0], NULL)) {
        /* new format: mask, then elements highest lane first */
        w->has_mask = true;
        w->mask = v;
        ne = 1;
        i += 2;
        while (i < n && t[i].n == 8 && sl_hex(t[i].s, 8, &v)) {
          if (ne >= SL_MAX_ELEMS) {
            snprintf(err, errn, "more than %d elements", SL_MAX_ELEMS);
            return false;
          }
          hi[ne++] = v;
          i++;
        }
      } else if (t[i].n > 2 && t[i].s[0] == '0' && t[i].s[1] == 'x' && (t[i].n - 2) % 8 == 0) {
        /* old format: one unseparated string, highest lane first */
        log->old_format = true;
        ne = (unsigned)((t[i].n - 2) / 8);
        if (ne > SL_MAX_ELEMS) {
          snprintf(err, errn, "more than %d elements", SL_MAX_ELEMS);
          return false;
        }
        for (unsigned e = 0; e < ne; e++)
          if (!sl_hex(t[i].s + 2 + 8 * e, 8, &hi[e])) {
            snprintf(err, errn, "bad vector value '%.*s'", (int)t[i].n, t[i].s);
            return false;
          }
        i++;
      } else {
        snprintf(err, errn, "bad vector write after 'v%u'", reg);
        return false;
      }
      w->nelem = ne;
      for (unsigned e = 0; e < ne; e++) w->elem[ne - 1 - e] = hi[e];
    } else if (sl_is(k, "mem") && i + 1 < n && sl_hex0x(&t[i + 1], &v, NULL)) {
      if (r->nmem >= SL_MAX_MEM) {
        snprintf(err, errn, "more than %d memory accesses", SL_MAX_MEM);
        return false;
      }
      sl_mem *m = &r->mem[r->nmem++];
      memset(m, 0, sizeof *m);
      m->addr = v;
      i += 2;
      if (i < n && sl_hex0x(&t[i], &v, &digits)) {
        m->store = true;
        m->value = v;
        m->size = digits <= 2 ? 1 : digits <= 4 ? 2 : 4;
        i++;
      }
    } else if (sl_is(k, "current")) {
      size_t j = sl_simt(r, t, n, i);
      if (j == i) {
        snprintf(err, errn, "bad SIMT dump");
        return false;
      }
      i = j;
    } else {
      snprintf(err, errn, "unknown effect '%.*s'", (int)k->n, k->s);
      return false;
    }
  }
  return true;
}

/* Parse a whole log. Returns 0, or -1 with "line N: reason" in err. */
static inline int sl_parse(const char *text, size_t len, sl_log *log, char *err, size_t errn) {
  memset(log, 0, sizeof *log);
  sl_rec *last = NULL; /* record the next SIMT/stack lines belong to */
  unsigned lineno = 0;
  size_t pos = 0;
  sl_tok t[160];
  char why[200];
  while (pos < len) {
    const char *s = text + pos;
    const char *nl = memchr(s, '\n', len - pos);
    size_t l = nl ? (size_t)(nl - s) : len - pos;
    pos += l + (nl ? 1 : 0);
    lineno++;
    size_t n = sl_split(s, l, t, sizeof t / sizeof t[0]);
    if (n == 0) continue;
    if (n > sizeof t / sizeof t[0]) {
      snprintf(err, errn, "line %u: too many tokens", lineno);
      return -1;
    }
    if (sl_is(&t[0], "[r_pc]")) {
      uint32_t a, b, c;
      if (!last || n != 6 || !sl_is(&t[2], "[else_pc]") || !sl_is(&t[4], "[else_mask]") ||
          !sl_hex(t[1].s, t[1].n, &a) || !sl_hex(t[3].s, t[3].n, &b) ||
          !sl_hex(t[5].s, t[5].n, &c)) {
        snprintf(err, errn, "line %u: bad SIMT-stack entry", lineno);
        return -1;
      }
      if (last->nstack < SL_MAX_STACK) last->stack[last->nstack++] = (sl_stack_entry){a, b, c};
      continue;
    }
    if (sl_is(&t[0], "current") || sl_is(&t[0], "stack")) { /* old format dump lines */
      if (!last || sl_simt(last, t, n, 0) != n) {
        snprintf(err, errn, "line %u: bad SIMT dump line", lineno);
        return -1;
      }
      continue;
    }
    unsigned core;
    if (n < 3 || !sl_is(&t[0], "core") || t[1].n < 2 || t[1].s[t[1].n - 1] != ':' ||
        !sl_dec(t[1].s, t[1].n - 1, &core) || core >= SL_MAX_CORES) {
      snprintf(err, errn, "line %u: not a spike log line", lineno);
      return -1;
    }
    if (sl_is(&t[2], "Executed")) continue; /* the repeats have their own commit records */
    if (!sl_is(&t[2], "3")) {                /* fetch/disassembly line */
      uint32_t pc;
      if (!sl_hex0x(&t[2], &pc, NULL)) {
        snprintf(err, errn, "line %u: unknown line kind", lineno);
        return -1;
      }
      continue;
    }
    uint32_t pc, insn;
    if (n < 5 || !sl_hex0x(&t[3], &pc, NULL) || t[4].n != 12 || t[4].s[0] != '(' ||
        t[4].s[11] != ')' || !sl_hex(t[4].s + 3, 8, &insn)) {
      snprintf(err, errn, "line %u: bad commit record", lineno);
      return -1;
    }
    sl_core *c = &log->core[core];
    if (c->n == c->cap) {
      size_t cap = c->cap ? 2 * c->cap : 256;
      sl_rec *p = realloc(c->r, cap * sizeof *p);
      if (!p) {
        snprintf(err, errn, "out of memory");
        return -1;
      }
      c->r = p;
      c->cap = cap;
    }
    sl_rec *r = &c->r[c->n++];
    memset(r, 0, sizeof *r);
    r->line = lineno;
    r->pc = pc;
    r->insn = insn;
    if (core + 1 > log->ncores) log->ncores = core + 1;
    if (!sl_effects(r, t, n, 5, log, why, sizeof why)) {
      snprintf(err, errn, "line %u: %s", lineno, why);
      return -1;
    }
    last = r;
  }
  return 0;
}

static inline int sl_load(const char *path, sl_log *log, char *err, size_t errn) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errn, "%s: cannot open", path);
    return -1;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap) {
      char *b = realloc(buf, 2 * cap);
      if (!b) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = b;
      cap *= 2;
    }
  }
  fclose(f);
  if (!buf) {
    snprintf(err, errn, "%s: out of memory", path);
    return -1;
  }
  char why[256];
  int rc = sl_parse(buf, n, log, why, sizeof why);
  free(buf);
  if (rc && snprintf(err, errn, "%s: %s", path, why) < 0) err[0] = 0;
  return rc;
}
#endif
