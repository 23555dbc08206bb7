/* Device printf formats through the real device path: the host builds a
 * table of records (format address + argument bytes laid out by the rule
 * of docs/printf.md) in a device buffer; the ptable kernel
 * (tests/kernels/runtime.s) hands each to vt_vprintf (vtprintf.s), which
 * appends it to the print buffer; the runtime formats the records after the
 * launch. Every line is compared with the host C library's snprintf on the
 * same values (a float argument widened to double as a C call does; vector
 * elements each through snprintf, joined by commas as OpenCL C specifies),
 * or with hand-written text for %p, the OpenCL C specification's examples
 * and the markers. A last test drives the formatter directly with random
 * formats and argument lengths. */
#include <float.h>
#include <math.h>

#include "check.h"
#include "rt_test_util.h"
#include "runtime/rt_printf_format.h"

#define TABLE_SIZE (128u * 1024u)
#define STRINGS_AT (64u * 1024u) /* entries below, strings above */

typedef struct text {
  char *p;
  size_t len, cap;
} text;

static void text_add(text *t, const char *s, size_t n) {
  if (t->len + n + 1 > t->cap) {
    size_t cap = 2 * (t->len + n + 1);
    char *p = realloc(t->p, cap);
    if (!p) abort();
    t->p = p;
    t->cap = cap;
  }
  memcpy(t->p + t->len, s, n);
  t->len += n;
  t->p[t->len] = 0;
}

static void collect(void *user, const char *s, size_t n) { text_add(user, s, n); }

typedef struct table {
  uint8_t bytes[TABLE_SIZE];
  uint32_t base; /* device address of the table buffer */
  size_t entries, strings;
  uint32_t count;
  text expected;
} table;

typedef struct payload {
  uint8_t b[512];
  size_t n;
} payload;

/* a NUL-terminated string in the table's string area; its device address */
static uint32_t add_string(table *t, const char *s, size_t n) {
  if (t->strings + n + 1 > TABLE_SIZE) abort();
  memcpy(t->bytes + t->strings, s, n);
  t->bytes[t->strings + n] = 0;
  uint32_t addr = t->base + (uint32_t)t->strings;
  t->strings += n + 1;
  return addr;
}

/* the layout rule under test, stated independently: each argument at the
 * next multiple of its alignment, counted from the format word */
static void put(payload *p, const void *v, size_t n, size_t align) {
  p->n = (p->n + align - 1) / align * align;
  if (p->n + n > sizeof p->b) abort();
  memcpy(p->b + p->n, v, n);
  p->n += n;
}
static void put32(payload *p, uint32_t v) { put(p, &v, 4, 4); }
static void put64(payload *p, uint64_t v) { put(p, &v, 8, 8); }
static void putf(payload *p, float f) { put(p, &f, 4, 4); }

static void start(payload *p, uint32_t fmt_addr) {
  p->n = 0;
  put32(p, fmt_addr);
}

/* an entry: {u32 n, u32 0, payload}, the next at the next multiple of 8 */
static void add_entry(table *t, const payload *p, uint32_t n) {
  size_t at = t->entries;
  if (at + 8 + p->n + 8 > STRINGS_AT) abort();
  memcpy(t->bytes + at, &n, 4);
  memset(t->bytes + at + 4, 0, 4);
  memcpy(t->bytes + at + 8, p->b, p->n);
  t->entries = at + 8 + (n + 7) / 8 * 8;
  t->count++;
}

static void expect(table *t, const char *s) { text_add(&t->expected, s, strlen(s)); }

/* "FMT|\n" on the device; returns its address */
static uint32_t add_format(table *t, const char *fmt) {
  char f[256];
  int n = snprintf(f, sizeof f, "%s|\n", fmt);
  return add_string(t, f, (size_t)n);
}

typedef struct fixture {
  vt_rt *rt;
  vt_rt_program *p;
  vt_rt_kernel *k;
  text out;
  table *t;
} fixture;

