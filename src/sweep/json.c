/* JSON reading (a tree, or a cursor over a large document) and string
 * writing for vt sweep and vt report; see json.h. RFC 8259 syntax; strings
 * with \u escapes become UTF-8 (a lone surrogate is an error). */
#include "json.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

static int fail(json_cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(json_cursor *c, const char *fmt, ...) {
  if (c->err[0]) return -1; /* keep the first message */
  int n = snprintf(c->err, sizeof c->err, "byte %zu: ", (size_t)(c->s - c->start));
  va_list ap;
  va_start(ap, fmt);
  if (n > 0 && (size_t)n < sizeof c->err) vsnprintf(c->err + n, sizeof c->err - (size_t)n, fmt, ap);
  va_end(ap);
  return -1;
}

void json_cursor_init(json_cursor *c, const char *text, size_t len) {
  memset(c, 0, sizeof *c);
  c->s = c->start = text;
  c->end = text + len;
}

static void skip_ws(json_cursor *c) {
  while (c->s < c->end && (*c->s == ' ' || *c->s == '\t' || *c->s == '\n' || *c->s == '\r')) c->s++;
}

static int peek(json_cursor *c) {
  skip_ws(c);
  return c->s < c->end ? (unsigned char)*c->s : -1;
}

/* growing output buffer for strings */
typedef struct sbuf {
  char *p;
  size_t n, cap;
} sbuf;

static int sbuf_put(sbuf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 32;
    while (cap < b->n + n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) return -1;
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
  return 0;
}

static int hex4(json_cursor *c, unsigned *out) {
  if (c->end - c->s < 4) return fail(c, "truncated \\u escape");
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char h = c->s[i];
    v <<= 4;
    if (h >= '0' && h <= '9') v |= (unsigned)(h - '0');
    else if (h >= 'a' && h <= 'f') v |= (unsigned)(h - 'a' + 10);
    else if (h >= 'A' && h <= 'F') v |= (unsigned)(h - 'A' + 10);
    else return fail(c, "bad \\u escape");
  }
  c->s += 4;
  *out = v;
  return 0;
}

static int put_utf8(sbuf *b, unsigned cp) {
  char u[4];
  size_t n;
  if (cp < 0x80) u[0] = (char)cp, n = 1;
  else if (cp < 0x800) u[0] = (char)(0xc0 | cp >> 6), u[1] = (char)(0x80 | (cp & 63)), n = 2;
  else if (cp < 0x10000)
    u[0] = (char)(0xe0 | cp >> 12), u[1] = (char)(0x80 | ((cp >> 6) & 63)),
    u[2] = (char)(0x80 | (cp & 63)), n = 3;
  else
    u[0] = (char)(0xf0 | cp >> 18), u[1] = (char)(0x80 | ((cp >> 12) & 63)),
    u[2] = (char)(0x80 | ((cp >> 6) & 63)), u[3] = (char)(0x80 | (cp & 63)), n = 4;
  return sbuf_put(b, u, n);
}

static int escape(json_cursor *c, sbuf *b) {
  char e = *c->s++;
  static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
  const char *k = e ? strchr(from, e) : NULL;
  if (k) return sbuf_put(b, &to[k - from], 1);
  if (e != 'u') return fail(c, "bad escape \\%c", e);
  unsigned cp, lo;
  if (hex4(c, &cp)) return -1;
  if (cp >= 0xdc00 && cp < 0xe000) return fail(c, "lone low surrogate");
  if (cp >= 0xd800 && cp < 0xdc00) {
    if (c->end - c->s < 2 || c->s[0] != '\\' || c->s[1] != 'u') return fail(c, "lone high surrogate");
    c->s += 2;
    if (hex4(c, &lo)) return -1;
    if (lo < 0xdc00 || lo >= 0xe000) return fail(c, "bad surrogate pair");
    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
  }
  return put_utf8(b, cp);
}

/* a string at the cursor (after white space) into a malloc'd text */
static int read_string(json_cursor *c, char **out) {
  if (peek(c) != '"') return fail(c, "expected a string");
  c->s++;
  sbuf b = {0};
  if (sbuf_put(&b, "", 0)) return fail(c, "out of memory");
  for (;;) {
    const char *run = c->s;
    while (c->s < c->end && *c->s != '"' && *c->s != '\\' && (unsigned char)*c->s >= 0x20) c->s++;
    if (sbuf_put(&b, run, (size_t)(c->s - run))) goto oom;
    if (c->s >= c->end) {
      fail(c, "unterminated string");
      break;
    }
    if (*c->s == '"') {
      c->s++;
      *out = b.p;
      return 0;
    }
    if (*c->s != '\\') {
      fail(c, "control character in a string");
      break;
    }
    c->s++;
    if (c->s >= c->end) {
      fail(c, "unterminated string");
      break;
    }
    if (escape(c, &b) != 0) {
      if (!c->err[0]) goto oom;
      break;
    }
  }
  free(b.p);
  return -1;
oom:
  free(b.p);
  return fail(c, "out of memory");
}

