/* The asynchronous copies executed by the functional simulator (isa2025.md
 * 3.9, D35-D38, D42, C15-C19): cp_dma for every size and source length with
 * its zero tail, cp_dma_bulk sizes, alignment and page crossings, the range
 * checks at the exact boundary bytes of gds/gds_limit and CSR_LDS/lds_limit,
 * sources in local memory, cp_dma_tensor boxes of rank 1 to 5 with
 * sub-boxes, element strides, out-of-bounds zero and NaN fill per type, every
 * swizzle mode, the worked example of 3.9.4, and each descriptor field's
 * illegal values, all in the order of the pseudo-code (C17). The expected
 * bytes are computed here from the text of 3.9 (a separate model of the box
 * walk and the swizzle formula), and by hand for the document's examples. */
#include "check.h"
#include "dma_sim.h"

static uint8_t image[DMA_SRC_SIZE];

static void init_image(void) {
  for (unsigned i = 0; i < DMA_SRC_SIZE; i++) image[i] = (uint8_t)(i * 7 + (i >> 8) * 13 + 1);
}

static dma_sim *new_sim(uint32_t insn) {
  dma_sim *s = calloc(1, sizeof *s);
  if (!s) abort();
  s->insn = insn;
  s->image = image;
  s->win = 0x70000000u;
  s->win_len = 0x1000;
  return s;
}

static uint8_t src_byte(uint32_t a) { return image[a - DMA_SRC]; }

/* the run stops with 'status' and a message ending with 'why' */
static void expect_error(check_state *st, dma_sim *s, int status, const char *why) {
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, status);
  size_t n = strlen(s->err.message), k = strlen(why);
  if (n < k || strcmp(s->err.message + n - k, why) != 0) {
    st->failed_checks++;
    fprintf(stderr, "message \"%s\", expected to end with \"%s\"\n", s->err.message, why);
  }
}

TEST(cp_dma_every_size_and_length) {
  static const unsigned sizes[3] = {4, 8, 16};
  for (int si = 0; si < 3; si++)
    for (unsigned n = 0; n <= sizes[si]; n++) {
      dma_sim *s = new_sim(DMA_CP(sizes[si]));
      s->dst = 0x70000013u + n; /* no alignment requirement (3.9.2) */
      s->src = DMA_SRC + 0x101u + 3 * n;
      s->n = n;
      dma_sim_run(s);
      CHECK_EQ_U32(st, s->rc, VT_OK);
      for (uint32_t a = 0; a < 0x100; a++) {
        uint32_t j = 0x70000000u + a - s->dst;
        uint8_t want = j < n ? src_byte(s->src + j) : j < sizes[si] ? 0 : DMA_MARK;
        if (s->out[a] != want) {
          st->failed_checks++;
          fprintf(stderr, "cp_dma %u, n %u: byte 0x%x = 0x%02x, expected 0x%02x\n", sizes[si], n,
                  a, s->out[a], want);
          break;
        }
      }
      free(s);
    }
}

TEST(cp_dma_document_example) {
  /* 3.9.2: X(11) = 0x90000003, X(12) = 5, X(10) = 0x70000010: the 5 bytes
   * at 0x90000003 to 0x70000010.., zeros at 0x70000015-0x70000017 */
  dma_sim *s = new_sim(DMA_CP(8));
  s->dst = 0x70000010u;
  s->src = 0x90000003u; /* the OUT buffer holds the window dump: copy from its start */
  s->n = 5;
  s->win_len = 0x20;
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  /* the source bytes are the OUT buffer's first bytes, still zero when the
   * copy runs (the dump comes later) */
  for (int i = 0; i < 0x20; i++) {
    uint8_t want = i >= 0x10 && i < 0x18 ? 0 : DMA_MARK;
    CHECK_EQ_U32(st, s->out[i], want);
  }
  free(s);
}