static int setup(check_state *st, fixture *f) {
  memset(f, 0, sizeof *f);
  size_t n;
  uint8_t *img = rt_test_image(&n);
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.print_fn = collect;
  o.print_user = &f->out;
  char msg[256];
  int rc = img ? vt_rt_create(&o, &f->rt, msg, sizeof msg) : -1;
  if (rc == 0) rc = vt_rt_program_load_mem(f->rt, img, n, "test", &f->p);
  if (rc == 0) rc = vt_rt_kernel_create(f->p, "ptable", &f->k);
  f->t = calloc(1, sizeof *f->t);
  uint32_t base = 0;
  if (rc == 0) rc = !f->t || vt_rt_alloc(f->rt, TABLE_SIZE, &base);
  if (rc && f->rt) fprintf(stderr, "setup: %s\n", vt_rt_error(f->rt));
  free(img);
  CHECK(st, rc == 0);
  if (rc == 0) {
    f->t->base = base;
    f->t->strings = STRINGS_AT;
  }
  return rc;
}

static void teardown(fixture *f) {
  vt_rt_kernel_free(f->k);
  vt_rt_program_free(f->p);
  vt_rt_destroy(f->rt);
  free(f->out.p);
  if (f->t) free(f->t->expected.p);
  free(f->t);
}

/* uploads the table, runs ptable on one work-item and compares the output
 * with the expected text line by line */
static void run_and_compare(check_state *st, fixture *f, const char *name) {
  table *t = f->t;
  vt_rt_ndrange nd = {.dims = 1, .global = {1}};
  vt_rt_launch_info info;
  int rc = vt_rt_write(f->rt, t->base, t->bytes, TABLE_SIZE) ||
           vt_rt_set_arg_buffer(f->k, 0, t->base, 0) ||
           vt_rt_set_arg_scalar(f->k, 1, &t->count, 4) || vt_rt_launch(f->k, &nd, &info);
  if (rc) fprintf(stderr, "%s: %s\n", name, vt_rt_error(f->rt));
  CHECK(st, rc == 0);
  CHECK_EQ_U32(st, info.print_lost, 0);
  const char *got = f->out.p ? f->out.p : "", *want = t->expected.p ? t->expected.p : "";
  CHECK_EQ_U32(st, info.print_bytes, f->out.len);
  if (strcmp(got, want) == 0) return;
  st->failed_checks++;
  for (unsigned line = 1;; line++) {
    const char *ge = strchr(got, '\n'), *we = strchr(want, '\n');
    size_t gl = ge ? (size_t)(ge - got) : strlen(got), wl = we ? (size_t)(we - want) : strlen(want);
    if (gl != wl || memcmp(got, want, gl) != 0) {
      fprintf(stderr, "%s: line %u is \"%.*s\", expected \"%.*s\"\n", name, line, (int)gl, got,
              (int)wl, want);
      return;
    }
    if (!ge || !we) return;
    got = ge + 1;
    want = we + 1;
  }
}

static bool is_unsigned_conv(const char *fmt) {
  char c = fmt[strlen(fmt) - 1];
  return c == 'o' || c == 'u' || c == 'x' || c == 'X';
}

TEST(int_scalars) {
  static const char *formats[] = {
      "%d",   "%i",    "%u",    "%x",     "%X",      "%o",    "%5d",     "%-5d",   "%05d",
      "%+d",  "% d",   "%.3d",  "%.0d",   "%8.3d",   "%-+8.3d", "%#x",   "%#X",    "%#o",
      "%#.0o", "%.0x", "%#08x", "%hd",    "%hhd",    "%hu",   "%hhu",    "%hx",    "%hhx",
      "%+.0i", "%-#10o", "% 05i", "%+ d", "%-08d",   "%#5hhx", "%.5hd",  "%x%%"};
  static const int32_t values[] = {0,     1,     -1,     7,          -42,       127,      128,
                                   255,   256,   32767,  32768,      -32769,    65535,    0x1ff,
                                   -129,  0x12345678, INT32_MAX, INT32_MIN, -100000};
  fixture f;
  if (setup(st, &f)) return;
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
    uint32_t fa = add_format(f.t, formats[i]);
    char host[64], line[256];
    snprintf(host, sizeof host, "%s|\n", formats[i]);
    for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
      payload p;
      start(&p, fa);
      put32(&p, (uint32_t)values[v]);
      add_entry(f.t, &p, (uint32_t)p.n);
      if (is_unsigned_conv(formats[i]))
        snprintf(line, sizeof line, host, (unsigned)values[v]);
      else
        snprintf(line, sizeof line, host, values[v]);
      expect(f.t, line);
    }
  }
  run_and_compare(st, &f, "int scalars");
  teardown(&f);
}

