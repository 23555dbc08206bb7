/* OpenCL C printf on the host (rt_printf_format.h, docs/printf.md). Each
 * conversion specification is parsed and checked against OpenCL C 1.2
 * section 6.12.13; numbers are then formatted by the C library's snprintf
 * from a specification rebuilt from the checked fields, so no text from the
 * device ever reaches snprintf as a format. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_printf_format.h"

void rt_text_init(rt_text *t, size_t limit) {
  memset(t, 0, sizeof *t);
  t->limit = limit;
}

void rt_text_put(rt_text *t, const char *s, size_t n) {
  if (n > t->limit - t->len) {
    n = t->limit - t->len;
    t->cut = true;
  }
  if (n == 0) return;
  if (t->len + n > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + n) cap *= 2;
    char *p = realloc(t->p, cap);
    if (!p) {
      t->cut = true;
      return;
    }
    t->p = p;
    t->cap = cap;
  }
  memcpy(t->p + t->len, s, n);
  t->len += n;
}

void rt_text_free(rt_text *t) {
  free(t->p);
  memset(t, 0, sizeof *t);
}

static void put_spaces(rt_text *t, size_t n) {
  static const char spaces[] = "                                ";
  for (; n > 32; n -= 32) rt_text_put(t, spaces, 32);
  rt_text_put(t, spaces, n);
}

/* "[vt: WHAT "SPEC"]" with the specification as written */
static void put_marker(rt_text *t, const char *what, const char *spec, size_t n) {
  rt_text_put(t, "[vt: ", 5);
  rt_text_put(t, what, strlen(what));
  rt_text_put(t, " \"", 2);
  rt_text_put(t, spec, n);
  rt_text_put(t, "\"]", 2);
}

enum length { LEN_NONE, LEN_HH, LEN_H, LEN_HL, LEN_L };

typedef struct conv_spec {
  bool minus, plus, space, hash, zero;
  int width, prec; /* -1: absent */
  unsigned vec;    /* 0: scalar; else 2, 3, 4, 8 or 16 elements */
  enum length len;
  char conv;
} conv_spec;

static bool is_int_conv(char c) { return c && strchr("diouxX", c); }
static bool is_float_conv(char c) { return c && strchr("aAeEfFgG", c); }

/* Optional decimal digits at f[*i] into *out; false for '*' (not OpenCL
 * C) or a value above RT_PRINTF_MAX_FIELD. */
static bool read_number(const char *f, size_t n, size_t *i, int *out) {
  if (*i < n && f[*i] == '*') return false;
  if (*i >= n || f[*i] < '0' || f[*i] > '9') return true;
  unsigned v = 0;
  bool ok = true;
  for (; *i < n && f[*i] >= '0' && f[*i] <= '9'; (*i)++) {
    v = v * 10 + (unsigned)(f[*i] - '0');
    if (v > RT_PRINTF_MAX_FIELD) {
      ok = false;
      v = RT_PRINTF_MAX_FIELD;
    }
  }
  *out = (int)v;
  return ok;
}

/* The combinations OpenCL C defines: a vector needs a length modifier and
 * a numeric conversion (hh not for floating ones, h = half, hl = float,
 * l = double); hl only with a vector; c, s, p take none; a scalar floating
 * conversion takes a float, or with l a double (what vt cc records for a
 * double argument, docs/printf.md). */
static bool valid_combination(const conv_spec *s) {
  if (s->vec) {
    if (s->len == LEN_NONE) return false;
    if (is_int_conv(s->conv)) return true;
    return is_float_conv(s->conv) && s->len != LEN_HH;
  }
  if (is_int_conv(s->conv)) return s->len != LEN_HL;
  if (is_float_conv(s->conv)) return s->len == LEN_NONE || s->len == LEN_L;
  return s->conv && strchr("csp", s->conv) && s->len == LEN_NONE;
}

/* Parses the specification after a '%' (f[*i] is the first character after
 * it). On failure *i is past the offending character. */
