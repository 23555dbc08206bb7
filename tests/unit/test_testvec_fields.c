/* The test-vector loader on field values at the edges of their ranges
 * (formats-and-launch.md 2.2-2.3), with vectors built in the test: buffer
 * sizes whose word count used to wrap (0xfffffffd..0xffffffff), a code
 * buffer ending at 4 GiB, and a set upper half in each 64-bit field, which
 * must be an error naming the file, the line of that half and the field.
 * Line numbers and word counts are computed by hand from the layout: field
 * k occupies lines 2k+1 (low half) and 2k+2 (high half). */
#include "check.h"
#include "vt/testvec.h"

/* a current-layout vector: 14 header fields, then N bases, sizes, allocs */
typedef struct tv_desc {
  uint64_t f[14];
  unsigned n;
  uint64_t base[4], size[4], alloc[4];
  const char *data; /* .data text */
} tv_desc;

/* one buffer, the code, at 0x80000000: a single word */
static tv_desc small_vector(void) {
  tv_desc d = {.f = {0x80000000, 0, 1, 1, 1, 4, 1, 0x90000000, 0, 0, 0x40, 0x40, 0x90001000, 1},
               .n = 1,
               .base = {0x80000000},
               .size = {4},
               .alloc = {0x10000000},
               .data = "0000000b\n"};
  return d;
}

static char *meta_text(const tv_desc *d) {
  uint64_t u[14 + 12];
  size_t L = 0;
  for (int i = 0; i < 14; i++) u[L++] = d->f[i];
  for (unsigned i = 0; i < d->n; i++) u[L++] = d->base[i];
  for (unsigned i = 0; i < d->n; i++) u[L++] = d->size[i];
  for (unsigned i = 0; i < d->n; i++) u[L++] = d->alloc[i];
  char *s = malloc(20 * L + 1), *p = s;
  for (size_t k = 0; k < L; k++)
    p += sprintf(p, "%08x\n%08x\n", (unsigned)(u[k] & 0xffffffffu), (unsigned)(u[k] >> 32));
  return s;
}

static int parse(const tv_desc *d, vt_testvec **tv, vt_error *e) {
  char *m = meta_text(d);
  memset(e, 0, sizeof *e);
  *tv = NULL;
  int rc = vt_testvec_parse(m, strlen(m), "t.metadata", d->data, strlen(d->data), "t.data", tv,
                            e);
  free(m);
  return rc;
}

static void expect_error(check_state *st, const tv_desc *d, const char *want) {
  vt_testvec *tv;
  vt_error e;
  CHECK_EQ_U32(st, parse(d, &tv, &e), VT_ERR_FORMAT);
  CHECK(st, tv == NULL);
  CHECK_STR(st, e.message, want);
  vt_testvec_free(tv);
}

TEST(valid_small_vector) {
  tv_desc d = small_vector();
  vt_testvec *tv;
  vt_error e;
  CHECK_EQ_U32(st, parse(&d, &tv, &e), VT_OK);
  if (!tv) return;
  CHECK_EQ_U32(st, tv->nbuf, 1);
  CHECK_EQ_U32(st, tv->data_len, 4);
  CHECK_EQ_U32(st, tv->data[0], 0x0b);
  vt_testvec_free(tv);
}

/* A code buffer at 0 of size 0xfffffffd..0xffffffff needs 0x40000000 lines
 * (ceil(size / 4)); the data file has none. (Before: the count wrapped to
 * 0, the vector was accepted with no data, and applying it copied 4 GiB
 * from a 1-byte allocation.) buffer_size[0] is field 15: lines 31/32. */
TEST(huge_buffer_sizes) {
  for (uint32_t size = 0xfffffffdu; size != 0; size++) {
    tv_desc d = small_vector();
    d.f[0] = 0; /* start pc 0: the code buffer */
    d.base[0] = 0;
    d.size[0] = size;
    d.alloc[0] = size;
    d.data = "";
    char want[256];
    snprintf(want, sizeof want,
             "t.metadata:31: buffer_size[0] = 0x%x needs 1073741824 lines of t.data, which has 0",
             size);
    expect_error(st, &d, want);
    /* the same buffer as the kernel metadata buffer: the entry (word 0) was
     * read from past the end of the empty data */
    d.f[7] = 0;
    expect_error(st, &d, want);
  }
}

