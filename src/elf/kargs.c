/* The kernel argument section .vt.kernel_args (vt/kargs.h): encoding and
 * checked parsing. Layout (docs/formats.md "Kernel argument section"),
 * little-endian:
 *   header 16 bytes: "VTKA", u16 version, u16 argument record size,
 *                    u32 kernel count, u32 string table offset
 *   per kernel:      u32 name, u32 argument count, then the arguments:
 *                    u8 kind, u8 address space, u8 qualifiers, u8 0,
 *                    u32 size, u32 name, u32 type name
 *   string table:    NUL-terminated strings, offset 0 = "" */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/kargs.h"

#define HEADER_SIZE 16u
#define ARG_RECORD 16u
#define KERNEL_RECORD 8u

static int fail(char *err, size_t errn, const char *fmt, ...) {
  if (err && errn) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errn, fmt, ap);
    va_end(ap);
  }
  return -1;
}

static uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static void wr32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

const char *vt_karg_check(const vt_karg *a) {
  switch (a->kind) {
  case VT_KARG_BUFFER:
    if (a->space != VT_KSPACE_GLOBAL && a->space != VT_KSPACE_CONSTANT)
      return "a buffer argument must be in the global or constant address space";
    break;
  case VT_KARG_LOCAL:
    if (a->space != VT_KSPACE_LOCAL) return "a local argument must be in the local address space";
    break;
  case VT_KARG_VALUE:
    if (a->space != VT_KSPACE_PRIVATE) return "a by-value argument must be private";
    if (a->size < 1 || a->size > VT_KARGS_MAX_VALUE)
      return "a by-value argument takes 1 to 1024 bytes";
    break;
  default: return "unknown argument kind";
  }
  if (a->kind != VT_KARG_VALUE && a->size != 4) return "a pointer argument takes 4 bytes";
  if (a->quals & ~(VT_KQUAL_CONST | VT_KQUAL_RESTRICT | VT_KQUAL_VOLATILE))
    return "unknown type qualifier bits";
  return NULL;
}

/* ---- encoding ---- */

typedef struct strtab {
  uint8_t *p;
  size_t len, cap;
} strtab;

/* Offset of s in the table (appended; "" is offset 0). */
static int str_add(strtab *t, const char *s, uint32_t *off) {
  size_t n = strlen(s ? s : "") + 1;
  if (n == 1) {
    *off = 0;
    return 0;
  }
  if (t->len + n > 0x7fffffffu) return -1;
  if (t->len + n > t->cap) {
    size_t cap = (t->len + n) * 2;
    uint8_t *q = realloc(t->p, cap);
    if (!q) return -1;
    t->p = q;
    t->cap = cap;
  }
  memcpy(t->p + t->len, s, n);
  *off = (uint32_t)t->len;
  t->len += n;
  return 0;
}

static int check_kernels(const vt_kargs_kernel *kernels, size_t n, size_t *records, char *err,
                         size_t errn) {
  size_t bytes = HEADER_SIZE;
  for (size_t i = 0; i < n; i++) {
    const vt_kargs_kernel *k = &kernels[i];
    if (!k->name || !k->name[0]) return fail(err, errn, "kernel %zu has no name", i);
    if (k->nargs > VT_KARGS_MAX_ARGS)
      return fail(err, errn, "kernel '%s' has %u arguments (at most %u)", k->name, k->nargs,
                  VT_KARGS_MAX_ARGS);
    for (uint32_t a = 0; a < k->nargs; a++) {
      const char *bad = vt_karg_check(&k->args[a]);
      if (bad) return fail(err, errn, "argument %u of kernel '%s': %s", a, k->name, bad);
    }
    bytes += KERNEL_RECORD + (size_t)k->nargs * ARG_RECORD;
  }
  *records = bytes;
  return 0;
}

