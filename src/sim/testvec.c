/* Loader of the official .metadata/.data test vectors (formats-and-launch.md
 * 2.2-2.3): variant detection by line count, consistency checks (line
 * counts, overlapping buffers, entry outside the code buffer), then mapping
 * and initialising device memory. */
#include "vt/testvec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"
#include "vt/knl.h"
#include "util/file.h"

typedef struct hexfile {
  uint32_t *words;
  unsigned *lines; /* source line of each word */
  size_t n;
} hexfile;

static int parse_hex_lines(const char *text, size_t len, const char *name, hexfile *hf,
                           vt_error *err) {
  size_t cap = 64;
  hf->n = 0;
  hf->words = malloc(cap * sizeof *hf->words);
  hf->lines = malloc(cap * sizeof *hf->lines);
  if (!hf->words || !hf->lines) goto nomem;
  unsigned line = 0;
  size_t i = 0;
  while (i < len) {
    line++;
    size_t s = i;
    while (i < len && text[i] != '\n') i++;
    size_t e = i;
    if (i < len) i++;
    while (s < e && (text[s] == ' ' || text[s] == '\t' || text[s] == '\r')) s++;
    while (e > s && (text[e - 1] == ' ' || text[e - 1] == '\t' || text[e - 1] == '\r')) e--;
    if (s == e) continue; /* blank lines are ignored (2.1) */
    if (e - s > 8) {
      vt_err_set(err, VT_ERR_FORMAT, "%s:%u: expected at most 8 hex digits, got \"%.*s\"", name,
                 line, (int)(e - s > 40 ? 40 : e - s), text + s);
      return VT_ERR_FORMAT;
    }
    uint32_t v = 0;
    for (size_t k = s; k < e; k++) {
      char c = text[k];
      unsigned d;
      if (c >= '0' && c <= '9') d = (unsigned)(c - '0');
      else if (c >= 'a' && c <= 'f') d = (unsigned)(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') d = (unsigned)(c - 'A' + 10);
      else {
        vt_err_set(err, VT_ERR_FORMAT, "%s:%u: '%c' is not a hex digit", name, line, c);
        return VT_ERR_FORMAT;
      }
      v = v << 4 | d;
    }
    if (hf->n == cap) {
      cap *= 2;
      uint32_t *w = realloc(hf->words, cap * sizeof *w);
      if (!w) goto nomem;
      hf->words = w;
      unsigned *l = realloc(hf->lines, cap * sizeof *l);
      if (!l) goto nomem;
      hf->lines = l;
    }
    hf->words[hf->n] = v;
    hf->lines[hf->n] = line;
    hf->n++;
  }
  return VT_OK;
nomem:
  vt_err_set(err, VT_ERR_NOMEM, "%s: out of memory", name);
  return VT_ERR_NOMEM;
}

static void hexfile_free(hexfile *hf) {
  free(hf->words);
  free(hf->lines);
}

void vt_testvec_free(vt_testvec *tv) {
  if (!tv) return;
  free(tv->bufs);
  free(tv->data);
  free(tv);
}

/* the state shared by the parsing steps below */
typedef struct tv_parse {
  const char *meta_name, *data_name;
  hexfile mf, df;
  uint64_t *u;  /* the .metadata as 64-bit fields */
  size_t shift; /* 1 for the layouts without start_pc */
  vt_testvec *tv;
  vt_error *err;
} tv_parse;

/* field names of formats-and-launch.md 2.2, by index in the current layout */
static const char *const field_names[14] = {
    "start_pc", "kernel_id", "kernel_size[0]", "kernel_size[1]", "kernel_size[2]",
    "wf_size", "wg_size", "metaDataBaseAddr", "ldsSize", "pdsSize", "sgprUsage",
    "vgprUsage", "pdsBaseAddr", "num_buffer"};

/* 64-bit field k of the file as a 32-bit value; a set upper half is an error
 * naming the line of that half */
static int field32(tv_parse *p, size_t k, const char *name, uint32_t *out) {
  uint64_t v = p->u[k];
  if (v >> 32) {
    vt_err_set(p->err, VT_ERR_FORMAT, "%s:%u: %s = 0x%llx does not fit in 32 bits",
               p->meta_name, p->mf.lines[2 * k + 1], name, (unsigned long long)v);
    return VT_ERR_FORMAT;
  }
  *out = (uint32_t)v;
  return VT_OK;
}

/* 2.2: the variant follows from the line count */
static int detect_layout(tv_parse *p, size_t L) {
  const uint64_t *u = p->u;
  vt_testvec *tv = p->tv;
  p->shift = 1;
  if (L >= 14 && u[13] < 0x10000 && L == 14 + 3 * u[13]) {
    tv->variant = VT_TV_CURRENT;
    p->shift = 0;
  } else if (u[12] < 0x10000 && L == 13 + 3 * u[12]) {
    tv->variant = VT_TV_OLD;
  } else if (u[12] < 0x10000 && L == 13 + 2 * u[12]) {
    tv->variant = VT_TV_OLDEST;
  } else {
    vt_err_set(p->err, VT_ERR_FORMAT,
               "%s: %zu lines match no .metadata layout (current: 2*(14+3N), old: 2*(13+3N), "
               "oldest: 2*(13+2N) with N the buffer count)", p->meta_name, p->mf.n);
    return VT_ERR_FORMAT;
  }
  return VT_OK;
}

/* the launch fields 0..13 (kernel_id, never used, may hold anything) */
static int read_header(tv_parse *p) {
  vt_testvec *tv = p->tv;
  uint32_t *dst[14] = {&tv->start_pc, NULL, &tv->num_wg[0], &tv->num_wg[1], &tv->num_wg[2],
                       &tv->wf_size, &tv->wg_size, &tv->knl, &tv->lds_size, &tv->pds_size,
                       &tv->sgpr_usage, &tv->vgpr_usage, &tv->pds_base, NULL};
  uint32_t nbuf = 0;
  dst[13] = &nbuf;
  tv->start_pc = VT_PROGRAM_BASE;
  for (size_t i = p->shift; i < 14; i++) {
    if (!dst[i]) continue;
    int rc = field32(p, i - p->shift, field_names[i], dst[i]);
    if (rc) return rc;
  }
  tv->nbuf = nbuf; /* < 0x10000 (detect_layout) */
  return VT_OK;
}

/* buffer i: base, size and allocation size; each fits 32 bits and the
 * allocation (at least the size) ends within 4 GiB */
static int read_buffer(tv_parse *p, unsigned i) {
  vt_testvec *tv = p->tv;
  vt_tv_buffer *b = &tv->bufs[i];
  size_t first = 14 - p->shift, n = tv->nbuf;
  char name[32];
  snprintf(name, sizeof name, "buffer_base[%u]", i);
  int rc = field32(p, first + i, name, &b->base);
  snprintf(name, sizeof name, "buffer_size[%u]", i);
  if (!rc) rc = field32(p, first + n + i, name, &b->size);
  b->alloc = b->size;
  snprintf(name, sizeof name, "buffer_allocsize[%u]", i);
  if (!rc && tv->variant != VT_TV_OLDEST) rc = field32(p, first + 2 * n + i, name, &b->alloc);
  if (rc) return rc;
  bool by_size = b->alloc <= b->size; /* the size row decides the extent */
  if (by_size) b->alloc = b->size;
  if ((uint64_t)b->base + b->alloc > 0x100000000ull) {
    size_t field = first + (by_size ? 1 : 2) * n + i;
    vt_err_set(p->err, VT_ERR_FORMAT, "%s:%u: buffer %u at 0x%08x size 0x%x exceeds 4 GiB",
               p->meta_name, p->mf.lines[2 * field], i, b->base, b->alloc);
    return VT_ERR_FORMAT;
  }
  return VT_OK;
}

/* lines of .data buffer b takes: ceil(size / 4), without wrapping */
static uint64_t data_lines(const vt_tv_buffer *b) { return ((uint64_t)b->size + 3) / 4; }

/* 2.3: sum of ceil(size/4) lines, plus an optional all-zero line */
static int read_data(tv_parse *p) {
  vt_testvec *tv = p->tv;
  const hexfile *df = &p->df;
  uint64_t need = 0;
  for (unsigned i = 0; i < tv->nbuf; i++) {
    uint64_t lines = data_lines(&tv->bufs[i]);
    if (lines > df->n) { /* a size no .data of this length can hold: name it */
      size_t field = 14 - p->shift + tv->nbuf + i;
      vt_err_set(p->err, VT_ERR_FORMAT,
                 "%s:%u: buffer_size[%u] = 0x%x needs %llu lines of %s, which has %zu",
                 p->meta_name, p->mf.lines[2 * field], i, tv->bufs[i].size,
                 (unsigned long long)lines, p->data_name, df->n);
      return VT_ERR_FORMAT;
    }
    need += lines;
  }
  if (!(df->n == need || (df->n == need + 1 && df->words[need] == 0))) {
    vt_err_set(p->err, VT_ERR_FORMAT,
               "%s: %zu data lines, but the buffer sizes in %s need %llu", p->data_name, df->n,
               p->meta_name, (unsigned long long)need);
    return VT_ERR_FORMAT;
  }
  tv->data_len = (size_t)need * 4; /* need <= df->n: no overflow */
  tv->data = malloc(tv->data_len ? tv->data_len : 1);
  if (!tv->data) {
    vt_err_set(p->err, VT_ERR_NOMEM, "out of memory");
    return VT_ERR_NOMEM;
  }
  for (size_t k = 0; k < need; k++) {
    uint32_t v = df->words[k];
    tv->data[4 * k] = (uint8_t)v;
    tv->data[4 * k + 1] = (uint8_t)(v >> 8);
    tv->data[4 * k + 2] = (uint8_t)(v >> 16);
    tv->data[4 * k + 3] = (uint8_t)(v >> 24);
  }
  size_t off = 0;
  for (unsigned i = 0; i < tv->nbuf; i++) {
    tv->bufs[i].data_offset = off;
    off += 4 * (size_t)data_lines(&tv->bufs[i]);
  }
  return VT_OK;
}

static int check_shape(tv_parse *p) {
  const vt_testvec *tv = p->tv;
  for (unsigned i = 0; i < tv->nbuf; i++)
    for (unsigned j = i + 1; j < tv->nbuf; j++) {
      const vt_tv_buffer *a = &tv->bufs[i], *b = &tv->bufs[j];
      if (a->alloc && b->alloc && a->base < (uint64_t)b->base + b->alloc &&
          b->base < (uint64_t)a->base + a->alloc) {
        vt_err_set(p->err, VT_ERR_FORMAT,
                   "%s: buffers %u [0x%08x, +0x%x) and %u [0x%08x, +0x%x) overlap", p->meta_name,
                   i, a->base, a->alloc, j, b->base, b->alloc);
        return VT_ERR_FORMAT;
      }
    }
  if (tv->wf_size == 0 || tv->wf_size > 32 || (tv->wf_size & (tv->wf_size - 1))) {
    vt_err_set(p->err, VT_ERR_FORMAT,
               "%s: threads per warp %u is not a power of two from 1 to 32", p->meta_name,
               tv->wf_size);
    return VT_ERR_FORMAT;
  }
  if (tv->wg_size == 0 || tv->wg_size > 32) {
    vt_err_set(p->err, VT_ERR_FORMAT, "%s: warps per workgroup %u is not 1 to 32", p->meta_name,
               tv->wg_size);
    return VT_ERR_FORMAT;
  }
  if (tv->num_wg[0] == 0 || tv->num_wg[1] == 0 || tv->num_wg[2] == 0) {
    vt_err_set(p->err, VT_ERR_FORMAT, "%s: workgroup count %ux%ux%u has a zero", p->meta_name,
               tv->num_wg[0], tv->num_wg[1], tv->num_wg[2]);
    return VT_ERR_FORMAT;
  }
  return VT_OK;
}

/* the start pc is a code buffer; the kernel entry (word 0 of a complete
 * metadata buffer) lies in it */
static int check_entry(tv_parse *p) {
  const vt_testvec *tv = p->tv;
  const vt_tv_buffer *code = NULL, *knl = NULL;
  for (unsigned i = 0; i < tv->nbuf; i++) {
    if (tv->bufs[i].base == tv->start_pc) code = &tv->bufs[i];
    if (tv->bufs[i].base == tv->knl) knl = &tv->bufs[i];
  }
  if (!code || code->size == 0) {
    vt_err_set(p->err, VT_ERR_FORMAT, "%s: start pc 0x%08x is not the base of a code buffer",
               p->meta_name, tv->start_pc);
    return VT_ERR_FORMAT;
  }
  if (!knl || knl->size < 64) return VT_OK;
  const uint8_t *w = tv->data + knl->data_offset; /* >= 16 words of .data */
  uint32_t entry = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 |
                   (uint32_t)w[3] << 24;
  uint64_t end = (uint64_t)code->base + code->size;
  if (entry < code->base || entry >= end) {
    vt_err_set(p->err, VT_ERR_FORMAT,
               "%s: kernel entry 0x%08x (metadata buffer word 0) is outside the code "
               "[0x%08x, 0x%08llx)", p->meta_name, entry, code->base, (unsigned long long)end);
    return VT_ERR_FORMAT;
  }
  return VT_OK;
}

static int parse_metadata(tv_parse *p) {
  const hexfile *mf = &p->mf;
  if (mf->n % 2 != 0 || mf->n < 26) {
    vt_err_set(p->err, VT_ERR_FORMAT,
               "%s: %zu non-blank lines; a .metadata file has an even number of at least 26 "
               "(64-bit fields as two lines)", p->meta_name, mf->n);
    return VT_ERR_FORMAT;
  }
  size_t L = mf->n / 2;
  p->u = malloc(L * sizeof *p->u);
  p->tv = calloc(1, sizeof *p->tv);
  if (!p->u || !p->tv) {
    vt_err_set(p->err, VT_ERR_NOMEM, "out of memory");
    return VT_ERR_NOMEM;
  }
  for (size_t k = 0; k < L; k++)
    p->u[k] = mf->words[2 * k] | (uint64_t)mf->words[2 * k + 1] << 32;
  int rc = detect_layout(p, L);
  if (!rc) rc = read_header(p);
  if (rc) return rc;
  p->tv->bufs = calloc(p->tv->nbuf ? p->tv->nbuf : 1, sizeof *p->tv->bufs);
  if (!p->tv->bufs) {
    vt_err_set(p->err, VT_ERR_NOMEM, "out of memory");
    return VT_ERR_NOMEM;
  }
  for (unsigned i = 0; i < p->tv->nbuf && !rc; i++) rc = read_buffer(p, i);
  return rc;
}

int vt_testvec_parse(const char *meta_text, size_t meta_len, const char *meta_name,
                     const char *data_text, size_t data_len, const char *data_name,
                     vt_testvec **out, vt_error *err) {
  vt_error local;
  tv_parse p = {.meta_name = meta_name, .data_name = data_name, .err = err ? err : &local};
  *out = NULL;
  int rc = parse_hex_lines(meta_text, meta_len, meta_name, &p.mf, p.err);
  if (!rc) rc = parse_hex_lines(data_text, data_len, data_name, &p.df, p.err);
  if (!rc) rc = parse_metadata(&p);
  if (!rc) rc = read_data(&p);
  if (!rc) rc = check_shape(&p);
  if (!rc) rc = check_entry(&p);
  hexfile_free(&p.mf);
  hexfile_free(&p.df);
  free(p.u);
  if (rc) {
    vt_testvec_free(p.tv);
    return rc;
  }
  *out = p.tv;
  return VT_OK;
}

static char *slurp(const char *path, vt_file_limit lim, size_t *len, vt_error *err) {
  uint8_t *buf;
  char msg[sizeof err->message];
  int e = vt_read_file(path, lim, &buf, len, msg, sizeof msg);
  if (e) {
    if (e == ENOMEM)
      vt_err_set(err, VT_ERR_NOMEM, "%s: out of memory", path);
    else if (e == EFBIG)
      vt_err_set(err, VT_ERR_FORMAT, "%s", msg);
    else
      vt_err_set(err, VT_ERR_FORMAT, "%s: cannot open", path);
    return NULL;
  }
  return (char *)buf;
}

int vt_testvec_load(const char *metadata_path, const char *data_path, vt_testvec **out,
                    vt_error *err) {
  vt_error local;
  if (!err) err = &local;
  *out = NULL;
  char dpath[4096];
  if (!data_path) {
    size_t n = strlen(metadata_path);
    const char *dot = strrchr(metadata_path, '.');
    size_t stem = dot && !strchr(dot, '/') ? (size_t)(dot - metadata_path) : n;
    if (stem + 6 >= sizeof dpath) {
      vt_err_set(err, VT_ERR_ARG, "%s: path too long", metadata_path);
      return VT_ERR_ARG;
    }
    memcpy(dpath, metadata_path, stem);
    memcpy(dpath + stem, ".data", 6);
    data_path = dpath;
  }
  size_t ml = 0, dl = 0;
  char *m = slurp(metadata_path, VT_FILE_LIMIT_METADATA, &ml, err);
  if (!m) return err->status;
  char *d = slurp(data_path, VT_FILE_LIMIT_DATA, &dl, err);
  if (!d) {
    free(m);
    return err->status;
  }
  int rc = vt_testvec_parse(m, ml, metadata_path, d, dl, data_path, out, err);
  free(m);
  free(d);
  return rc;
}

int vt_testvec_apply(vt_device *dev, const vt_testvec *tv, vt_launch *l, vt_error *err) {
  for (unsigned i = 0; i < tv->nbuf; i++) {
    const vt_tv_buffer *b = &tv->bufs[i];
    int rc = vt_mem_map(dev, b->base, b->alloc, err);
    char label[32];
    snprintf(label, sizeof label, "buffer %u", i);
    if (rc == VT_OK && b->alloc) rc = vt_mem_label(dev, b->base, b->alloc, label, err);
    if (rc) return rc;
    if (b->size) {
      rc = vt_mem_write(dev, b->base, tv->data + b->data_offset, b->size, err);
      if (rc) return rc;
    }
  }
  memset(l, 0, sizeof *l);
  l->start_pc = tv->start_pc;
  memcpy(l->num_wg, tv->num_wg, sizeof l->num_wg);
  l->threads_per_warp = tv->wf_size;
  l->warps_per_wg = tv->wg_size;
  l->knl_addr = tv->knl;
  l->lds_size = tv->lds_size;
  l->pds_size = tv->pds_size;
  l->pds_base = tv->pds_base;
  l->sgpr_usage = tv->sgpr_usage;
  l->vgpr_usage = tv->vgpr_usage;
  /* the local sizes in the KNL buffer, when they fit the launch (vt/knl.h) */
  uint8_t knl[VT_KNL_GEOMETRY_BYTES];
  vt_error ignored;
  if (vt_mem_read(dev, l->knl_addr, knl, sizeof knl, &ignored) == VT_OK)
    l->wg_threads = vt_knl_wg_threads(knl, sizeof knl, l->threads_per_warp, l->warps_per_wg);
  return VT_OK;
}