TEST(cp_dma_checks) {
  dma_sim *s = new_sim(DMA_CP(8));
  s->dst = 0x70000000u;
  s->src = DMA_SRC;
  s->n = 9;
  expect_error(st, s, VT_ERR_ILLEGAL,
               "illegal instruction: cp_dma: source size exceeds the copy size (9)");
  /* n = 0 reads nothing: an unmapped source is fine; the destination is
   * still checked */
  s->n = 0;
  s->src = 0x12345678u;
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  CHECK(st, s->out[0] == 0 && s->out[7] == 0 && s->out[8] == DMA_MARK);
  s->n = 1;
  expect_error(st, s, VT_ERR_ACCESS, "cp_dma: source bytes 0x12345678..0x12345678 are not mapped");
  s->src = DMA_SRC;
  s->dst = 0x6ffffffcu;
  expect_error(st, s, VT_ERR_ACCESS,
               "cp_dma: destination bytes 0x6ffffffc..0x70000003 are outside [CSR_LDS 0x70000000, "
               "lds_limit 0x7fffffff]");
  free(s);
}

TEST(cp_dma_bulk_sizes_and_pages) {
  static const uint32_t sizes[] = {16, 32, 4096, 4096 + 16, 0xb000};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    dma_sim *s = new_sim(DMA_BULK);
    s->dst = 0x70000ff0u; /* crosses a page of local memory */
    s->src = DMA_SRC + 0x7f0u;
    s->n = sizes[i];
    s->win_len = 0xc000;
    dma_sim_run(s);
    CHECK_EQ_U32(st, s->rc, VT_OK);
    for (uint32_t a = 0; a < s->win_len; a++) {
      uint32_t j = 0x70000000u + a - s->dst;
      uint8_t want = j < s->n ? src_byte(s->src + j) : DMA_MARK;
      if (s->out[a] != want) {
        st->failed_checks++;
        fprintf(stderr, "bulk %u: byte 0x%x = 0x%02x, expected 0x%02x\n", s->n, a, s->out[a], want);
        break;
      }
    }
    free(s);
  }
}

TEST(cp_dma_bulk_checks_in_order) {
  dma_sim *s = new_sim(DMA_BULK);
  s->dst = 0x70000008u;
  s->src = DMA_SRC + 4;
  s->n = 24; /* wrong size and misaligned: the size first (C17) */
  expect_error(st, s, VT_ERR_ILLEGAL,
               "illegal instruction: cp_dma_bulk: size is not a non-zero multiple of 16 (24)");
  s->n = 0;
  expect_error(st, s, VT_ERR_ILLEGAL,
               "illegal instruction: cp_dma_bulk: size is not a non-zero multiple of 16 (0)");
  s->n = 32;
  expect_error(st, s, VT_ERR_MISALIGNED,
               "cp_dma_bulk: source 0x90100004 and destination 0x70000008 must be multiples of 16");
  s->src = DMA_SRC;
  s->dst = 0x70000010u;
  /* misaligned beats out of range */
  s->src = 0x10000008u;
  expect_error(st, s, VT_ERR_MISALIGNED,
               "cp_dma_bulk: source 0x10000008 and destination 0x70000010 must be multiples of 16");
  free(s);
}