/* "%...lX" for the device; the host prints the same with "ll" (long long
 * is 64 bits on every host) */
static void host_long_format(const char *dev, char *host, size_t n) {
  const char *l = strchr(dev, 'l');
  snprintf(host, n, "%.*sl%s|\n", (int)(l - dev + 1), dev, l + 1);
}

TEST(long_scalars) {
  static const char *formats[] = {"%ld",  "%li",   "%lu",    "%lx",   "%lX",     "%lo",
                                  "%20ld", "%-20ld", "%+ld",  "%.25ld", "%#lx",   "%#lo",
                                  "%021lx", "%.0ld", "% ld",  "%#.0lo", "%-+25.20li"};
  static const int64_t values[] = {0,         1,         -1,         -5,        INT64_MIN,
                                   INT64_MAX, 0x123456789abcdef0ll, 4294967296ll, -4294967297ll,
                                   2147483648ll, -2147483649ll};
  fixture f;
  if (setup(st, &f)) return;
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
    uint32_t fa = add_format(f.t, formats[i]);
    char host[64], line[256];
    host_long_format(formats[i], host, sizeof host);
    for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
      payload p;
      start(&p, fa);
      put64(&p, (uint64_t)values[v]); /* offset 8: the word at 4 is padding */
      CHECK_EQ_U32(st, p.n, 16);
      add_entry(f.t, &p, (uint32_t)p.n);
      if (is_unsigned_conv(formats[i]))
        snprintf(line, sizeof line, host, (unsigned long long)values[v]);
      else
        snprintf(line, sizeof line, host, (long long)values[v]);
      expect(f.t, line);
    }
  }
  /* ints and longs mixed: int at 4, long at 8, int at 16, long at 24 */
  uint32_t fa = add_format(f.t, "[%d] %ld %u %lx");
  for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
    payload p;
    start(&p, fa);
    put32(&p, (uint32_t)v);
    put64(&p, (uint64_t)values[v]);
    put32(&p, 0xdeadbeefu);
    put64(&p, ~(uint64_t)values[v]);
    CHECK_EQ_U32(st, p.n, 32);
    add_entry(f.t, &p, (uint32_t)p.n);
    char line[256];
    snprintf(line, sizeof line, "[%d] %lld %u %llx|\n", (int)v, (long long)values[v], 0xdeadbeefu,
             ~(unsigned long long)values[v]);
    expect(f.t, line);
  }
  run_and_compare(st, &f, "long scalars");
  teardown(&f);
}

static float bits_float(uint32_t w) {
  float x;
  memcpy(&x, &w, 4);
  return x;
}

TEST(float_scalars) {
  static const char *formats[] = {
      "%f",     "%F",     "%e",      "%E",      "%g",      "%G",     "%a",      "%A",
      "%.0f",   "%#.0f",  "%.0e",    "%#.0e",   "%.0g",    "%#.0g",  "%#g",     "%.10g",
      "%.3a",   "%.0a",   "%#.0a",   "%+f",     "% e",     "%015.3f", "%-15.2e", "%+012.4G",
      "%.9e",   "%.20f",  "%.17g",   "%12a",    "%-#14.1A", "%.50f",  "%010g",   "% -12.3F",
      "%#.3G",  "%.1f",   "%.2e",    "%08.3a"};
  float values[] = {0.0f,        -0.0f,        1.0f,          -1.0f,        0.5f,
                    0.1f,        -0.1f,        1.5f,          2.5f,         3.14159265f,
                    1e-5f,       123456.789f,  1e10f,         -1e-10f,      16777216.0f,
                    FLT_MAX,     -FLT_MAX,     FLT_MIN,       0.999999f,    9.5f,
                    0.05f,       1e-40f,       -2.5e-42f,     NAN,          -NAN,
                    INFINITY,    -INFINITY,    bits_float(1), /* smallest subnormal */
                    bits_float(0x007fffff), /* largest subnormal */
                    bits_float(0x7fc12345), /* NaN with a payload */
                    bits_float(0xff800001), /* negative signalling NaN */
                    99.995f,     0.000123456f, 1234567.0f,    -0.000999f};
  fixture f;
  if (setup(st, &f)) return;
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
    uint32_t fa = add_format(f.t, formats[i]);
    char host[64], line[512];
    snprintf(host, sizeof host, "%s|\n", formats[i]);
    for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
      payload p;
      start(&p, fa);
      putf(&p, values[v]);
      add_entry(f.t, &p, (uint32_t)p.n);
      snprintf(line, sizeof line, host, (double)values[v]);
      expect(f.t, line);
    }
  }
  run_and_compare(st, &f, "float scalars");
  teardown(&f);
}