static int encode_records(const vt_kargs_kernel *kernels, size_t n, uint8_t *out, strtab *t) {
  uint8_t *p = out + HEADER_SIZE;
  for (size_t i = 0; i < n; i++) {
    const vt_kargs_kernel *k = &kernels[i];
    uint32_t name;
    if (str_add(t, k->name, &name)) return -1;
    wr32(p, name);
    wr32(p + 4, k->nargs);
    p += KERNEL_RECORD;
    for (uint32_t a = 0; a < k->nargs; a++, p += ARG_RECORD) {
      const vt_karg *g = &k->args[a];
      uint32_t an, tn;
      if (str_add(t, g->name, &an) || str_add(t, g->type, &tn)) return -1;
      p[0] = g->kind;
      p[1] = g->space;
      p[2] = g->quals;
      p[3] = 0;
      wr32(p + 4, g->size);
      wr32(p + 8, an);
      wr32(p + 12, tn);
    }
  }
  return 0;
}

int vt_kargs_encode(const vt_kargs_kernel *kernels, size_t n, uint8_t **out, size_t *size,
                    char *err, size_t errn) {
  *out = NULL;
  *size = 0;
  size_t records = 0;
  if (n > VT_KARGS_MAX_KERNELS)
    return fail(err, errn, "%zu kernels (at most %u)", n, VT_KARGS_MAX_KERNELS);
  if (check_kernels(kernels, n, &records, err, errn)) return -1;
  strtab t = {0};
  uint8_t *buf = calloc(1, records);
  if (!buf || !(t.p = malloc(t.cap = 64))) goto oom;
  t.p[0] = 0;
  t.len = 1;
  if (encode_records(kernels, n, buf, &t)) goto oom;
  uint8_t *all = realloc(buf, records + t.len);
  if (!all) goto oom;
  buf = all;
  memcpy(buf, "VTKA", 4);
  buf[4] = (uint8_t)VT_KARGS_VERSION;
  buf[5] = 0;
  buf[6] = (uint8_t)ARG_RECORD;
  buf[7] = 0;
  wr32(buf + 8, (uint32_t)n);
  wr32(buf + 12, (uint32_t)records);
  memcpy(buf + records, t.p, t.len);
  *out = buf;
  *size = records + t.len;
  free(t.p);
  return 0;
oom:
  free(buf);
  free(t.p);
  return fail(err, errn, "out of memory");
}

/* ---- parsing ---- */

struct vt_kargs {
  uint8_t *data; /* copy of the section: the strings point into it */
  vt_kargs_kernel *kernels;
  vt_karg *args;
  size_t nkernels;
};

typedef struct reader {
  const uint8_t *d;
  size_t size;
  uint32_t str_off;
  char *err;
  size_t errn;
} reader;

static const char *str_at(const reader *r, uint32_t off) {
  uint64_t at = (uint64_t)r->str_off + off;
  if (at >= r->size) return NULL;
  if (!memchr(r->d + at, 0, r->size - (size_t)at)) return NULL;
  return (const char *)r->d + at;
}

static int parse_arg(const reader *r, const uint8_t *p, const char *kname, uint32_t a,
                     vt_karg *g) {
  g->kind = p[0];
  g->space = p[1];
  g->quals = p[2];
  g->size = rd32(p + 4);
  g->name = str_at(r, rd32(p + 8));
  g->type = str_at(r, rd32(p + 12));
  if (!g->name || !g->type)
    return fail(r->err, r->errn, "argument %u of kernel '%s': string offset out of range", a,
                kname);
  const char *bad = vt_karg_check(g);
  if (bad) return fail(r->err, r->errn, "argument %u of kernel '%s': %s", a, kname, bad);
  return 0;
}

/* Walks the kernel records; with out == NULL it only counts arguments. */
static int walk(const reader *r, uint32_t nk, uint32_t stride, vt_kargs *out, size_t *nargs) {
  uint64_t pos = HEADER_SIZE, total = 0;
  for (uint32_t i = 0; i < nk; i++) {
    if (pos + KERNEL_RECORD > r->str_off)
      return fail(r->err, r->errn, "kernel %u: record past the string table", i);
    const char *name = str_at(r, rd32(r->d + pos));
    uint32_t n = rd32(r->d + pos + 4);
    if (!name || !name[0]) return fail(r->err, r->errn, "kernel %u: bad name", i);
    if (n > VT_KARGS_MAX_ARGS)
      return fail(r->err, r->errn, "kernel '%s': %u arguments (at most %u)", name, n,
                  VT_KARGS_MAX_ARGS);
    pos += KERNEL_RECORD;
    if (pos + (uint64_t)n * stride > r->str_off)
      return fail(r->err, r->errn, "kernel '%s': arguments past the string table", name);
    if (out) {
      vt_kargs_kernel *k = &out->kernels[i];
      k->name = name;
      k->nargs = n;
      k->args = out->args + total;
      for (uint32_t a = 0; a < n; a++)
        if (parse_arg(r, r->d + pos + (uint64_t)a * stride, name, a, out->args + total + a))
          return -1;
    }
    pos += (uint64_t)n * stride;
    total += n;
  }
  *nargs = (size_t)total;
  return 0;
}