/* GLOBAL_OK and LOCAL_OK at the boundary bytes (3.9.1) */
TEST(range_checks_at_the_limits) {
  dma_sim *s = new_sim(DMA_BULK);
  s->set_csrs = 1;
  s->src = DMA_SRC + 0x100;
  s->dst = 0x70000100u;
  s->n = 64;
  s->gds = DMA_SRC + 0x100;
  s->gds_limit = DMA_SRC + 0x13f; /* the last source byte */
  s->lds_limit = 0x7000013fu;     /* the last destination byte */
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  CHECK_EQ_U32(st, s->out[0x100], src_byte(DMA_SRC + 0x100));
  CHECK_EQ_U32(st, s->out[0x13f], src_byte(DMA_SRC + 0x13f));
  s->gds_limit = DMA_SRC + 0x13e;
  expect_error(st, s, VT_ERR_ACCESS,
               "cp_dma_bulk: source bytes 0x90100100..0x9010013f are outside [gds 0x90100100, "
               "gds_limit 0x9010013e]");
  s->gds_limit = DMA_SRC + 0x13f;
  s->gds = DMA_SRC + 0x101;
  expect_error(st, s, VT_ERR_ACCESS,
               "cp_dma_bulk: source bytes 0x90100100..0x9010013f are outside [gds 0x90100101, "
               "gds_limit 0x9010013f]");
  s->gds = DMA_SRC + 0x100;
  s->lds_limit = 0x7000013eu;
  expect_error(st, s, VT_ERR_ACCESS,
               "cp_dma_bulk: destination bytes 0x70000100..0x7000013f are outside [CSR_LDS "
               "0x70000000, lds_limit 0x7000013e]");
  /* C16: a source in local memory */
  s->lds_limit = 0x7fffffffu;
  s->gds = 0;
  s->gds_limit = 0xffffffffu;
  s->src = 0x70001000u;
  expect_error(st, s, VT_ERR_ACCESS, "cp_dma_bulk: DMA source in local memory (bytes "
                                     "0x70001000..0x7000103f)");
  /* a destination outside the workgroup's local memory */
  s->src = DMA_SRC;
  s->dst = 0x7f000000u;
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_ERR_ACCESS);
  if (!strstr(s->err.message, "cp_dma_bulk: destination: local-memory store")) {
    st->failed_checks++;
    fprintf(stderr, "message: %s\n", s->err.message);
  }
  /* the location comes first: SM, workgroup, warp, pc and the instruction */
  CHECK(st, strstr(s->err.message, "SM 0, workgroup 0, warp 0, pc 0x8") == s->err.message);
  CHECK(st, strstr(s->err.message, "(0x00c59541 cp_dma_bulk a0, a1, a2): ") != NULL);
  free(s);
}

/* ---- cp_dma_tensor: a model of 3.9.4 written from the text ---- */

static const unsigned ESIZE[13] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

/* expected local bytes at sh.. (total bytes), from T, U and the image */
static uint64_t model_tensor(const uint32_t *T, const uint32_t *U, uint8_t *dst) {
  unsigned type = T[0], e = ESIZE[type], rank = T[1];
  uint64_t gdim[6], bdim[6], es[6], stride[6], c[6], n[6];
  for (unsigned d = 1; d <= rank; d++) {
    gdim[d] = T[2 + d];
    bdim[d] = U[d];
    es[d] = U[5 + d];
    n[d] = (bdim[d] + es[d] - 1) / es[d];
  }
  stride[1] = e;
  for (unsigned d = 2; d <= rank; d++) stride[d] = T[6 + d];
  uint64_t off = U[0] - T[2];
  for (unsigned d = rank; d >= 2; d--) {
    c[d] = off / stride[d];
    off -= c[d] * stride[d];
  }
  c[1] = off / e;
  uint64_t total = e;
  for (unsigned d = 1; d <= rank; d++) total *= n[d];
  unsigned m = U[12] == 0 ? 0 : U[12] == 1 ? 1 : U[12] == 2 ? 3 : 7;
  uint64_t i[6] = {0};
  for (uint64_t k = 0; k < total / e; k++) {
    uint64_t rem = k;
    for (unsigned d = 1; d <= rank; d++) {
      i[d] = rem % n[d];
      rem /= n[d];
    }
    uint64_t o = k * e, o2 = o ^ (((o >> 7) & m) << 4);
    int oob = 0;
    uint64_t a = T[2];
    for (unsigned d = 1; d <= rank; d++) {
      uint64_t coord = c[d] + i[d] * es[d];
      if (coord >= gdim[d]) oob = 1;
      a += coord * stride[d];
    }
    for (unsigned j = 0; j < e; j++) {
      uint8_t v;
      if (!oob) {
        v = src_byte((uint32_t)(a + j));
      } else if (U[14] == 0) {
        v = 0;
      } else {
        uint64_t nan = type == 6 ? 0x7e00 : type == 9 ? 0x7fc0 : type == 8 ? 0x7ff8000000000000ull : 0x7fc00000;
        v = (uint8_t)(nan >> (8 * j));
      }
      dst[o2 + j] = v;
    }
  }
  return total;
}