/* a scalar floating conversion with l takes an 8-byte double (the layout
 * vt cc uses for double arguments, docs/printf.md) */
TEST(double_scalars) {
  static const char *formats[] = {"%lf", "%le", "%lg", "%la", "%.17lg", "%-+14.3lE", "%lF", "%.0lf"};
  static const double values[] = {0.0, -0.0, 1.0, -2.5, 0.1, 1e300, -1e-300, 4.9e-324,
                                  DBL_MAX, DBL_MIN, 123456789.125, NAN, INFINITY, -INFINITY};
  fixture f;
  if (setup(st, &f)) return;
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
    uint32_t fa = add_format(f.t, formats[i]);
    char host[64], line[512];
    snprintf(host, sizeof host, "%s|\n", formats[i]);
    for (size_t v = 0; v < sizeof values / sizeof *values; v++) {
      payload p;
      start(&p, fa);
      uint64_t u;
      memcpy(&u, &values[v], 8);
      put64(&p, u); /* offset 8: the word at 4 is padding */
      CHECK_EQ_U32(st, p.n, 16);
      add_entry(f.t, &p, (uint32_t)p.n);
      snprintf(line, sizeof line, host, values[v]);
      expect(f.t, line);
    }
  }
  /* a float (4 bytes) beside a double (8) */
  uint32_t fa = add_format(f.t, "%f %lf %f");
  payload p;
  start(&p, fa);
  putf(&p, 1.5f);
  uint64_t u;
  double d = -0.125;
  memcpy(&u, &d, 8);
  put64(&p, u);
  putf(&p, 3.0f);
  CHECK_EQ_U32(st, p.n, 20);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "1.500000 -0.125000 3.000000|\n");
  run_and_compare(st, &f, "double scalars");
  teardown(&f);
}

TEST(chars_strings_percent) {
  static const char *cformats[] = {"%c", "%5c", "%-5c", "[%c%c]"};
  static const int cvalues[] = {'A', 'z', '0', ' ', 0x141, '~', -190};
  static const char *sformats[] = {"%s", "%10s", "%-10s", "%.3s", "%.0s", "%10.2s", "%-3.1s", "<%s>"};
  static const char *strings[] = {"hello", "", "a longer string with spaces", "x", "%d %s"};
  fixture f;
  if (setup(st, &f)) return;
  char host[64], line[256];
  for (size_t i = 0; i < sizeof cformats / sizeof *cformats; i++) {
    uint32_t fa = add_format(f.t, cformats[i]);
    snprintf(host, sizeof host, "%s|\n", cformats[i]);
    for (size_t v = 0; v < sizeof cvalues / sizeof *cvalues; v++) {
      payload p;
      start(&p, fa);
      put32(&p, (uint32_t)cvalues[v]);
      put32(&p, (uint32_t)cvalues[(v + 1) % 7]);
      add_entry(f.t, &p, (uint32_t)p.n);
      snprintf(line, sizeof line, host, cvalues[v], cvalues[(v + 1) % 7]);
      expect(f.t, line);
    }
  }
  for (size_t i = 0; i < sizeof sformats / sizeof *sformats; i++) {
    uint32_t fa = add_format(f.t, sformats[i]);
    snprintf(host, sizeof host, "%s|\n", sformats[i]);
    for (size_t v = 0; v < sizeof strings / sizeof *strings; v++) {
      payload p;
      start(&p, fa);
      put32(&p, add_string(f.t, strings[v], strlen(strings[v])));
      add_entry(f.t, &p, (uint32_t)p.n);
      snprintf(line, sizeof line, host, strings[v]);
      expect(f.t, line);
    }
  }
  payload p;
  start(&p, add_format(f.t, "100%% of %d%%"));
  put32(&p, 7);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "100% of 7%|\n");
  /* %p: 0x and eight hex digits (implementation-defined in OpenCL C) */
  start(&p, add_format(f.t, "%p %12p %-12p %p"));
  put32(&p, 0x90001234u);
  put32(&p, 0xabcu);
  put32(&p, 0x80000000u);
  put32(&p, 0);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "0x90001234   0x00000abc 0x80000000   0x00000000|\n");
  run_and_compare(st, &f, "chars, strings, %%");
  teardown(&f);
}

