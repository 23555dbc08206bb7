/* The test-vector loader (formats-and-launch.md 2, 12): the official cases
 * against values read by hand from the spec (2.4, 2.5) and the files, the
 * old and oldest layouts built by hand, and malformed inputs built in the
 * test, each with its message. */
#include <sys/stat.h>

#include "check.h"
#include "vt/testvec.h"

#define CASES VT_SHARED_DIR "/cases"

/* ---- line lists: editable copies of the files ---- */
typedef struct lines {
  char l[1024][16];
  unsigned n;
} lines;

static void split(lines *ls, const char *text) {
  ls->n = 0;
  while (*text && ls->n < 1024) {
    const char *e = strchr(text, '\n');
    size_t len = e ? (size_t)(e - text) : strlen(text);
    if (len > 15) len = 15;
    memcpy(ls->l[ls->n], text, len);
    ls->l[ls->n][len] = 0;
    ls->n++;
    if (!e) break;
    text = e + 1;
  }
}

static char *join(const lines *ls) {
  char *s = malloc(16 * (size_t)ls->n + 1), *p = s;
  for (unsigned i = 0; i < ls->n; i++) p += sprintf(p, "%s\n", ls->l[i]);
  *p = 0;
  return s;
}

static void del_line(lines *ls, unsigned i) { /* 0-based */
  memmove(ls->l[i], ls->l[i + 1], (ls->n - i - 1) * sizeof ls->l[0]);
  ls->n--;
}

static lines matadd_meta, matadd_data;

static void load_matadd_lines(void) {
  size_t n;
  char *m = test_slurp(CASES "/matadd/matadd.metadata", &n);
  char *d = test_slurp(CASES "/matadd/matadd.data", &n);
  split(&matadd_meta, m);
  split(&matadd_data, d);
  free(m);
  free(d);
}

/* parse edited copies; returns the status and fills err */
static int parse_lines(const lines *meta, const lines *data, vt_testvec **tv, vt_error *err) {
  char *m = join(meta), *d = join(data);
  int rc = vt_testvec_parse(m, strlen(m), "t.metadata", d, strlen(d), "t.data", tv, err);
  free(m);
  free(d);
  return rc;
}

static void expect_format_error(check_state *st, const lines *meta, const lines *data,
                                const char *needle) {
  vt_testvec *tv = (vt_testvec *)1;
  vt_error e;
  memset(&e, 0, sizeof e);
  CHECK_EQ_U32(st, parse_lines(meta, data, &tv, &e), VT_ERR_FORMAT);
  CHECK(st, tv == NULL);
  CHECK_EQ_U32(st, e.status, VT_ERR_FORMAT);
  CHECK(st, !e.has_location);
  if (!strstr(e.message, needle)) {
    st->failed_checks++;
    fprintf(stderr, "message \"%s\" lacks \"%s\"\n", e.message, needle);
  }
}