typedef struct tdesc {
  unsigned type, rank, swz, oob;
  uint32_t gaddr;
  uint32_t gdim[5], stride[4], box[5], es[5];
  uint32_t start[5]; /* box origin in elements */
} tdesc;

static void set_desc(dma_sim *s, const tdesc *t) {
  memset(s->T, 0, sizeof s->T);
  memset(s->U, 0, sizeof s->U);
  s->T[0] = t->type;
  s->T[1] = t->rank;
  s->T[2] = t->gaddr;
  uint64_t box = t->gaddr + (uint64_t)t->start[0] * ESIZE[t->type];
  for (unsigned d = 0; d < 5; d++) s->T[3 + d] = t->gdim[d] ? t->gdim[d] : 1;
  for (unsigned d = 0; d < 4; d++) {
    s->T[8 + d] = t->stride[d];
    if (d + 1 < t->rank) box += (uint64_t)t->start[d + 1] * t->stride[d];
  }
  s->U[0] = (uint32_t)box;
  for (unsigned d = 0; d < 5; d++) {
    s->U[1 + d] = t->box[d] ? t->box[d] : 1;
    s->U[6 + d] = t->es[d] ? t->es[d] : 1;
  }
  s->U[12] = t->swz;
  s->U[14] = t->oob;
}

static void check_tensor(check_state *st, const tdesc *t, uint32_t sh, const char *what) {
  dma_sim *s = new_sim(DMA_TENSOR);
  set_desc(s, t);
  s->dst = sh;
  s->win_len = 0xc000;
  static uint8_t want[0xc000];
  memset(want, DMA_MARK, sizeof want);
  uint64_t total = model_tensor(s->T, s->U, want + (sh - 0x70000000u));
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  if (s->rc != VT_OK) fprintf(stderr, "%s: %s\n", what, s->err.message);
  for (uint32_t a = 0; a < s->win_len && s->rc == VT_OK; a++)
    if (s->out[a] != want[a]) {
      st->failed_checks++;
      fprintf(stderr, "%s (%llu bytes): byte 0x%x = 0x%02x, expected 0x%02x\n", what,
              (unsigned long long)total, a, s->out[a], want[a]);
      break;
    }
  free(s);
}

TEST(tensor_document_example) {
  /* 3.9.4: 100 x 64 FP32, rows 512 bytes apart; box at row 10, column 96,
   * boxDim {8, 4}: 128 bytes, columns 100-103 of each row are zeros */
  dma_sim *s = new_sim(DMA_TENSOR);
  uint32_t G = DMA_SRC;
  uint32_t T[13] = {7, 2, G, 100, 64, 0, 0, 0, 512};
  uint32_t U[15] = {G + 10 * 512 + 96 * 4, 8, 4, 0, 0, 0, 1, 1};
  memcpy(s->T, T, sizeof T);
  memcpy(s->U, U, sizeof U);
  s->dst = 0x70000400u;
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  for (unsigned row = 0; row < 4; row++)
    for (unsigned col = 0; col < 8; col++)
      for (unsigned b = 0; b < 4; b++) {
        uint8_t got = s->out[0x400 + (row * 8 + col) * 4 + b];
        uint8_t want = 96 + col >= 100 ? 0 : src_byte(G + (10 + row) * 512 + (96 + col) * 4 + b);
        CHECK_EQ_U32(st, got, want);
      }
  CHECK_EQ_U32(st, s->out[0x400 + 128], DMA_MARK); /* total = 128 bytes */
  CHECK_EQ_U32(st, s->out[0x3ff], DMA_MARK);
  free(s);
}