/* the element specification of a vector one: "%-5.2v4hlf" -> "%-5.2f",
 * "%#v4hhx" -> "%#hhx", "%v2ld" -> "%lld" */
static void element_format(const char *vec, char *out, size_t n) {
  const char *v = strchr(vec, 'v'), *len = v + 1;
  while (*len >= '0' && *len <= '9') len++;
  const char *conv = len;
  while (*conv == 'h' || *conv == 'l') conv++;
  const char *host_len = "";
  if (!strchr("aAeEfFgG", *conv)) {
    size_t ln = (size_t)(conv - len);
    host_len = ln == 2 && len[0] == 'h' && len[1] == 'h' ? "hh"
               : ln == 1 && len[0] == 'h'                ? "h"
               : ln == 1 && len[0] == 'l'                ? "ll"
                                                         : "";
  }
  snprintf(out, n, "%.*s%s%c", (int)(v - vec), vec, host_len, *conv);
}

typedef struct vec_case {
  const char *fmt;
  unsigned n, size; /* elements, bytes per element */
  int kind;         /* 'i' signed, 'u' unsigned, 'f' float, 'd' double, 'h' half */
} vec_case;

/* element e of a case's test data */
static uint64_t element_bits(const vec_case *c, unsigned e) {
  static const int64_t ints[] = {1, -2, 127, -128, 255, 0x7fff, -32768, 0x12345678,
                                 -1, 0, 0x7fffffff, INT64_MIN, 42, -42, 0xfedcba98765ll, 3};
  static const float floats[] = {1.0f, -2.5f, 0.1f, 1e-40f, FLT_MAX, -0.0f, NAN, INFINITY,
                                 3.14159f, 1e10f, -1e-10f, 0.5f, 100.0f, -7.25f, 2e-5f, 65504.0f};
  static const double doubles[] = {0.1, -1e300, DBL_MIN, 4.9e-324, 1.0 / 3, -0.0, INFINITY, 2.5};
  /* half bit patterns (values in half_value below) */
  static const uint16_t halves[] = {0x3e00, 0xb400, 0x7bff, 0x0001, 0x7c00, 0x8000, 0x3555, 0xfc00};
  if (c->kind == 'f') {
    uint32_t w;
    memcpy(&w, &floats[e], 4);
    return w;
  }
  if (c->kind == 'd') {
    uint64_t w;
    memcpy(&w, &doubles[e % 8], 8);
    return w;
  }
  if (c->kind == 'h') return halves[e % 8];
  return (uint64_t)ints[e];
}

/* the values of the half patterns, computed by hand: 1.5, -0.25, 65504,
 * 2^-24, inf, -0, 1365/4096, -inf */
static double half_value(unsigned e) {
  static const double v[] = {1.5, -0.25, 65504.0, 5.9604644775390625e-08, INFINITY, -0.0,
                             0.333251953125, -INFINITY};
  return v[e % 8];
}

static void vec_expected(const vec_case *c, char *line, size_t n) {
  char ef[32];
  element_format(c->fmt, ef, sizeof ef);
  size_t k = 0;
  for (unsigned e = 0; e < c->n && k < n; e++) {
    if (e) line[k++] = ',';
    uint64_t b = element_bits(c, e);
    int m;
    if (c->kind == 'f') {
      float x;
      uint32_t w = (uint32_t)b;
      memcpy(&x, &w, 4);
      m = snprintf(line + k, n - k, ef, (double)x);
    } else if (c->kind == 'd') {
      double x;
      memcpy(&x, &b, 8);
      m = snprintf(line + k, n - k, ef, x);
    } else if (c->kind == 'h') {
      m = snprintf(line + k, n - k, ef, half_value(e));
    } else if (c->size == 8) {
      m = snprintf(line + k, n - k, ef, (long long)b);
    } else {
      m = snprintf(line + k, n - k, ef, (int)(int64_t)b); /* hh/h convert it */
    }
    k += (size_t)m;
  }
  snprintf(line + k, n - k, "|\n");
}

