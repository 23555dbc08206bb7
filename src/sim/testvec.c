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

int vt_testvec_parse(const char *meta_text, size_t meta_len, const char *meta_name,
                     const char *data_text, size_t data_len, const char *data_name,
                     vt_testvec **out, vt_error *err) {
  vt_error local;
  if (!err) err = &local;
  *out = NULL;
  hexfile mf = {0}, df = {0};
  vt_testvec *tv = NULL;
  int rc = parse_hex_lines(meta_text, meta_len, meta_name, &mf, err);
  if (rc) goto fail;
  rc = parse_hex_lines(data_text, data_len, data_name, &df, err);
  if (rc) goto fail;
  rc = VT_ERR_FORMAT;
  if (mf.n % 2 != 0 || mf.n < 26) {
    vt_err_set(err, VT_ERR_FORMAT,
               "%s: %zu non-blank lines; a .metadata file has an even number of at least 26 "
               "(64-bit fields as two lines)", meta_name, mf.n);
    goto fail;
  }
  size_t L = mf.n / 2;
  uint64_t *u = malloc(L * sizeof *u);
  if (!u) {
    rc = VT_ERR_NOMEM;
    vt_err_set(err, rc, "out of memory");
    goto fail;
  }
  for (size_t k = 0; k < L; k++) u[k] = mf.words[2 * k] | (uint64_t)mf.words[2 * k + 1] << 32;
  tv = calloc(1, sizeof *tv);
  if (!tv) {
    free(u);
    rc = VT_ERR_NOMEM;
    vt_err_set(err, rc, "out of memory");
    goto fail;
  }
  /* 2.2: the variant follows from the line count */
  size_t shift;
  if (L >= 14 && u[13] < 0x10000 && L == 14 + 3 * u[13]) {
    tv->variant = VT_TV_CURRENT;
    shift = 0;
  } else if (u[12] < 0x10000 && L == 13 + 3 * u[12]) {
    tv->variant = VT_TV_OLD;
    shift = 1;
  } else if (u[12] < 0x10000 && L == 13 + 2 * u[12]) {
    tv->variant = VT_TV_OLDEST;
    shift = 1;
  } else {
    vt_err_set(err, VT_ERR_FORMAT,
               "%s: %zu lines match no .metadata layout (current: 2*(14+3N), old: 2*(13+3N), "
               "oldest: 2*(13+2N) with N the buffer count)", meta_name, mf.n);
    free(u);
    goto fail;
  }
#define F(i) u[(i) - shift]
  tv->start_pc = tv->variant == VT_TV_CURRENT ? (uint32_t)u[0] : VT_PROGRAM_BASE;
  tv->num_wg[0] = (uint32_t)F(2);
  tv->num_wg[1] = (uint32_t)F(3);
  tv->num_wg[2] = (uint32_t)F(4);
  tv->wf_size = (uint32_t)F(5);
  tv->wg_size = (uint32_t)F(6);
  tv->knl = (uint32_t)F(7);
  tv->lds_size = (uint32_t)F(8);
  tv->pds_size = (uint32_t)F(9);
  tv->sgpr_usage = (uint32_t)F(10);
  tv->vgpr_usage = (uint32_t)F(11);
  tv->pds_base = (uint32_t)F(12);
  tv->nbuf = (unsigned)F(13);
  size_t first = 14 - shift;
  tv->bufs = calloc(tv->nbuf ? tv->nbuf : 1, sizeof *tv->bufs);
  if (!tv->bufs) {
    free(u);
    rc = VT_ERR_NOMEM;
    vt_err_set(err, rc, "out of memory");
    goto fail;
  }
  for (unsigned i = 0; i < tv->nbuf; i++) {
    vt_tv_buffer *b = &tv->bufs[i];
    b->base = (uint32_t)u[first + i];
    b->size = (uint32_t)u[first + tv->nbuf + i];
    b->alloc = tv->variant == VT_TV_OLDEST ? b->size : (uint32_t)u[first + 2 * tv->nbuf + i];
    if (b->alloc < b->size) b->alloc = b->size;
    if ((uint64_t)b->base + b->alloc > 0x100000000ull) {
      /* name the line of the size that does not fit (allocation row,
       * or the size row in the oldest layout) */
      size_t field = first + (tv->variant == VT_TV_OLDEST || b->alloc == b->size ? 1 : 2) *
                                 tv->nbuf + i;
      vt_err_set(err, VT_ERR_FORMAT, "%s:%u: buffer %u at 0x%08x size 0x%x exceeds 4 GiB",
                 meta_name, mf.lines[2 * field], i, b->base, b->alloc);
      free(u);
      goto fail;
    }
  }
#undef F
  free(u);
  /* 2.3: sum of ceil(size/4) lines, plus an optional all-zero line */
  size_t need = 0;
  for (unsigned i = 0; i < tv->nbuf; i++) need += (tv->bufs[i].size + 3u) / 4u;
  if (!(df.n == need || (df.n == need + 1 && df.words[need] == 0))) {
    vt_err_set(err, VT_ERR_FORMAT,
               "%s: %zu data lines, but the buffer sizes in %s need %zu", data_name, df.n,
               meta_name, need);
    goto fail;
  }
  tv->data_len = need * 4;
  tv->data = malloc(tv->data_len ? tv->data_len : 1);
  if (!tv->data) {
    rc = VT_ERR_NOMEM;
    vt_err_set(err, rc, "out of memory");
    goto fail;
  }
  for (size_t k = 0; k < need; k++) {
    uint32_t v = df.words[k];
    tv->data[4 * k] = (uint8_t)v;
    tv->data[4 * k + 1] = (uint8_t)(v >> 8);
    tv->data[4 * k + 2] = (uint8_t)(v >> 16);
    tv->data[4 * k + 3] = (uint8_t)(v >> 24);
  }
  size_t off = 0;
  for (unsigned i = 0; i < tv->nbuf; i++) {
    tv->bufs[i].data_offset = off;
    off += 4 * ((tv->bufs[i].size + 3u) / 4u);
  }
  /* consistency */
  for (unsigned i = 0; i < tv->nbuf; i++)
    for (unsigned j = i + 1; j < tv->nbuf; j++) {
      const vt_tv_buffer *a = &tv->bufs[i], *b = &tv->bufs[j];
      if (a->alloc && b->alloc && a->base < (uint64_t)b->base + b->alloc &&
          b->base < (uint64_t)a->base + a->alloc) {
        vt_err_set(err, VT_ERR_FORMAT,
                   "%s: buffers %u [0x%08x, +0x%x) and %u [0x%08x, +0x%x) overlap", meta_name, i,
                   a->base, a->alloc, j, b->base, b->alloc);
        goto fail;
      }
    }
  if (tv->wf_size == 0 || tv->wf_size > 32 || (tv->wf_size & (tv->wf_size - 1))) {
    vt_err_set(err, VT_ERR_FORMAT, "%s: threads per warp %u is not a power of two from 1 to 32",
               meta_name, tv->wf_size);
    goto fail;
  }
  if (tv->wg_size == 0 || tv->wg_size > 32) {
    vt_err_set(err, VT_ERR_FORMAT, "%s: warps per workgroup %u is not 1 to 32", meta_name,
               tv->wg_size);
    goto fail;
  }
  if (tv->num_wg[0] == 0 || tv->num_wg[1] == 0 || tv->num_wg[2] == 0) {
    vt_err_set(err, VT_ERR_FORMAT, "%s: workgroup count %ux%ux%u has a zero", meta_name,
               tv->num_wg[0], tv->num_wg[1], tv->num_wg[2]);
    goto fail;
  }
  {
    const vt_tv_buffer *code = NULL, *knl = NULL;
    for (unsigned i = 0; i < tv->nbuf; i++) {
      if (tv->bufs[i].base == tv->start_pc) code = &tv->bufs[i];
      if (tv->bufs[i].base == tv->knl) knl = &tv->bufs[i];
    }
    if (!code || code->size == 0) {
      vt_err_set(err, VT_ERR_FORMAT, "%s: start pc 0x%08x is not the base of a code buffer",
                 meta_name, tv->start_pc);
      goto fail;
    }
    if (knl && knl->size >= 4) {
      const uint8_t *p = tv->data + knl->data_offset;
      uint32_t entry = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                       (uint32_t)p[3] << 24;
      if (knl->size >= 64 && (entry < code->base || entry >= code->base + code->size)) {
        vt_err_set(err, VT_ERR_FORMAT,
                   "%s: kernel entry 0x%08x (metadata buffer word 0) is outside the code "
                   "[0x%08x, 0x%08x)", meta_name, entry, code->base, code->base + code->size);
        goto fail;
      }
    }
  }
  hexfile_free(&mf);
  hexfile_free(&df);
  *out = tv;
  return VT_OK;
fail:
  hexfile_free(&mf);
  hexfile_free(&df);
  vt_testvec_free(tv);
  return rc;
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
  return VT_OK;
}
