/* The operands of debugger commands: values (numbers, symbols, registers
 * of the current warp, pc, with + and - offsets), memory addresses in the
 * three spaces (ADDR, lds:ADDR, priv:LANE:ADDR) and breakpoint conditions
 * (warp=N wg=N sm=N). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "dbg_internal.h"
#include "util/parse.h"

char *dbg_trim(char *s) {
  while (isspace((unsigned char)*s)) s++;
  size_t n = strlen(s);
  while (n && isspace((unsigned char)s[n - 1])) s[--n] = 0;
  return s;
}

static int value(vt_dbg *d, const char *s, uint32_t *v, int depth, char *err, size_t errn);

/* *TERM or *(EXPR): the 32-bit word there, as the current warp sees memory */
static int deref(vt_dbg *d, const char *s, size_t n, uint32_t *v, int depth, char *err,
                 size_t errn) {
  char buf[128];
  if (n >= sizeof buf || depth > 8) {
    snprintf(err, errn, "expression too long");
    return -1;
  }
  memcpy(buf, s, n);
  buf[n] = 0;
  char *inner = buf;
  size_t len = strlen(inner);
  if (inner[0] == '(' && len >= 2 && inner[len - 1] == ')') inner[len - 1] = 0, inner++;
  uint32_t addr;
  if (value(d, inner, &addr, depth + 1, err, errn) != 0) return -1;
  uint8_t b[4];
  vt_error e;
  if (vt_debug_mem_read(d->dev, d->cur, VT_SPACE_GLOBAL, 0, addr, b, 4, &e) != VT_OK) {
    snprintf(err, errn, "%s", e.message);
    return -1;
  }
  *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return 0;
}

/* one term: number, register, pc or symbol */
static int term(vt_dbg *d, const char *s, size_t n, uint32_t *v, char *err, size_t errn) {
  char buf[128];
  if (n == 0 || n >= sizeof buf) {
    snprintf(err, errn, "missing or too long value");
    return -1;
  }
  memcpy(buf, s, n);
  buf[n] = 0;
  const char *t = buf[0] == '$' ? buf + 1 : buf;
  uint64_t u;
  if (isdigit((unsigned char)t[0])) {
    if (vt_parse_u64(t, &u) != 0 || u > 0xffffffffu) {
      snprintf(err, errn, "bad number '%s'", buf);
      return -1;
    }
    *v = (uint32_t)u;
    return 0;
  }
  int r = vt_parse_xreg(t, strlen(t), false);
  if (r >= 0 || !strcmp(t, "pc")) {
    if (!d->cur) {
      snprintf(err, errn, "no warp is selected (the program is not running)");
      return -1;
    }
    vt_warp_info wi;
    vt_warp_get_info(d->cur, &wi);
    *v = r >= 0 ? vt_warp_get_x(d->cur, (unsigned)r) : wi.pc;
    return 0;
  }
  if (dbg_symbol(d, t, v, NULL)) return 0;
  snprintf(err, errn, "no symbol '%s'%s", buf, d->nelfs ? "" : " (no program with symbols loaded)");
  return -1;
}

/* the length of the term at s: up to a space, + or - outside parentheses */
static size_t term_length(const char *s) {
  size_t n = 0;
  int paren = 0;
  while (s[n] && (paren > 0 || (!isspace((unsigned char)s[n]) && s[n] != '+' && s[n] != '-'))) {
    paren += s[n] == '(' ? 1 : s[n] == ')' ? -1 : 0;
    n++;
  }
  return n;
}

static int value(vt_dbg *d, const char *s, uint32_t *v, int depth, char *err, size_t errn) {
  while (isspace((unsigned char)*s)) s++;
  bool neg = *s == '-';
  if (neg) s++;
  uint32_t total = 0;
  for (bool first = true;; first = false) {
    while (isspace((unsigned char)*s)) s++;
    bool star = *s == '*';
    if (star) s++;
    size_t n = term_length(s);
    uint32_t t;
    if ((star ? deref(d, s, n, &t, depth, err, errn) : term(d, s, n, &t, err, errn)) != 0)
      return -1;
    total = first && neg ? 0u - t : total + (neg && !first ? 0u - t : t);
    s += n;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) break;
    if (*s != '+' && *s != '-') {
      snprintf(err, errn, "unexpected '%s'", s);
      return -1;
    }
    neg = *s == '-';
    s++;
  }
  *v = total;
  return 0;
}

int dbg_parse_value(vt_dbg *d, const char *s, uint32_t *v, char *err, size_t errn) {
  return value(d, s, v, 0, err, errn);
}

int dbg_parse_address(vt_dbg *d, const char *s, vt_mem_space *space, unsigned *lane,
                      uint32_t *addr, char *err, size_t errn) {
  while (isspace((unsigned char)*s)) s++;
  *space = VT_SPACE_GLOBAL;
  *lane = 0;
  if (!strncmp(s, "lds:", 4)) {
    *space = VT_SPACE_LOCAL;
    s += 4;
  } else if (!strncmp(s, "priv:", 5)) {
    char *end;
    unsigned long l = strtoul(s + 5, &end, 0);
    if (end == s + 5 || *end != ':' || l >= VT_MAX_LANES) {
      snprintf(err, errn, "expected priv:LANE:ADDR with a lane below %d", VT_MAX_LANES);
      return -1;
    }
    *space = VT_SPACE_PRIVATE;
    *lane = (unsigned)l;
    s = end + 1;
  }
  if (*space != VT_SPACE_GLOBAL && !d->cur) {
    snprintf(err, errn, "local and private memory need a running warp");
    return -1;
  }
  return dbg_parse_value(d, s, addr, err, errn);
}

int dbg_parse_cond(const char *s, dbg_cond *c, char *err, size_t errn) {
  *c = (dbg_cond){-1, -1, -1};
  bool any = false;
  while (*s) {
    while (*s && (isspace((unsigned char)*s) || *s == ',' || *s == '&')) s++;
    if (!strncmp(s, "and", 3) && (isspace((unsigned char)s[3]) || !s[3])) {
      s += 3;
      continue;
    }
    if (!*s) break;
    int *slot = !strncmp(s, "warp=", 5) ? &c->warp : !strncmp(s, "wg=", 3) ? &c->wg
              : !strncmp(s, "sm=", 3)   ? &c->sm   : NULL;
    if (!slot) {
      snprintf(err, errn, "bad condition '%s' (expected warp=N, wg=N or sm=N)", s);
      return -1;
    }
    s = strchr(s, '=') + 1;
    char *end;
    long v = strtol(s, &end, 0);
    if (end == s || v < 0 || v > 0x7fffffff) {
      snprintf(err, errn, "bad number in condition '%s'", s);
      return -1;
    }
    *slot = (int)v;
    any = true;
    s = end;
  }
  if (!any) {
    snprintf(err, errn, "empty condition (expected warp=N, wg=N or sm=N)");
    return -1;
  }
  return 0;
}