static uint32_t word_at(const vt_testvec *tv, unsigned buf, unsigned k) {
  const uint8_t *p = tv->data + tv->bufs[buf].data_offset + 4 * k;
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check_bufs(check_state *st, const vt_testvec *tv, const uint32_t *base,
                       const uint32_t *size, const uint32_t *alloc, unsigned n) {
  CHECK_EQ_U32(st, tv->nbuf, n);
  if (tv->nbuf != n) return;
  for (unsigned i = 0; i < n; i++) {
    CHECK_EQ_U32(st, tv->bufs[i].base, base[i]);
    CHECK_EQ_U32(st, tv->bufs[i].size, size[i]);
    CHECK_EQ_U32(st, tv->bufs[i].alloc, alloc[i]);
  }
}

/* ---------------- official cases ---------------- */

/* formats-and-launch.md 2.4 */
TEST(official_matadd) {
  vt_testvec *tv = NULL;
  vt_error e;
  CHECK_EQ_U32(st, vt_testvec_load(CASES "/matadd/matadd.metadata", NULL, &tv, &e), VT_OK);
  if (!tv) return;
  CHECK_EQ_U32(st, tv->variant, VT_TV_CURRENT);
  CHECK_EQ_U32(st, tv->start_pc, 0x80000000u);
  CHECK_EQ_U32(st, tv->num_wg[0], 1);
  CHECK_EQ_U32(st, tv->num_wg[1], 1);
  CHECK_EQ_U32(st, tv->num_wg[2], 1);
  CHECK_EQ_U32(st, tv->wf_size, 4);
  CHECK_EQ_U32(st, tv->wg_size, 4);
  CHECK_EQ_U32(st, tv->knl, 0x90014000u);
  CHECK_EQ_U32(st, tv->lds_size, 0x1000);
  CHECK_EQ_U32(st, tv->pds_size, 0x1000);
  CHECK_EQ_U32(st, tv->sgpr_usage, 0x40);
  CHECK_EQ_U32(st, tv->vgpr_usage, 0x40);
  CHECK_EQ_U32(st, tv->pds_base, 0x90004000u);
  const uint32_t base[] = {0x90000000, 0x90001000, 0x90002000, 0x90003000,
                           0x80000000, 0x90004000, 0x90014000};
  const uint32_t size[] = {0x40, 0x40, 0x40, 0xc, 0x4d8, 0, 0x40};
  const uint32_t alloc[] = {0x40, 0x40, 0x40, 0xc, 0x10000000, 0x10000, 0x40};
  check_bufs(st, tv, base, size, alloc, 7);
  CHECK(st, tv->data_len == 377 * 4);
  if (tv->nbuf == 7) {
    CHECK_EQ_U32(st, word_at(tv, 0, 0), 0x00000000);   /* A[0] = 0.0 */
    CHECK_EQ_U32(st, word_at(tv, 0, 1), 0x3f800000);   /* A[1] = 1.0 */
    CHECK_EQ_U32(st, word_at(tv, 1, 0), 0x41800000);   /* B[0] = 16.0 */
    CHECK_EQ_U32(st, word_at(tv, 3, 2), 0x90002000);   /* args: C */
    CHECK_EQ_U32(st, word_at(tv, 4, 0), 0x00004197);   /* auipc gp (line 52) */
    CHECK_EQ_U32(st, word_at(tv, 6, 0), 0x800000a8);   /* KNL entry */
    CHECK_EQ_U32(st, word_at(tv, 6, 1), 0x90003000);
    CHECK_EQ_U32(st, word_at(tv, 6, 2), 2);            /* work_dim */
    CHECK_EQ_U32(st, word_at(tv, 6, 3), 4);
    CHECK_EQ_U32(st, word_at(tv, 6, 4), 4);
  }
  /* apply: buffers mapped and written, launch filled */
  vt_device *dev = vt_device_new(NULL);
  vt_launch l;
  CHECK_EQ_U32(st, vt_testvec_apply(dev, tv, &l, &e), VT_OK);
  CHECK_EQ_U32(st, l.start_pc, 0x80000000u);
  CHECK_EQ_U32(st, l.threads_per_warp, 4);
  CHECK_EQ_U32(st, l.warps_per_wg, 4);
  CHECK_EQ_U32(st, l.knl_addr, 0x90014000u);
  CHECK_EQ_U32(st, l.pds_base, 0x90004000u);
  CHECK_EQ_U32(st, l.pds_size, 0x1000);
  CHECK_EQ_U32(st, l.lds_size, 0x1000);
  CHECK_EQ_U32(st, l.num_wg[0] * l.num_wg[1] * l.num_wg[2], 1);
  uint8_t b[4];
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90001000u, b, 4, &e), VT_OK);
  CHECK_EQ_U32(st, (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24,
               0x41800000);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90014000u, b, 4, &e), VT_OK);
  CHECK_EQ_U32(st, b[0], 0xa8);
  /* the PDS allocation is mapped (0x10000 bytes), beyond it not */
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90013ffcu, b, 4, &e), VT_OK);
  CHECK_EQ_U32(st, vt_mem_read(dev, 0x90003010u, b, 4, &e), VT_ERR_ACCESS);
  vt_device_free(dev);
  vt_testvec_free(tv);
}

/* formats-and-launch.md 2.5 */
TEST(official_vecadd4x4) {
  vt_testvec *tv = NULL;
  vt_error e;
  CHECK_EQ_U32(st, vt_testvec_load(CASES "/vecadd4x4/vecadd4x4.metadata", NULL, &tv, &e), VT_OK);
  if (!tv) return;
  CHECK_EQ_U32(st, tv->variant, VT_TV_CURRENT);
  CHECK_EQ_U32(st, tv->wf_size, 4);
  CHECK_EQ_U32(st, tv->wg_size, 4);
  CHECK_EQ_U32(st, tv->sgpr_usage, 0x20);
  CHECK_EQ_U32(st, tv->vgpr_usage, 0x20);
  const uint32_t base[] = {0x90000000, 0x90001000, 0x90002000, 0x90003000,
                           0x80000000, 0x90004000, 0x90014000};
  const uint32_t size[] = {0x40, 0x40, 0x40, 0xc, 0x418, 0, 0x40};
  const uint32_t alloc[] = {0x40, 0x40, 0x40, 0xc, 0x10000000, 0x10000, 0x40};
  check_bufs(st, tv, base, size, alloc, 7);
  CHECK(st, tv->data_len == 329 * 4);
  if (tv->nbuf == 7) {
    CHECK_EQ_U32(st, word_at(tv, 6, 0), 0x80000098);
    CHECK_EQ_U32(st, word_at(tv, 6, 2), 1);
    CHECK_EQ_U32(st, word_at(tv, 6, 3), 16);
    CHECK_EQ_U32(st, word_at(tv, 6, 6), 16);
  }
  vt_testvec_free(tv);
}