static bool parse_spec(const char *f, size_t n, size_t *i, conv_spec *s) {
  memset(s, 0, sizeof *s);
  s->width = s->prec = -1;
  for (; *i < n && f[*i] && strchr("-+ #0", f[*i]); (*i)++) {
    char c = f[*i];
    s->minus |= c == '-';
    s->plus |= c == '+';
    s->space |= c == ' ';
    s->hash |= c == '#';
    s->zero |= c == '0';
  }
  bool ok = read_number(f, n, i, &s->width);
  if (ok && *i < n && f[*i] == '.') {
    (*i)++;
    s->prec = 0;
    ok = read_number(f, n, i, &s->prec);
  }
  if (ok && *i < n && f[*i] == 'v') {
    int v = -1;
    (*i)++;
    ok = read_number(f, n, i, &v) && (v == 2 || v == 3 || v == 4 || v == 8 || v == 16);
    s->vec = ok ? (unsigned)v : 0;
  }
  if (ok && *i < n && (f[*i] == 'h' || f[*i] == 'l')) {
    char next = *i + 1 < n ? f[*i + 1] : 0;
    if (f[*i] == 'l') {
      s->len = LEN_L;
      ok = next != 'l'; /* ll is reserved */
    } else {
      s->len = next == 'h' ? LEN_HH : next == 'l' ? LEN_HL : LEN_H;
    }
    *i += s->len == LEN_HH || s->len == LEN_HL ? 2 : 1;
  } else if (ok && *i < n && f[*i] && strchr("jztL", f[*i])) {
    ok = false; /* C99 length modifiers OpenCL C reserves */
  }
  if (!ok) { /* the marker shows the whole specification as written */
    while (*i < n && f[*i] && strchr("-+ #0123456789.*vhljztL", f[*i])) (*i)++;
    if (*i < n) (*i)++;
    return false;
  }
  if (*i >= n) return false; /* the format ends inside the specification */
  s->conv = f[(*i)++];
  return valid_combination(s);
}

/* bytes of one element as recorded */
static unsigned element_bytes(const conv_spec *s) {
  if (is_float_conv(s->conv) && s->vec) return s->len == LEN_H ? 2 : s->len == LEN_HL ? 4 : 8;
  if (is_int_conv(s->conv)) {
    if (!s->vec) return s->len == LEN_L ? 8 : 4;
    return s->len == LEN_HH ? 1 : s->len == LEN_H ? 2 : s->len == LEN_HL ? 4 : 8;
  }
  if (is_float_conv(s->conv)) return s->len == LEN_L ? 8 : 4; /* a double, a float */
  return 4; /* c, s, p */
}

static uint64_t load_le(const uint8_t *p, unsigned n) {
  uint64_t v = 0;
  for (unsigned i = n; i-- > 0;) v = v << 8 | p[i];
  return v;
}

/* "%" + flags + width + precision; the caller appends the rest */
static size_t spec_prefix(char *out, const conv_spec *s, bool hash_ok) {
  size_t k = 0;
  out[k++] = '%';
  if (s->minus) out[k++] = '-';
  if (s->plus) out[k++] = '+';
  if (s->space) out[k++] = ' ';
  if (s->hash && hash_ok) out[k++] = '#';
  if (s->zero) out[k++] = '0';
  if (s->width >= 0) k += (size_t)snprintf(out + k, 8, "%d", s->width);
  if (s->prec >= 0) k += (size_t)snprintf(out + k, 9, ".%d", s->prec);
  return k;
}

/* an integer of `size` bytes (the value converted to that type, as C's hh
 * and h ask for), signed for d and i */