static int parse_header(const uint8_t *d, size_t size, uint32_t *nk, uint32_t *stride,
                        uint32_t *str_off, char *err, size_t errn) {
  if (size < HEADER_SIZE) return fail(err, errn, "section too short (%zu bytes)", size);
  if (memcmp(d, "VTKA", 4) != 0) return fail(err, errn, "bad magic (not \"VTKA\")");
  unsigned version = d[4] | d[5] << 8;
  if (version != VT_KARGS_VERSION)
    return fail(err, errn, "version %u is not supported (expected %u)", version,
                VT_KARGS_VERSION);
  *stride = d[6] | (uint32_t)d[7] << 8;
  if (*stride < ARG_RECORD) return fail(err, errn, "argument records of %u bytes", *stride);
  *nk = rd32(d + 8);
  *str_off = rd32(d + 12);
  if (*str_off < HEADER_SIZE || *str_off >= size || d[*str_off] != 0)
    return fail(err, errn, "bad string table offset %u", *str_off);
  if (*nk > VT_KARGS_MAX_KERNELS)
    return fail(err, errn, "%u kernels (at most %u)", *nk, VT_KARGS_MAX_KERNELS);
  if (*nk > (*str_off - HEADER_SIZE) / KERNEL_RECORD)
    return fail(err, errn, "%u kernels do not fit the section", *nk);
  return 0;
}

int vt_kargs_parse(const uint8_t *data, size_t size, vt_kargs **out, char *err, size_t errn) {
  *out = NULL;
  uint32_t nk = 0, stride = 0, str_off = 0;
  if (!data || parse_header(data, size, &nk, &stride, &str_off, err, errn)) {
    if (!data) fail(err, errn, "no section data");
    return -1;
  }
  reader r = {data, size, str_off, err, errn};
  size_t nargs = 0;
  if (walk(&r, nk, stride, NULL, &nargs)) return -1;
  vt_kargs *k = calloc(1, sizeof *k);
  if (k) {
    k->data = malloc(size);
    k->kernels = calloc(nk ? nk : 1, sizeof *k->kernels);
    k->args = calloc(nargs ? nargs : 1, sizeof *k->args);
  }
  if (!k || !k->data || !k->kernels || !k->args) {
    vt_kargs_free(k);
    return fail(err, errn, "out of memory");
  }
  memcpy(k->data, data, size);
  k->nkernels = nk;
  r.d = k->data;
  if (walk(&r, nk, stride, k, &nargs)) {
    vt_kargs_free(k);
    return -1;
  }
  for (size_t i = 0; i < nk; i++)
    for (size_t j = 0; j < i; j++)
      if (!strcmp(k->kernels[i].name, k->kernels[j].name)) {
        fail(err, errn, "kernel '%s' is listed twice", k->kernels[i].name);
        vt_kargs_free(k);
        return -1;
      }
  *out = k;
  return 0;
}

void vt_kargs_free(vt_kargs *k) {
  if (!k) return;
  free(k->data);
  free(k->kernels);
  free(k->args);
  free(k);
}

size_t vt_kargs_count(const vt_kargs *k) { return k ? k->nkernels : 0; }

const vt_kargs_kernel *vt_kargs_at(const vt_kargs *k, size_t i) {
  return k && i < k->nkernels ? &k->kernels[i] : NULL;
}

const vt_kargs_kernel *vt_kargs_find(const vt_kargs *k, const char *name) {
  for (size_t i = 0; k && name && i < k->nkernels; i++)
    if (!strcmp(k->kernels[i].name, name)) return &k->kernels[i];
  return NULL;
}