TEST(official_vecadd_4x16) {
  vt_testvec *tv = NULL;
  vt_error e;
  CHECK_EQ_U32(st, vt_testvec_load(CASES "/vecadd_4x16/vecadd.metadata", NULL, &tv, &e), VT_OK);
  if (!tv) return;
  CHECK_EQ_U32(st, tv->variant, VT_TV_CURRENT);
  CHECK_EQ_U32(st, tv->wf_size, 16);
  CHECK_EQ_U32(st, tv->wg_size, 4);
  CHECK_EQ_U32(st, tv->knl, 0x90044000u);
  CHECK_EQ_U32(st, tv->pds_base, 0x90004000u);
  const uint32_t base[] = {0x90000000, 0x90001000, 0x90002000, 0x90003000,
                           0x80000000, 0x90004000, 0x90044000};
  const uint32_t size[] = {0x100, 0x100, 0x100, 0xc, 0x410, 0, 0x40};
  const uint32_t alloc[] = {0x100, 0x100, 0x100, 0xc, 0x10000000, 0x40000, 0x40};
  check_bufs(st, tv, base, size, alloc, 7);
  CHECK(st, tv->data_len == 471 * 4);
  vt_testvec_free(tv);
}

/* gaussian: buffers in argument order of first use (m, a, b), later
 * launches carry only the new buffers */
TEST(official_gaussian) {
  vt_testvec *tv = NULL;
  vt_error e;
  CHECK_EQ_U32(st, vt_testvec_load(CASES "/gaussian/Fan1_0.metadata", NULL, &tv, &e), VT_OK);
  if (tv) {
    CHECK_EQ_U32(st, tv->wf_size, 4);
    CHECK_EQ_U32(st, tv->wg_size, 1);
    CHECK_EQ_U32(st, tv->knl, 0x90008000u);
    const uint32_t base[] = {0x90002000, 0x90000000, 0x90001000, 0x90003000,
                             0x80000000, 0x90004000, 0x90008000};
    const uint32_t size[] = {0x40, 0x40, 0x10, 0x14, 0x5a8, 0, 0x40};
    const uint32_t alloc[] = {0x40, 0x40, 0x10, 0x14, 0x10000000, 0x4000, 0x40};
    check_bufs(st, tv, base, size, alloc, 7);
    CHECK(st, tv->data_len == 419 * 4);
    vt_testvec_free(tv);
  }
  tv = NULL;
  CHECK_EQ_U32(st, vt_testvec_load(CASES "/gaussian/Fan2_2.metadata", NULL, &tv, &e), VT_OK);
  if (tv) {
    CHECK_EQ_U32(st, tv->wg_size, 4);
    CHECK_EQ_U32(st, tv->knl, 0x9004a000u);
    CHECK_EQ_U32(st, tv->pds_base, 0x9003a000u);
    const uint32_t base[] = {0x90039000, 0x80000000, 0x9003a000, 0x9004a000};
    const uint32_t size[] = {0x14, 0x5a8, 0, 0x40};
    const uint32_t alloc[] = {0x14, 0x10000000, 0x10000, 0x40};
    check_bufs(st, tv, base, size, alloc, 4);
    CHECK(st, tv->data_len == 383 * 4);
    vt_testvec_free(tv);
  }
}

/* ---------------- hand-built layouts ---------------- */

/* old: matadd without the start_pc field (68 lines); oldest: also without
 * the allocation-size row (54 lines) */