TEST(tensor_boxes_rank_1_to_5) {
  const uint32_t G = DMA_SRC + 0x40;
  tdesc t1 = {0, 1, 0, 0, G, {300}, {0}, {40}, {1}, {7}};
  check_tensor(st, &t1, 0x70000100u, "1-D uint8 sub-box");
  tdesc t1b = {0, 1, 0, 0, G, {300}, {0}, {64}, {1}, {280}};
  check_tensor(st, &t1b, 0x70000100u, "1-D box past the end (zeros)");
  tdesc t2 = {3, 2, 0, 0, G, {20, 30}, {96}, {8, 5}, {1, 1}, {14, 27}};
  check_tensor(st, &t2, 0x70000200u, "2-D int32 crossing both dimensions");
  tdesc t3 = {1, 3, 0, 0, G, {10, 6, 5}, {32, 256}, {4, 3, 4}, {2, 3, 1}, {5, 2, 3}};
  check_tensor(st, &t3, 0x70000300u, "3-D uint16 with element strides");
  tdesc t4 = {4, 4, 0, 0, G, {4, 3, 3, 3}, {32, 96, 288}, {4, 2, 3, 2}, {1, 1, 1, 2}, {0, 1, 0, 1}};
  check_tensor(st, &t4, 0x70000400u, "4-D uint64");
  tdesc t5 = {2, 5, 0, 0, G, {3, 2, 2, 3, 2}, {16, 32, 64, 192}, {3, 2, 2, 2, 2}, {1, 1, 1, 2, 1},
              {0, 0, 1, 1, 0}};
  check_tensor(st, &t5, 0x70000800u, "5-D uint32");
  /* element strides 1..8 on dimension 1 */
  for (uint32_t es = 1; es <= 8; es++) {
    tdesc t = {2, 2, 0, 0, G, {64, 4}, {256}, {24, 3}, {es, 1}, {3, 1}};
    char w[64];
    snprintf(w, sizeof w, "element stride %u", es);
    check_tensor(st, &t, 0x70000000u + 0x100 * es, w);
  }
  /* C15: a box origin past the end of a dimension (row padding): all fill */
  tdesc tp = {7, 2, 0, 0, G, {4, 4}, {64}, {4, 2}, {1, 1}, {8, 1}};
  check_tensor(st, &tp, 0x70000900u, "origin in the row padding");
}

TEST(tensor_out_of_bounds_fill_per_type) {
  const uint32_t G = DMA_SRC + 0x1000;
  for (unsigned type = 0; type <= 12; type++)
    for (unsigned oob = 0; oob <= (type > 5 ? 1u : 0u); oob++) {
      tdesc t = {type, 2, 0, oob, G, {5, 3}, {64}, {8, 4}, {1, 1}, {1, 1}};
      char w[64];
      snprintf(w, sizeof w, "type %u oobfill %u", type, oob);
      check_tensor(st, &t, 0x70000100u, w);
    }
  /* hand-checked: FLOAT16 NaN fill is 00 7e, FLOAT64 is 00..00 f8 7f */
  dma_sim *s = new_sim(DMA_TENSOR);
  tdesc h = {6, 1, 0, 1, G, {2}, {0}, {3}, {1}, {0}};
  set_desc(s, &h);
  s->dst = 0x70000000u;
  dma_sim_run(s);
  CHECK(st, s->out[4] == 0x00 && s->out[5] == 0x7e && s->out[6] == DMA_MARK);
  tdesc h8 = {8, 1, 0, 1, G, {1}, {0}, {2}, {1}, {0}};
  set_desc(s, &h8);
  dma_sim_run(s);
  static const uint8_t nan64[8] = {0, 0, 0, 0, 0, 0, 0xf8, 0x7f};
  CHECK(st, memcmp(s->out + 8, nan64, 8) == 0);
  free(s);
}

TEST(tensor_swizzle_modes) {
  const uint32_t G = DMA_SRC;
  for (unsigned swz = 0; swz <= 3; swz++) {
    /* 16 rows of 128 bytes (32 x FP32) */
    tdesc t = {7, 2, swz, 0, G, {64, 40}, {256}, {32, 16}, {1, 1}, {8, 3}};
    char w[64];
    snprintf(w, sizeof w, "swizzle %u", swz);
    check_tensor(st, &t, 0x70000400u, w);
  }
  /* hand-checked 128-byte swizzle: chunk 1 of row 1 (o = 128 + 16) lands at
   * 128 + (1 ^ 1) * 16 = 128 */
  dma_sim *s = new_sim(DMA_TENSOR);
  tdesc t = {0, 2, 3, 0, G, {128, 8}, {128}, {128, 2}, {1, 1}, {0, 0}};
  set_desc(s, &t);
  s->dst = 0x70000400u;
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  for (int b = 0; b < 16; b++) CHECK_EQ_U32(st, s->out[0x400 + 128 + b], src_byte(G + 128 + 16 + b));
  free(s);
}

