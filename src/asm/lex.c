/* Lexical layer: splits source text into statements (comments blanked so
 * columns stay right, ';' separates statements) and scans identifiers,
 * numbers and string literals. */
#include <stdlib.h>
#include <string.h>

#include "asm_internal.h"

size_t scan_ident(const char *s) {
  size_t n = 0;
  if (!is_ident_start(s[0])) return 0;
  while (is_ident_char(s[n])) n++;
  return n;
}

static int digit_val(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return 99;
}

static int scan_escape(const char **pp) {
  const char *p = *pp; /* after the backslash */
  int v;
  switch (*p) {
  case 'n': v = '\n'; p++; break;
  case 't': v = '\t'; p++; break;
  case 'r': v = '\r'; p++; break;
  case 'b': v = '\b'; p++; break;
  case 'f': v = '\f'; p++; break;
  case 'v': v = '\v'; p++; break;
  case 'a': v = '\a'; p++; break;
  case 'e': v = 27; p++; break;
  case 'x': case 'X':
    p++;
    v = 0;
    while (digit_val(*p) < 16) v = (v * 16 + digit_val(*p++)) & 0xff;
    break;
  default:
    if (*p >= '0' && *p <= '7') {
      v = 0;
      for (int i = 0; i < 3 && *p >= '0' && *p <= '7'; i++) v = v * 8 + (*p++ - '0');
      v &= 0xff;
    } else if (*p) {
      v = (unsigned char)*p++;
    } else {
      v = '\\';
    }
  }
  *pp = p;
  return v;
}

bool scan_number(cursor *c, int64_t *out) {
  const char *p = c->s;
  uint64_t v = 0;
  if (*p == '\'') {
    p++;
    if (*p == '\\') {
      p++;
      v = (uint64_t)scan_escape(&p);
    } else if (*p) {
      v = (unsigned char)*p++;
    } else {
      return false;
    }
    if (*p == '\'') p++;
    c->s = p;
    *out = (int64_t)v;
    return true;
  }
  if (*p < '0' || *p > '9') return false;
  int base = 10;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
    base = 16;
    p += 2;
    if (digit_val(*p) >= 16) return false;
  } else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B') && (p[2] == '0' || p[2] == '1')) {
    base = 2;
    p += 2;
  } else if (p[0] == '0') {
    base = 8;
  }
  while (digit_val(*p) < base) v = v * (uint64_t)base + (uint64_t)digit_val(*p++);
  if (is_ident_char(*p)) return false; /* 12ab, 09 */
  c->s = p;
  *out = (int64_t)v;
  return true;
}

bool scan_string(vt_asm *as, cursor *c, abuf *out) {
  const char *p = c->s + 1;
  for (;;) {
    char ch = *p;
    if (ch == 0) {
      asm_error(as, cur_col(c), "unterminated string");
      c->s = p;
      return false;
    }
    if (ch == '"') break;
    if (ch == '\\') {
      p++;
      uint8_t b = (uint8_t)scan_escape(&p);
      if (!abuf_put(out, &b, 1)) as->oom = true;
    } else {
      if (!abuf_put(out, &ch, 1)) as->oom = true;
      p++;
    }
  }
  c->s = p + 1;
  return true;
}

/* Copy one physical line into the statement buffer, blanking comments.
 * 'in_comment' carries an open block comment across lines. */
static size_t prepare_line(vt_asm *as, const char *src, size_t n, bool *in_comment) {
  if (n + 1 > as->stmt_cap) {
    size_t cap = as->stmt_cap ? as->stmt_cap : 256;
    while (cap < n + 1) cap *= 2;
    char *p = realloc(as->stmt, cap);
    if (!p) {
      as->oom = true;
      return 0;
    }
    as->stmt = p;
    as->stmt_cap = cap;
  }
  char *d = as->stmt;
  memcpy(d, src, n);
  d[n] = 0;
  size_t i = 0;
  while (i < n) {
    if (*in_comment) {
      if (d[i] == '*' && i + 1 < n && d[i + 1] == '/') {
        d[i] = d[i + 1] = ' ';
        i += 2;
        *in_comment = false;
      } else {
        d[i++] = ' ';
      }
      continue;
    }
    char ch = d[i];
    if (ch == '"') { /* skip the string */
      i++;
      while (i < n && d[i] != '"') i += (d[i] == '\\' && i + 1 < n) ? 2 : 1;
      if (i < n) i++;
    } else if (ch == '\'') {
      i++;
      if (i < n && d[i] == '\\') i++;
      if (i < n) i++;
      if (i < n && d[i] == '\'') i++;
    } else if (ch == '#' || (ch == '/' && i + 1 < n && d[i + 1] == '/')) {
      d[i] = 0;
      return i;
    } else if (ch == '/' && i + 1 < n && d[i + 1] == '*') {
      d[i] = d[i + 1] = ' ';
      i += 2;
      *in_comment = true;
    } else if (ch == '\r' || ch == '\f' || ch == '\v') {
      d[i++] = ' ';
    } else if (ch == ';') {
      d[i++] = 0; /* statement separator */
    } else {
      i++;
    }
  }
  return n;
}

void asm_run_text(vt_asm *as, const char *text, size_t len) {
  bool in_comment = false;
  size_t pos = 0;
  as->line = 0;
  as->ended = false;
  while (pos < len && !as->oom && !as->ended) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
    as->line++;
    size_t used = prepare_line(as, text + pos, n, &in_comment);
    if (as->oom) break;
    /* statements are separated by NULs inside [stmt, stmt + used) */
    const char *p = as->stmt, *end = as->stmt + used;
    as->line_text = as->stmt;
    while (p <= end && !as->ended) {
      cursor c = {p, as->stmt};
      skip_ws(&c);
      if (*c.s) asm_statement(as, &c);
      if (asm_too_many_errors(as)) return;
      p += strlen(p) + 1;
    }
    pos += n + 1;
  }
}