/* size 0xfffffffc with a data file of one line: 0x3fffffff lines needed */
TEST(size_larger_than_data) {
  tv_desc d = small_vector();
  d.f[0] = 0;
  d.base[0] = 0;
  d.size[0] = 0xfffffffc;
  d.alloc[0] = 0xfffffffc;
  expect_error(st, &d, "t.metadata:31: buffer_size[0] = 0xfffffffc needs 1073741823 lines of "
                       "t.data, which has 1");
}

/* a code buffer that ends exactly at 4 GiB holds the kernel entry
 * (before: base + size wrapped to 0 and the entry was "outside the code") */
TEST(code_ending_at_4gib) {
  tv_desc d = small_vector();
  d.f[0] = 0xfffff000;
  d.f[7] = 0x90000000; /* KNL buffer, 64 bytes, entry = 0xfffff000 */
  d.n = 2;
  d.f[13] = 2;
  d.base[0] = 0xfffff000;
  d.size[0] = 0x1000;
  d.alloc[0] = 0x1000;
  d.base[1] = 0x90000000;
  d.size[1] = 64;
  d.alloc[1] = 64;
  char *text = malloc(9 * (1024 + 16) + 1), *q = text;
  for (int i = 0; i < 1024; i++) q += sprintf(q, "0000000b\n");
  q += sprintf(q, "fffff000\n");
  for (int i = 1; i < 16; i++) q += sprintf(q, "00000000\n");
  d.data = text;
  vt_testvec *tv;
  vt_error e;
  CHECK_EQ_U32(st, parse(&d, &tv, &e), VT_OK);
  if (!tv) fprintf(stderr, "%s\n", e.message);
  vt_testvec_free(tv);
  free(text);
}

/* every header field but kernel_id (never used) and num_buffer (part of the
 * layout) with 1 in its upper half */
TEST(header_upper_halves) {
  static const char *const names[14] = {
      "start_pc", "kernel_id", "kernel_size[0]", "kernel_size[1]", "kernel_size[2]",
      "wf_size", "wg_size", "metaDataBaseAddr", "ldsSize", "pdsSize", "sgprUsage",
      "vgprUsage", "pdsBaseAddr", "num_buffer"};
  for (int k = 0; k < 13; k++) {
    if (k == 1) continue;
    tv_desc d = small_vector();
    uint64_t v = d.f[k] | 1ull << 32;
    d.f[k] = v;
    char want[256];
    snprintf(want, sizeof want, "t.metadata:%d: %s = 0x%llx does not fit in 32 bits", 2 * k + 2,
             names[k], (unsigned long long)v);
    expect_error(st, &d, want);
  }
  /* kernel_id may hold anything */
  tv_desc d = small_vector();
  d.f[1] = 0xffffffffffffffffull;
  vt_testvec *tv;
  vt_error e;
  CHECK_EQ_U32(st, parse(&d, &tv, &e), VT_OK);
  vt_testvec_free(tv);
}

/* buffer rows: base (field 14, lines 29/30), size (15: 31/32), alloc
 * (16: 33/34) */
TEST(buffer_upper_halves) {
  tv_desc d = small_vector();
  d.base[0] |= 0x100000000ull;
  expect_error(st, &d, "t.metadata:30: buffer_base[0] = 0x180000000 does not fit in 32 bits");
  d = small_vector();
  d.size[0] |= 0xffffffff00000000ull;
  expect_error(st, &d,
               "t.metadata:32: buffer_size[0] = 0xffffffff00000004 does not fit in 32 bits");
  d = small_vector();
  d.alloc[0] = 0x100000000ull;
  expect_error(st, &d,
               "t.metadata:34: buffer_allocsize[0] = 0x100000000 does not fit in 32 bits");
}

RUN_TESTS(T(valid_small_vector), T(huge_buffer_sizes), T(size_larger_than_data),
          T(code_ending_at_4gib), T(header_upper_halves), T(buffer_upper_halves))