static int read_number(json_cursor *c, json_value *v) {
  const char *p = c->s;
  if (p < c->end && *p == '-') p++;
  if (p >= c->end || *p < '0' || *p > '9') return fail(c, "bad number");
  if (*p == '0') p++;
  else
    while (p < c->end && *p >= '0' && *p <= '9') p++;
  if (p < c->end && *p == '.') {
    if (++p >= c->end || *p < '0' || *p > '9') return fail(c, "bad number");
    while (p < c->end && *p >= '0' && *p <= '9') p++;
  }
  if (p < c->end && (*p == 'e' || *p == 'E')) {
    p++;
    if (p < c->end && (*p == '+' || *p == '-')) p++;
    if (p >= c->end || *p < '0' || *p > '9') return fail(c, "bad number");
    while (p < c->end && *p >= '0' && *p <= '9') p++;
  }
  size_t n = (size_t)(p - c->s);
  v->text = malloc(n + 1);
  if (!v->text) return fail(c, "out of memory");
  memcpy(v->text, c->s, n);
  v->text[n] = 0;
  v->number = strtod(v->text, NULL);
  v->type = JSON_NUMBER;
  c->s = p;
  return 0;
}

static int literal(json_cursor *c, const char *word) {
  size_t n = strlen(word);
  if ((size_t)(c->end - c->s) < n || memcmp(c->s, word, n) != 0) return fail(c, "unexpected character");
  c->s += n;
  return 0;
}

int json_enter(json_cursor *c, char open) {
  if (peek(c) != open) return fail(c, "expected '%c'", open);
  if (c->depth >= JSON_MAX_DEPTH) return fail(c, "nested deeper than %d", JSON_MAX_DEPTH);
  c->s++;
  c->depth++;
  /* the first item needs no comma (next() clears the flag before any
   * nested value is read, so one flag serves every level) */
  skip_ws(c);
  c->first = !(c->s < c->end && *c->s == (open == '{' ? '}' : ']'));
  return 0;
}

/* before an item: ',' unless it is the first; 1 item follows, 0 closed */
static int next(json_cursor *c, char close) {
  int ch = peek(c);
  if (c->first) {
    c->first = false;
    return 1;
  }
  if (ch == close) {
    c->s++;
    c->depth--;
    return 0;
  }
  if (ch != ',') return fail(c, "expected ',' or '%c'", close);
  c->s++;
  if (peek(c) == close) return fail(c, "trailing ','");
  return 1;
}

int json_next_key(json_cursor *c, char **key) {
  int rc = next(c, '}');
  if (rc <= 0) return rc;
  if (read_string(c, key) != 0) return -1;
  if (peek(c) != ':') {
    free(*key);
    *key = NULL;
    return fail(c, "expected ':'");
  }
  c->s++;
  return 1;
}

int json_next_item(json_cursor *c) { return next(c, ']'); }

static int push(json_value *v, size_t *cap) {
  if (v->n == *cap) {
    size_t nc = *cap ? 2 * *cap : 4;
    json_value *it = realloc(v->items, nc * sizeof *it);
    if (!it) return -1;
    v->items = it;
    if (v->type == JSON_OBJECT) {
      char **k = realloc(v->keys, nc * sizeof *k);
      if (!k) return -1;
      v->keys = k;
    }
    *cap = nc;
  }
  memset(&v->items[v->n], 0, sizeof v->items[0]);
  return 0;
}

static int read_container(json_cursor *c, json_value *v, char open) {
  v->type = open == '{' ? JSON_OBJECT : JSON_ARRAY;
  if (json_enter(c, open) != 0) return -1;
  size_t cap = 0;
  for (;;) {
    char *key = NULL;
    int rc = open == '{' ? json_next_key(c, &key) : json_next_item(c);
    if (rc <= 0) return rc;
    if (push(v, &cap) != 0) {
      free(key);
      return fail(c, "out of memory");
    }
    if (open == '{') v->keys[v->n] = key;
    v->n++;
    if (json_read(c, &v->items[v->n - 1]) != 0) return -1;
  }
}

int json_read(json_cursor *c, json_value *v) {
  memset(v, 0, sizeof *v);
  int ch = peek(c);
  switch (ch) {
  case '{':
  case '[': return read_container(c, v, (char)ch);
  case '"': v->type = JSON_STRING; return read_string(c, &v->text);
  case 't': v->type = JSON_BOOL, v->boolean = true; return literal(c, "true");
  case 'f': v->type = JSON_BOOL; return literal(c, "false");
  case 'n': return literal(c, "null");
  case -1: return fail(c, "unexpected end");
  default: return read_number(c, v);
  }
}

int json_skip(json_cursor *c) {
  json_value v;
  int rc = json_read(c, &v);
  json_free(&v);
  return rc;
}

int json_finish(json_cursor *c) { return peek(c) == -1 ? 0 : fail(c, "text after the value"); }

int json_parse(const char *text, size_t len, json_value *v, char *err, size_t errn) {
  json_cursor c;
  json_cursor_init(&c, text, len);
  if (json_read(&c, v) == 0 && json_finish(&c) == 0) return 0;
  json_free(v);
  snprintf(err, errn, "%s", c.err);
  return -1;
}

void json_free(json_value *v) {
  if (!v) return;
  for (size_t i = 0; i < v->n; i++) {
    json_free(&v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->text);
  memset(v, 0, sizeof *v);
}

const json_value *json_get(const json_value *obj, const char *key) {
  if (!obj || obj->type != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < obj->n; i++)
    if (!strcmp(obj->keys[i], key)) return &obj->items[i];
  return NULL;
}

const char *json_str(const json_value *v) { return v && v->type == JSON_STRING ? v->text : NULL; }

void json_write_string(FILE *f, const char *s, bool html_safe) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
    else if (ch == '\n') fputs("\\n", f);
    else if (ch < 0x20 || (html_safe && (ch == '<' || ch == '>' || ch == '&'))) fprintf(f, "\\u%04x", ch);
    else fputc(ch, f);
  }
  fputc('"', f);
}