TEST(old_and_oldest_layouts) {
  load_matadd_lines();
  lines old = matadd_meta;
  del_line(&old, 0);
  del_line(&old, 0);
  CHECK_EQ_U32(st, old.n, 68);
  vt_testvec *tv = NULL;
  vt_error e;
  CHECK_EQ_U32(st, parse_lines(&old, &matadd_data, &tv, &e), VT_OK);
  if (tv) {
    CHECK_EQ_U32(st, tv->variant, VT_TV_OLD);
    CHECK_EQ_U32(st, tv->start_pc, 0x80000000u);
    CHECK_EQ_U32(st, tv->wf_size, 4);
    CHECK_EQ_U32(st, tv->wg_size, 4);
    CHECK_EQ_U32(st, tv->knl, 0x90014000u);
    CHECK_EQ_U32(st, tv->pds_base, 0x90004000u);
    CHECK_EQ_U32(st, tv->nbuf, 7);
    if (tv->nbuf == 7) {
      CHECK_EQ_U32(st, tv->bufs[4].alloc, 0x10000000);
      CHECK_EQ_U32(st, tv->bufs[5].alloc, 0x10000);
    }
    vt_testvec_free(tv);
  }
  lines oldest = old;
  oldest.n -= 14; /* drop the 7 allocation sizes */
  CHECK_EQ_U32(st, oldest.n, 54);
  tv = NULL;
  CHECK_EQ_U32(st, parse_lines(&oldest, &matadd_data, &tv, &e), VT_OK);
  if (tv) {
    CHECK_EQ_U32(st, tv->variant, VT_TV_OLDEST);
    CHECK_EQ_U32(st, tv->start_pc, 0x80000000u);
    CHECK_EQ_U32(st, tv->knl, 0x90014000u);
    const uint32_t base[] = {0x90000000, 0x90001000, 0x90002000, 0x90003000,
                             0x80000000, 0x90004000, 0x90014000};
    const uint32_t size[] = {0x40, 0x40, 0x40, 0xc, 0x4d8, 0, 0x40};
    check_bufs(st, tv, base, size, size, 7); /* allocation = size */
    vt_testvec_free(tv);
  }
}

/* blank lines, upper case, CRLF and an extra all-zero .data line are
 * accepted (2.1, 2.3) */
TEST(tolerated_variations) {
  load_matadd_lines();
  size_t mlen = 0, dlen = 0;
  char *m = join(&matadd_meta), *d = join(&matadd_data);
  char *m2 = malloc(4 * strlen(m) + 16), *d2 = malloc(strlen(d) + 32);
  char *q = m2;
  for (const char *c = m; *c; c++) {
    if (*c == '\n') {
      *q++ = '\r';
      *q++ = '\n';
      *q++ = '\n'; /* blank line after every line */
    } else {
      *q++ = (char)(*c >= 'a' && *c <= 'f' ? *c - 32 : *c);
    }
  }
  *q = 0;
  mlen = strlen(m2);
  sprintf(d2, "%s00000000\n", d);
  dlen = strlen(d2);
  vt_testvec *tv = NULL;
  vt_error e;
  CHECK_EQ_U32(st, vt_testvec_parse(m2, mlen, "m", d2, dlen, "d", &tv, &e), VT_OK);
  if (tv) {
    CHECK_EQ_U32(st, tv->knl, 0x90014000u);
    CHECK(st, tv->data_len == 377 * 4);
    vt_testvec_free(tv);
  }
  /* no final newline */
  d[strlen(d) - 1] = 0;
  tv = NULL;
  CHECK_EQ_U32(st, vt_testvec_parse(m, strlen(m), "m", d, strlen(d), "d", &tv, &e), VT_OK);
  vt_testvec_free(tv);
  free(m);
  free(d);
  free(m2);
  free(d2);
}

/* ---------------- malformed inputs ---------------- */