TEST(vectors) {
  static const vec_case cases[] = {
      {"%v2hld", 2, 4, 'i'},   {"%v3hld", 3, 4, 'i'},   {"%v4hli", 4, 4, 'i'},
      {"%v8hlx", 8, 4, 'u'},   {"%v16hlu", 16, 4, 'u'}, {"%+5v4hld", 4, 4, 'i'},
      {"%v8hhd", 8, 1, 'i'},   {"%v3hhu", 3, 1, 'u'},   {"%v16hhx", 16, 1, 'u'},
      {"%#v4hho", 4, 1, 'u'},  {"%v2hd", 2, 2, 'i'},    {"%v3hd", 3, 2, 'i'},
      {"%v4hu", 4, 2, 'u'},    {"%-7v8hX", 8, 2, 'u'},  {"%v2ld", 2, 8, 'i'},
      {"%v3lx", 3, 8, 'u'},    {"%#v4lX", 4, 8, 'u'},   {"%v16li", 16, 8, 'i'},
      {"%v2hlf", 2, 4, 'f'},   {"%v3hle", 3, 4, 'f'},   {"%.3v4hlg", 4, 4, 'f'},
      {"%v8hlA", 8, 4, 'f'},   {"%+v16hlE", 16, 4, 'f'}, {"%v2lf", 2, 8, 'd'},
      {"%.3v4le", 4, 8, 'd'},  {"%v8la", 8, 8, 'd'},    {"%v3lg", 3, 8, 'd'},
      {"%v4hf", 4, 2, 'h'},    {"%v8he", 8, 2, 'h'},    {"%v2ha", 2, 2, 'h'},
  };
  fixture f;
  if (setup(st, &f)) return;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const vec_case *c = &cases[i];
    /* an int first, so an 8-byte element vector shows its padding */
    char fmt[64];
    snprintf(fmt, sizeof fmt, "%%d %s", c->fmt);
    payload p;
    start(&p, add_format(f.t, fmt));
    put32(&p, (uint32_t)i);
    uint8_t data[16 * 8];
    unsigned stored = c->n == 3 ? 4 : c->n;
    for (unsigned e = 0; e < stored; e++) {
      /* a 3-element vector occupies 4 elements; the 4th must not print */
      uint64_t b = e < c->n ? element_bits(c, e) : 0x5a5a5a5a5a5a5a5aull;
      memcpy(data + e * c->size, &b, c->size);
    }
    size_t bytes = (c->size * stored + 3) / 4 * 4;
    memset(data + c->size * stored, 0, bytes - c->size * stored);
    put(&p, data, bytes, c->size == 8 ? 8 : 4);
    add_entry(f.t, &p, (uint32_t)p.n);
    char line[2048];
    int k = snprintf(line, sizeof line, "%u ", (unsigned)i);
    vec_expected(c, line + k, sizeof line - (size_t)k);
    expect(f.t, line);
  }
  /* the examples of the OpenCL C specification's printf section */
  static const float f4[] = {1.0f, 2.0f, 3.0f, 4.0f};
  static const uint8_t uc[] = {0xfa, 0xfb, 0xfc, 0xfd};
  payload p;
  start(&p, add_format(f.t, "f4 = %2.2v4hlf"));
  put(&p, f4, 16, 4);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "f4 = 1.00,2.00,3.00,4.00|\n");
  start(&p, add_format(f.t, "uc = %#v4hhx"));
  put(&p, uc, 4, 4);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "uc = 0xfa,0xfb,0xfc,0xfd|\n");
  /* a char3 (4 bytes) between ints: 4, 8, 12 */
  static const uint8_t c3[] = {1, 0xff, 3, 0x77};
  start(&p, add_format(f.t, "%d %v3hhd %d"));
  put32(&p, 10);
  put(&p, c3, 4, 4);
  put32(&p, 20);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "10 1,-1,3 20|\n");
  run_and_compare(st, &f, "vectors");
  teardown(&f);
}

