/* Simulator semantics of fmv.x.w / fmv.w.x (isa2025.md 3.1.7, D11, D40):
 * X(rd) <- X(rs1), 32 bits unchanged (NaN payloads and signalling NaNs
 * included), no fflags; ILLEGAL while mstatus.FS is Off and when the rs2
 * field is not 0. The fmv words are built here from the spec's bit layout. */
#include "check.h"
#include "simprog.h"

static uint32_t fmv_x_w(unsigned rd, unsigned rs1) { return (0x70u << 25) | (rs1 << 15) | (rd << 7) | 0x53u; }
static uint32_t fmv_w_x(unsigned rd, unsigned rs1) { return (0x78u << 25) | (rs1 << 15) | (rd << 7) | 0x53u; }

#define FS_INITIAL 0x2000u /* mstatus.FS = 01 */

static void enable_fp(prog *p) {
  li(p, T3, FS_INITIAL);
  E(p, VT_INSN_CSRRS, ZERO, CSR_ADDR_MSTATUS, T3);
}

/* Run p on a new device; the caller frees *dev (when not NULL). */
static int run(const prog *p, vt_device **dev, vt_error *err) {
  *dev = vt_device_new(NULL);
  if (!*dev) return VT_ERR_NOMEM;
  vt_launch l = simple_launch(4, 1);
  int rc = load_prog(*dev, p);
  if (rc == VT_OK) rc = vt_device_run(*dev, &l, NULL, err);
  return rc;
}

TEST(moves_bits_exactly) {
  static const uint32_t pat[] = {
      0x7f800001u, /* signalling NaN */
      0xff800001u, /* negative signalling NaN */
      0x7fbfffffu, /* signalling NaN, full payload */
      0x7fc00000u, /* canonical quiet NaN */
      0x7fc12345u, /* quiet NaN with payload */
      0xffffffffu, /* negative quiet NaN, all ones */
      0x80000000u, /* -0.0 */
      0x00000001u, /* smallest subnormal */
      0x7f800000u, /* +inf */
      0x3f800000u, /* 1.0 */
      0x12345678u, 0xdeadbeefu};
  enum { N = sizeof pat / sizeof pat[0] };
  prog p = {0};
  enable_fp(&p);
  li(&p, A0, OUT_BASE);
  for (unsigned i = 0; i < N; i++) {
    li(&p, A1, pat[i]);
    emit(&p, fmv_w_x(T2, A1)); /* t2 <- a1 */
    emit(&p, fmv_x_w(A2, T2)); /* a2 <- t2 */
    emit(&p, fmv_x_w(A3, A1)); /* a3 <- a1 */
    emit(&p, fmv_w_x(A3, A3)); /* rd = rs1 */
    E(&p, VT_INSN_SW, T2, (int)(12 * i), A0);
    E(&p, VT_INSN_SW, A2, (int)(12 * i + 4), A0);
    E(&p, VT_INSN_SW, A3, (int)(12 * i + 8), A0);
  }
  li(&p, A4, 0x5a5a5a5au);
  emit(&p, fmv_w_x(A4, ZERO)); /* x0 reads 0 */
  emit(&p, fmv_x_w(ZERO, A1)); /* x0 stays 0 */
  E(&p, VT_INSN_SW, A4, 12 * N, A0);
  E(&p, VT_INSN_SW, ZERO, 12 * N + 4, A0);
  E(&p, VT_INSN_CSRRS, A5, 0x001, ZERO); /* frflags a5 */
  E(&p, VT_INSN_SW, A5, 12 * N + 8, A0);
  emit(&p, WORD_ENDPRG);
  vt_device *dev;
  vt_error err;
  CHECK_EQ_U32(st, run(&p, &dev, &err), VT_OK);
  for (unsigned i = 0; i < N; i++) {
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 12 * i), pat[i]);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 12 * i + 4), pat[i]);
    CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 12 * i + 8), pat[i]);
  }
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 12 * N), 0);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 12 * N + 4), 0);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE + 12 * N + 8), 0); /* no flag, not even NV for sNaN */
  vt_device_free(dev);
}

/* the word the official compiler emits (isa2025.md D11) */
TEST(compiler_word_f00383d3) {
  prog p = {0};
  enable_fp(&p);
  li(&p, T2, 0xc0490fdbu); /* -pi */
  emit(&p, 0xf00383d3u);   /* fmv.w.x t2, t2 */
  li(&p, A0, OUT_BASE);
  E(&p, VT_INSN_SW, T2, 0, A0);
  emit(&p, WORD_ENDPRG);
  vt_device *dev;
  vt_error err;
  CHECK_EQ_U32(st, run(&p, &dev, &err), VT_OK);
  CHECK_EQ_U32(st, rd32(dev, OUT_BASE), 0xc0490fdbu);
  vt_device_free(dev);
}

TEST(illegal_while_fs_off) {
  static const uint32_t words[] = {0xf00383d3u, 0xe0058553u};
  static const char *const text[] = {"fmv.w.x t2, t2", "fmv.x.w a0, a1"};
  for (unsigned k = 0; k < 2; k++) {
    prog p = {0};
    emit(&p, words[k]);
    emit(&p, WORD_ENDPRG);
    vt_device *dev;
    vt_error err;
    CHECK_EQ_U32(st, run(&p, &dev, &err), VT_ERR_ILLEGAL);
    char want[200];
    snprintf(want, sizeof want,
             "SM 0, workgroup 0, warp 0, pc 0x80000000 (0x%08x %s): illegal instruction: FP used "
             "while mstatus.FS is Off",
             words[k], text[k]);
    if (strncmp(err.message, want, strlen(want)) != 0) {
      st->failed_checks++;
      fprintf(stderr, "message \"%s\"\n   wanted \"%s\"\n", err.message, want);
    }
    vt_device_free(dev);
  }
}

TEST(illegal_with_rs2_nonzero) {
  prog p = {0};
  enable_fp(&p);
  unsigned at = emit(&p, fmv_w_x(T2, T2) | (1u << 20)); /* rs2 = 1 */
  emit(&p, WORD_ENDPRG);
  vt_device *dev;
  vt_error err;
  CHECK_EQ_U32(st, run(&p, &dev, &err), VT_ERR_ILLEGAL);
  CHECK_EQ_U32(st, err.pc, prog_addr(at));
  CHECK(st, strstr(err.message, "illegal instruction") != NULL);
  vt_device_free(dev);
}

RUN_TESTS(T(moves_bits_exactly), T(compiler_word_f00383d3), T(illegal_while_fs_off),
          T(illegal_with_rs2_nonzero))