TEST(malformed_metadata) {
  load_matadd_lines();
  lines m = matadd_meta;
  /* odd line count */
  m.n--;
  expect_format_error(st, &m, &matadd_data, "t.metadata: 69 non-blank lines; a .metadata file has an even number");
  /* a layout that matches no variant */
  m = matadd_meta;
  strcpy(m.l[m.n++], "00000000");
  strcpy(m.l[m.n++], "00000000");
  expect_format_error(st, &m, &matadd_data, "t.metadata: 72 lines match no .metadata layout");
  /* not hex: file:line */
  m = matadd_meta;
  strcpy(m.l[4], "0000zz01");
  expect_format_error(st, &m, &matadd_data, "t.metadata:5: 'z' is not a hex digit");
  m = matadd_meta;
  strcpy(m.l[9], "123456789");
  expect_format_error(st, &m, &matadd_data, "t.metadata:10: expected at most 8 hex digits");
  /* threads per warp 3 (line 11 = wf_size low half) */
  m = matadd_meta;
  strcpy(m.l[10], "00000003");
  expect_format_error(st, &m, &matadd_data, "t.metadata: threads per warp 3 is not a power of two");
  strcpy(m.l[10], "00000040");
  expect_format_error(st, &m, &matadd_data, "threads per warp 64");
  /* W = 0 (line 13) */
  m = matadd_meta;
  strcpy(m.l[12], "00000000");
  expect_format_error(st, &m, &matadd_data, "t.metadata: warps per workgroup 0 is not 1 to 32");
  /* zero workgroups in y (line 7) */
  m = matadd_meta;
  strcpy(m.l[6], "00000000");
  expect_format_error(st, &m, &matadd_data, "workgroup count 1x0x1 has a zero");
  /* overlapping buffers: B moved to 0x90000020 (line 31 = base of buffer 1) */
  m = matadd_meta;
  CHECK_STR(st, m.l[30], "90001000");
  strcpy(m.l[30], "90000020");
  expect_format_error(st, &m, &matadd_data,
                      "t.metadata: buffers 0 [0x90000000, +0x40) and 1 [0x90000020, +0x40) overlap");
  /* start pc that is not a buffer base */
  m = matadd_meta;
  strcpy(m.l[0], "80000100");
  expect_format_error(st, &m, &matadd_data, "start pc 0x80000100 is not the base of a code buffer");
  /* a buffer beyond 4 GiB: code allocation 0x80000000 + 0xa0000000 */
  m = matadd_meta;
  CHECK_STR(st, m.l[64], "10000000");
  strcpy(m.l[64], "a0000000");
  expect_format_error(st, &m, &matadd_data, "t.metadata:65: buffer 4 at 0x80000000 size 0xa0000000 exceeds 4 GiB");
}

TEST(malformed_data) {
  load_matadd_lines();
  lines d = matadd_data;
  d.n--;
  expect_format_error(st, &matadd_meta, &d, "t.data: 376 data lines, but the buffer sizes in t.metadata need 377");
  d = matadd_data;
  strcpy(d.l[d.n++], "00000001"); /* an extra line must be all zero */
  expect_format_error(st, &matadd_meta, &d, "t.data: 378 data lines, but the buffer sizes in t.metadata need 377");
  d = matadd_data;
  strcpy(d.l[d.n++], "00000000");
  strcpy(d.l[d.n++], "00000000");
  expect_format_error(st, &matadd_meta, &d, "379 data lines");
  d = matadd_data;
  strcpy(d.l[99], "xyz");
  expect_format_error(st, &matadd_meta, &d, "t.data:100: 'x' is not a hex digit");
  /* kernel entry (KNL word 0, line 362) outside the code buffer */
  d = matadd_data;
  CHECK_STR(st, d.l[361], "800000a8");
  strcpy(d.l[361], "90000000");
  expect_format_error(st, &matadd_meta, &d,
                      "t.metadata: kernel entry 0x90000000 (metadata buffer word 0) is outside the "
                      "code [0x80000000, 0x800004d8)");
  strcpy(d.l[361], "800004d8"); /* one past the end */
  expect_format_error(st, &matadd_meta, &d, "kernel entry 0x800004d8");
}

TEST(missing_files) {
  load_matadd_lines();
  char path[512];
  snprintf(path, sizeof path, "%s/nodata.metadata", VT_TEST_TMP);
  FILE *f = fopen(path, "w");
  CHECK(st, f != NULL);
  if (!f) return;
  char *m = join(&matadd_meta);
  fputs(m, f);
  fclose(f);
  free(m);
  vt_testvec *tv = (vt_testvec *)1;
  vt_error e;
  CHECK_EQ_U32(st, vt_testvec_load(path, NULL, &tv, &e), VT_ERR_FORMAT);
  CHECK(st, tv == NULL);
  char want[600];
  snprintf(want, sizeof want, "%s/nodata.data: cannot open", VT_TEST_TMP);
  CHECK_STR(st, e.message, want);
  /* explicit data path */
  CHECK_EQ_U32(st, vt_testvec_load(path, CASES "/matadd/matadd.data", &tv, &e), VT_OK);
  vt_testvec_free(tv);
  CHECK_EQ_U32(st, vt_testvec_load(VT_TEST_TMP "/absent.metadata", NULL, &tv, &e), VT_ERR_FORMAT);
  CHECK(st, strstr(e.message, "absent.metadata: cannot open") != NULL);
}

RUN_TESTS(T_CASES(official_matadd), T_CASES(official_vecadd4x4), T_CASES(official_vecadd_4x16),
          T_CASES(official_gaussian), T_CASES(old_and_oldest_layouts), T_CASES(tolerated_variations),
          T_CASES(malformed_metadata), T_CASES(malformed_data), T_CASES(missing_files))