/* what OpenCL C does not define, or the record cannot supply: markers */
TEST(markers) {
  static const struct {
    const char *fmt, *want;
  } bad[] = {
      {"%n", "[vt: unsupported printf conversion \"%n\"]|\n"},
      {"a %lld b %d", "a [vt: unsupported printf conversion \"%lld\"] b %d|\n"},
      {"%*d", "[vt: unsupported printf conversion \"%*d\"]|\n"},
      {"%.*f", "[vt: unsupported printf conversion \"%.*f\"]|\n"},
      {"%v4d", "[vt: unsupported printf conversion \"%v4d\"]|\n"},
      {"%hlf", "[vt: unsupported printf conversion \"%hlf\"]|\n"},
      {"%hld", "[vt: unsupported printf conversion \"%hld\"]|\n"},
      {"%v5hld", "[vt: unsupported printf conversion \"%v5hld\"]|\n"},
      {"%v4hhf", "[vt: unsupported printf conversion \"%v4hhf\"]|\n"},
      {"%v4hlc", "[vt: unsupported printf conversion \"%v4hlc\"]|\n"},
      {"%lc", "[vt: unsupported printf conversion \"%lc\"]|\n"},
      {"%ls", "[vt: unsupported printf conversion \"%ls\"]|\n"},
      {"%llf", "[vt: unsupported printf conversion \"%llf\"]|\n"},
      {"%hf", "[vt: unsupported printf conversion \"%hf\"]|\n"},
      {"%jd", "[vt: unsupported printf conversion \"%jd\"]|\n"},
      {"%zu", "[vt: unsupported printf conversion \"%zu\"]|\n"},
      {"%td", "[vt: unsupported printf conversion \"%td\"]|\n"},
      {"%Lf", "[vt: unsupported printf conversion \"%Lf\"]|\n"},
      {"%q and %d", "[vt: unsupported printf conversion \"%q\"] and %d|\n"},
      {"%5%", "[vt: unsupported printf conversion \"%5%\"]|\n"},
      {"%2000d", "[vt: unsupported printf conversion \"%2000d\"]|\n"},
      {"%.1025f", "[vt: unsupported printf conversion \"%.1025f\"]|\n"},
      {"%1024d", NULL}, /* the largest width: fine */
      {"%v", "[vt: unsupported printf conversion \"%v|\"]\n"},
      {"x %-5", "x [vt: unsupported printf conversion \"%-5|\"]\n"},
  };
  fixture f;
  if (setup(st, &f)) return;
  payload p;
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    start(&p, add_format(f.t, bad[i].fmt));
    put32(&p, 5);
    put32(&p, 6);
    add_entry(f.t, &p, (uint32_t)p.n);
    if (bad[i].want) {
      expect(f.t, bad[i].want);
    } else {
      char line[1100];
      snprintf(line, sizeof line, "%1024d|\n", 5);
      expect(f.t, line);
    }
  }
  /* the record ends: the conversions past it get markers, nothing is read */
  start(&p, add_format(f.t, "%d %d %ld %s"));
  put32(&p, 5);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "5 [vt: no argument for \"%d\"] [vt: no argument for \"%ld\"] "
              "[vt: no argument for \"%s\"]|\n");
  /* 12 bytes: an int, then a long would need bytes 8..15 */
  start(&p, add_format(f.t, "%d %ld"));
  put32(&p, 1);
  put32(&p, 2);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "1 [vt: no argument for \"%ld\"]|\n");
  /* a format only (vt_vprintf rounds 2 bytes up to the format word) */
  start(&p, add_format(f.t, "no args %x"));
  add_entry(f.t, &p, 2);
  expect(f.t, "no args [vt: no argument for \"%x\"]|\n");
  /* 0 bytes: vt_vprintf records nothing */
  add_entry(f.t, &p, 0);
  /* %s pointers the host cannot read; precision 0 reads nothing */
  start(&p, add_format(f.t, "%s %s [%.0s]"));
  put32(&p, 0x12345678u);
  put32(&p, 0);
  put32(&p, 0x12345678u);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "[vt: the %s argument 0x12345678 is not readable by the host] "
              "[vt: the %s argument 0x00000000 is not readable by the host] []|\n");
  /* formats the host cannot read, or that do not end */
  start(&p, 0x12345678u);
  add_entry(f.t, &p, (uint32_t)p.n);
  expect(f.t, "[vt: the printf format at 0x12345678 is not readable by the host]\n");
  static char longtext[5000];
  memset(longtext, 'x', sizeof longtext);
  uint32_t la = add_string(f.t, longtext, sizeof longtext);
  start(&p, la);
  add_entry(f.t, &p, (uint32_t)p.n);
  char line[256];
  snprintf(line, sizeof line, "[vt: the printf format at 0x%08x has no NUL within 4096 bytes]\n",
           la);
  expect(f.t, line);
  /* a %s argument without a NUL within 4096 bytes: those, then a marker */
  start(&p, add_format(f.t, "%s"));
  put32(&p, la);
  add_entry(f.t, &p, (uint32_t)p.n);
  text_add(&f.t->expected, longtext, 4096);
  snprintf(line, sizeof line, "[vt: no NUL within 4096 bytes of the %%s argument 0x%08x]|\n", la);
  expect(f.t, line);
  run_and_compare(st, &f, "markers");
  teardown(&f);
}