static void format_int(rt_text *t, const conv_spec *s, uint64_t raw, unsigned size) {
  char spec[40], buf[2 * RT_PRINTF_MAX_FIELD + 64];
  size_t k = spec_prefix(spec, s, strchr("oxX", s->conv) != NULL); /* # is undefined for d i u */
  snprintf(spec + k, sizeof spec - k, "ll%c", s->conv);
  uint64_t mask = size == 8 ? ~0ull : (1ull << (8 * size)) - 1;
  raw &= mask;
  int n;
  if (s->conv == 'd' || s->conv == 'i') {
    bool negative = raw >> (8 * size - 1) & 1;
    long long v = negative ? -(long long)(~raw & mask) - 1 : (long long)raw;
    n = snprintf(buf, sizeof buf, spec, v);
  } else {
    n = snprintf(buf, sizeof buf, spec, (unsigned long long)raw);
  }
  if (n > 0) rt_text_put(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static double half_to_double(uint16_t h) {
  int exp = h >> 10 & 31, man = h & 1023;
  double v = exp == 31 ? (man ? NAN : INFINITY)
             : exp == 0 ? ldexp(man, -24)
                        : ldexp(man + 1024, exp - 25);
  return copysign(v, h & 0x8000 ? -1.0 : 1.0);
}

/* a floating-point element of 2, 4 or 8 bytes, widened exactly to double */
static void format_float(rt_text *t, const conv_spec *s, uint64_t raw, unsigned size) {
  double v;
  if (size == 2) {
    v = half_to_double((uint16_t)raw);
  } else if (size == 4) {
    uint32_t w = (uint32_t)raw;
    float f;
    memcpy(&f, &w, 4);
    v = f;
  } else {
    memcpy(&v, &raw, 8);
  }
  char spec[40], buf[2 * RT_PRINTF_MAX_FIELD + 400];
  size_t k = spec_prefix(spec, s, true);
  snprintf(spec + k, sizeof spec - k, "%c", s->conv);
  int n = snprintf(buf, sizeof buf, spec, v);
  if (n > 0) rt_text_put(t, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* text padded with spaces to the field width (flags other than - do not
 * apply to c, s and p) */
static void put_field(rt_text *t, const conv_spec *s, const char *text, size_t n) {
  size_t w = s->width > 0 ? (size_t)s->width : 0;
  if (!s->minus && w > n) put_spaces(t, w - n);
  rt_text_put(t, text, n);
  if (s->minus && w > n) put_spaces(t, w - n);
}

static void format_string(rt_text *t, const conv_spec *s, uint32_t addr, rt_devstr_fn str,
                          void *user) {
  char buf[RT_PRINTF_MAX_STRING];
  size_t max = s->prec >= 0 ? (size_t)s->prec : sizeof buf;
  if (max == 0) { /* precision 0: nothing is read */
    put_field(t, s, "", 0);
    return;
  }
  long n = str ? str(user, addr, buf, max) : -1;
  if (n < 0) {
    char m[96];
    snprintf(m, sizeof m, "[vt: the %%s argument 0x%08x is not readable by the host]", addr);
    rt_text_put(t, m, strlen(m));
    return;
  }
  put_field(t, s, buf, (size_t)n);
  if ((size_t)n == max && s->prec < 0) {
    char m[96];
    snprintf(m, sizeof m, "[vt: no NUL within %u bytes of the %%s argument 0x%08x]",
             RT_PRINTF_MAX_STRING, addr);
    rt_text_put(t, m, strlen(m));
  }
}

/* takes the argument of `size` bytes at the next multiple of `align` */
static const uint8_t *take(const uint8_t *p, size_t n, size_t *cur, size_t size, size_t align) {
  size_t at = (*cur + align - 1) / align * align;
  if (at > n || n - at < size) return NULL;
  *cur = at + size;
  return p + at;
}

static void format_conversion(rt_text *t, const conv_spec *s, const uint8_t *payload, size_t plen,
                              size_t *cur, rt_devstr_fn str, void *user, const char *text,
                              size_t text_len) {
  unsigned eb = element_bytes(s);
  unsigned count = s->vec ? s->vec : 1, stored = count == 3 ? 4 : count;
  const uint8_t *a = take(payload, plen, cur, (eb * stored + 3) / 4 * 4, eb == 8 ? 8 : 4);
  if (!a) {
    put_marker(t, "no argument for", text, text_len);
    return;
  }
  for (unsigned e = 0; e < count; e++) {
    if (e) rt_text_put(t, ",", 1); /* OpenCL C: elements separated by commas */
    uint64_t raw = load_le(a + e * eb, eb);
    if (is_int_conv(s->conv)) {
      unsigned size = s->vec || s->len == LEN_L ? eb : s->len == LEN_HH ? 1 : s->len == LEN_H ? 2 : 4;
      format_int(t, s, raw, size);
    } else if (is_float_conv(s->conv)) {
      format_float(t, s, raw, eb);
    } else if (s->conv == 'c') {
      char c = (char)(raw & 0xff);
      put_field(t, s, &c, 1);
    } else if (s->conv == 's') {
      format_string(t, s, (uint32_t)raw, str, user);
    } else {
      char p[16];
      int n = snprintf(p, sizeof p, "0x%08x", (unsigned)raw);
      put_field(t, s, p, (size_t)n);
    }
  }
}

void rt_printf_format(const char *fmt, size_t fmt_len, const uint8_t *payload, size_t payload_len,
                      rt_devstr_fn str, void *user, rt_text *out) {
  size_t cur = 4; /* word 0 is the format address */
  size_t i = 0;
  while (i < fmt_len) {
    const char *pct = memchr(fmt + i, '%', fmt_len - i);
    size_t start = pct ? (size_t)(pct - fmt) : fmt_len;
    rt_text_put(out, fmt + i, start - i);
    if (!pct) return;
    i = start + 1;
    if (i < fmt_len && fmt[i] == '%') {
      rt_text_put(out, "%", 1);
      i++;
      continue;
    }
    conv_spec s;
    if (!parse_spec(fmt, fmt_len, &i, &s)) {
      /* the arguments after it cannot be located: the rest is copied */
      put_marker(out, "unsupported printf conversion", fmt + start, i - start);
      rt_text_put(out, fmt + i, fmt_len - i);
      return;
    }
    format_conversion(out, &s, payload, payload_len, &cur, str, user, fmt + start, i - start);
  }
}