TEST(tensor_descriptor_errors_in_order) {
  const uint32_t G = DMA_SRC;
  static const struct {
    int lane; /* 0..12: T, 16..30: U */
    uint32_t value;
    int status;
    const char *why;
  } cases[] = {
      {0, 13, VT_ERR_ILLEGAL, "cp_dma_tensor: datatype (13)"},
      {1, 0, VT_ERR_ILLEGAL, "cp_dma_tensor: tensorRank (0)"},
      {1, 6, VT_ERR_ILLEGAL, "cp_dma_tensor: tensorRank (6)"},
      {4, 0, VT_ERR_ILLEGAL, "cp_dma_tensor: globalDim2 (0)"},
      {17, 0, VT_ERR_ILLEGAL, "cp_dma_tensor: boxDim1 (0)"},
      {18, 257, VT_ERR_ILLEGAL, "cp_dma_tensor: boxDim2 (257)"},
      {22, 0, VT_ERR_ILLEGAL, "cp_dma_tensor: elementStrides1 (0)"},
      {23, 9, VT_ERR_ILLEGAL, "cp_dma_tensor: elementStrides2 (9)"},
      {8, 8, VT_ERR_ILLEGAL, "cp_dma_tensor: globalStride2 (8)"},
      {8, 72, VT_ERR_ILLEGAL, "cp_dma_tensor: globalStride2 (72)"},
      {27, 1, VT_ERR_ILLEGAL, "unsupported: interleave (1)"},
      {28, 4, VT_ERR_ILLEGAL, "cp_dma_tensor: swizzle (4)"},
      {29, 4, VT_ERR_ILLEGAL, "cp_dma_tensor: L2promotion (4)"},
      {30, 2, VT_ERR_ILLEGAL, "cp_dma_tensor: oobfill (2)"},
      {16, G - 4, VT_ERR_ILLEGAL, "cp_dma_tensor: BoxAddress below globalAddress (2416967676)"},
      {16, G + 130, VT_ERR_ILLEGAL, "cp_dma_tensor: BoxAddress not on an element boundary (2416967810)"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    dma_sim *s = new_sim(DMA_TENSOR);
    tdesc t = {7, 2, 0, 0, G, {16, 16}, {64}, {4, 4}, {1, 1}, {0, 0}};
    set_desc(s, &t);
    s->dst = 0x70000100u;
    if (cases[i].lane < 16)
      s->T[cases[i].lane] = cases[i].value;
    else
      s->U[cases[i].lane - 16] = cases[i].value;
    char why[160];
    snprintf(why, sizeof why, "illegal instruction: %s", cases[i].why);
    expect_error(st, s, cases[i].status, why);
    free(s);
  }
  /* lanes for dimensions above the rank and vs1[12] are not checked (C18) */
  dma_sim *s = new_sim(DMA_TENSOR);
  tdesc t = {7, 2, 0, 0, G, {16, 16}, {64}, {4, 4}, {1, 1}, {0, 0}};
  set_desc(s, &t);
  s->dst = 0x70000100u;
  s->T[5] = 0;  /* globalDim3 */
  s->T[9] = 3;  /* stride of dimension 3 */
  s->T[12] = 0xffffffffu;
  s->U[3] = 999; /* boxDim3 */
  s->U[8] = 0;   /* elementStrides3 */
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  /* integer type with NaN fill */
  t.type = 3;
  t.oob = 1;
  set_desc(s, &t);
  expect_error(st, s, VT_ERR_ILLEGAL,
               "illegal instruction: cp_dma_tensor: oobfill NaN with an integer datatype (3)");
  /* destination: 16-byte alignment, 8*S for a swizzle, span multiple, range */
  t.type = 7;
  t.oob = 0;
  set_desc(s, &t);
  s->dst = 0x70000108u;
  expect_error(st, s, VT_ERR_MISALIGNED,
               "cp_dma_tensor: shared-memory address 0x70000108 must be a multiple of 16");
  t.swz = 2;
  set_desc(s, &t);
  s->dst = 0x70000100u; /* 256 but 8 * 64 = 512 needed */
  expect_error(st, s, VT_ERR_MISALIGNED,
               "cp_dma_tensor: shared-memory address 0x70000100 must be a multiple of 512");
  s->dst = 0x70000200u; /* 4 x 4 x 4 = 64 bytes: a multiple of 64 */
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  t.swz = 3;
  set_desc(s, &t);
  s->dst = 0x70000400u; /* 64 bytes is not a multiple of 128 */
  expect_error(st, s, VT_ERR_ILLEGAL, "illegal instruction: cp_dma_tensor: swizzled box of 64 "
                                      "bytes is not a multiple of the swizzle span 128");
  /* the misalignment is reported before the span (3.9.4 order) */
  s->dst = 0x70000200u;
  expect_error(st, s, VT_ERR_MISALIGNED,
               "cp_dma_tensor: shared-memory address 0x70000200 must be a multiple of 1024");
  t.swz = 0;
  set_desc(s, &t);
  s->set_csrs = 1;
  s->gds = 0;
  s->gds_limit = 0xffffffffu;
  s->lds_limit = 0x7000013eu;
  s->dst = 0x70000100u;
  expect_error(st, s, VT_ERR_ACCESS,
               "cp_dma_tensor: destination bytes 0x70000100..0x7000013f are outside [CSR_LDS "
               "0x70000000, lds_limit 0x7000013e]");
  /* a source element outside gds..gds_limit: checked when it is read */
  s->lds_limit = 0x7fffffffu;
  s->gds_limit = G + 64 * 3 + 3; /* row 3, column 0 is the last element inside */
  expect_error(st, s, VT_ERR_ACCESS,
               "cp_dma_tensor: source bytes 0x901000c4..0x901000c7 are outside [gds 0x00000000, "
               "gds_limit 0x901000c3]");
  free(s);
  /* D42: fewer than 16 lanes */
  s = new_sim(DMA_TENSOR);
  set_desc(s, &t);
  s->threads = 8;
  s->dst = 0x70000100u;
  expect_error(st, s, VT_ERR_ILLEGAL, "illegal instruction: cp_dma_tensor: needs at least 16 lanes (8)");
  s->threads = 16; /* enough: lanes 0-14 */
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  free(s);
}

TEST(mbarrier_and_reserved_words) {
  dma_sim *s = new_sim(DMA_WAIT); /* cp_dma_mbarrier twice: no effect */
  dma_sim_run(s);
  CHECK_EQ_U32(st, s->rc, VT_OK);
  CHECK_EQ_U32(st, s->out[0], DMA_MARK);
  const uint32_t reserved[] = {enc_dma(3, A2, A1, 0, A0), enc_dma(0, A2, A1, 2, A0),
                                      enc_dma(0, A2, A1, 5, A0), enc_dma(1, A2, A1, 1, A0),
                                      0x000040c1u, 0x00104041u};
  for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
    s->insn = reserved[i];
    expect_error(st, s, VT_ERR_ILLEGAL, "illegal instruction");
  }
  free(s);
}

int main(int argc, char **argv) {
  init_image();
  static const test_case tests[] = {
      T(cp_dma_every_size_and_length), T(cp_dma_document_example), T(cp_dma_checks),
      T(cp_dma_bulk_sizes_and_pages), T(cp_dma_bulk_checks_in_order), T(range_checks_at_the_limits),
      T(tensor_document_example), T(tensor_boxes_rank_1_to_5), T(tensor_out_of_bounds_fill_per_type),
      T(tensor_swizzle_modes), T(tensor_descriptor_errors_in_order), T(mbarrier_and_reserved_words)};
  return run_tests(tests, sizeof tests / sizeof tests[0], argc, argv);
}