/* vt_vprintf with a size that does not fit (or wraps around 2^32) loses
 * the record: counted, nothing written past the buffer */
TEST(oversized_blocks_are_lost) {
  fixture f;
  if (setup(st, &f)) return;
  static const uint32_t sizes[] = {0xfffffffcu, 0xfffffff0u, 0x80000000u, 2u << 20};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
    memset(f.t->bytes, 0, 64);
    f.t->entries = 0;
    f.t->count = 0;
    payload p;
    start(&p, add_format(f.t, "never"));
    add_entry(f.t, &p, sizes[i]); /* the only entry: ptable stops after it */
    vt_rt_ndrange nd = {.dims = 1, .global = {1}};
    vt_rt_launch_info info;
    f.out.len = 0;
    int rc = vt_rt_write(f.rt, f.t->base, f.t->bytes, TABLE_SIZE) ||
             vt_rt_set_arg_buffer(f.k, 0, f.t->base, 0) ||
             vt_rt_set_arg_scalar(f.k, 1, &f.t->count, 4) || vt_rt_launch(f.k, &nd, &info);
    CHECK(st, rc == 0);
    CHECK_EQ_U32(st, info.print_lost, 1);
    CHECK_STR(st, f.out.len ? f.out.p : "",
              "[vt: 1 printf record(s) lost: the print buffer (1048576 bytes) is full]\n");
  }
  teardown(&f);
}

static long fixed_string(void *user, uint32_t addr, char *buf, size_t max) {
  (void)user;
  if (addr != 0x1000) return -1;
  size_t n = max < 3 ? max : 3;
  memcpy(buf, "abc", n);
  return (long)n;
}

/* random formats and argument lengths: the formatter always stops, stays
 * within its output limit and reads nothing past the payload (which ends
 * the malloc'd block, so a sanitizer build would see an over-read) */
TEST(random_formats_are_safe) {
  static const char alphabet[] = "%%%%-+ #0123456789.vvhhlllldiouxXaAeEfFgGcspn*jzL|";
  unsigned seed = 12345;
  for (int round = 0; round < 20000; round++) {
    char fmt[48];
    seed = seed * 1103515245u + 12345u;
    size_t flen = (seed >> 16) % sizeof fmt;
    for (size_t i = 0; i < flen; i++) {
      seed = seed * 1103515245u + 12345u;
      fmt[i] = alphabet[(seed >> 16) % (sizeof alphabet - 1)];
    }
    seed = seed * 1103515245u + 12345u;
    size_t plen = (seed >> 16) % 200;
    uint8_t *payload = malloc(plen ? plen : 1);
    for (size_t i = 0; i < plen; i++) {
      seed = seed * 1103515245u + 12345u;
      payload[i] = (uint8_t)(seed >> 24);
    }
    if (plen >= 8) memcpy(payload + 4, &(uint32_t){0x1000}, 4);
    rt_text t;
    rt_text_init(&t, 4096);
    rt_printf_format(fmt, flen, payload, plen, fixed_string, NULL, &t);
    if (t.len > 4096 || (t.len && !t.p)) {
      st->failed_checks++;
      fprintf(stderr, "round %d: %zu bytes of output\n", round, t.len);
    }
    rt_text_free(&t);
    free(payload);
  }
  /* the output limit cuts and flags */
  rt_text t;
  rt_text_init(&t, 10);
  uint8_t pl[8] = {0, 0, 0, 0, 0x39, 0x30, 0, 0};
  rt_printf_format("value %d and more", 17, pl, sizeof pl, NULL, NULL, &t);
  CHECK(st, t.cut && t.len == 10 && memcmp(t.p, "value 1234", 10) == 0);
  rt_text_free(&t);
}

RUN_TESTS(T(int_scalars), T(long_scalars), T(float_scalars), T(double_scalars), T(chars_strings_percent),
          T(vectors), T(markers), T(oversized_blocks_are_lost), T(random_formats_are_safe))
