/* Harness of the v2025 simulator tests: a run optionally sets vtype (e32,
 * m1, vl = avl or numt) and loads v0..v7 (whole registers), sets x1..x30 to
 * given values (li), executes the words under test (32- or 64-bit
 * instructions as 32-bit parcels), stores x1..x30 to OUT_BASE + 4*r through
 * x31 (and v0..v7 to XR_VOUT) and ends.
 * Optional extra mapped regions and initial memory words; the run's status,
 * error and final registers are kept. Expected values are computed by the
 * caller (host arithmetic), never read from the simulator. */
#ifndef VT_TEST_XRUN_H
#define VT_TEST_XRUN_H
#include "check.h"
#include "simprog.h"

#define XRUN_MAX_MAPS 4
typedef struct xrun {
  uint32_t x[32];  /* before (x1..x30; x0 and x31 are ignored) */
  uint32_t body[256];
  unsigned n;
  struct { uint32_t base, size; } map[XRUN_MAX_MAPS];
  unsigned nmap;
  struct { uint32_t addr, value; } mem[32];
  unsigned nmem;
  unsigned numt; /* threads per warp (0: 4) */
  bool fs_on;    /* set mstatus.FS before the body */
  bool vec;      /* vsetvli e32 m1 and v0..v7 from v[] before, to vout[] after */
  unsigned avl;  /* vl requested (0: numt) */
  uint32_t v[8][32], vout[8][32];
  /* after */
  int rc;
  vt_error err;
  uint32_t out[32];
  unsigned body_at; /* instruction index of body[0] (its pc: prog_addr) */
  vt_device *dev;   /* kept when keep_dev is set (the caller frees it) */
  bool keep_dev;
} xrun;

static inline void xr_op(xrun *t, uint32_t word) { t->body[t->n++] = word; }
static inline void xr_op64(xrun *t, uint64_t insn) {
  xr_op(t, (uint32_t)insn);
  xr_op(t, (uint32_t)(insn >> 32));
}
static inline void xr_map(xrun *t, uint32_t base, uint32_t size) {
  t->map[t->nmap].base = base;
  t->map[t->nmap++].size = size;
}
static inline void xr_poke(xrun *t, uint32_t addr, uint32_t value) {
  t->mem[t->nmem].addr = addr;
  t->mem[t->nmem++].value = value;
}
static inline void xr_set64(xrun *t, unsigned r, uint64_t v) {
  t->x[r] = (uint32_t)v;
  t->x[r + 1] = (uint32_t)(v >> 32);
}
static inline uint64_t xr_get64(const xrun *t, unsigned r) {
  return (uint64_t)t->out[r + 1] << 32 | t->out[r];
}

#define XR_VIN (OUT_BASE + 0x8000u)
#define XR_VOUT (OUT_BASE + 0x9000u)
static inline void xr_run(xrun *t) {
  prog p = {0};
  unsigned numt = t->numt ? t->numt : 4;
  if (t->vec) {
    li(&p, T4, t->avl ? t->avl : numt);
    E(&p, VT_INSN_VSETVLI, T4, T4, VTYPE_E32M1);
    for (unsigned r = 0; r < 8; r++) {
      li(&p, T0, XR_VIN + 128 * r);
      E(&p, VT_INSN_VL1RE8, r, T0);
    }
  }
  if (t->fs_on) {
    li(&p, T0, 0x2000);
    E(&p, VT_INSN_CSRRS, ZERO, CSR_ADDR_MSTATUS, T0);
  }
  for (unsigned r = 1; r <= 30; r++) li(&p, r, t->x[r]);
  t->body_at = p.n;
  for (unsigned k = 0; k < t->n; k++) emit(&p, t->body[k]);
  li(&p, 31, OUT_BASE);
  for (unsigned r = 1; r <= 30; r++) E(&p, VT_INSN_SW, r, 4 * (int)r, 31);
  if (t->vec)
    for (unsigned r = 0; r < 8; r++) {
      li(&p, 31, XR_VOUT + 128 * r);
      E(&p, VT_INSN_VS1R_V, r, 31);
    }
  emit(&p, WORD_ENDPRG);
  vt_device *dev = vt_device_new(NULL);
  if (!dev) abort();
  t->rc = load_prog(dev, &p);
  for (unsigned k = 0; k < t->nmap && t->rc == VT_OK; k++)
    t->rc = vt_mem_map(dev, t->map[k].base, t->map[k].size, &t->err);
  for (unsigned k = 0; k < t->nmem && t->rc == VT_OK; k++) {
    uint8_t b[4] = {(uint8_t)t->mem[k].value, (uint8_t)(t->mem[k].value >> 8),
                    (uint8_t)(t->mem[k].value >> 16), (uint8_t)(t->mem[k].value >> 24)};
    t->rc = vt_mem_write(dev, t->mem[k].addr, b, 4, &t->err);
  }
  if (t->vec && t->rc == VT_OK) t->rc = vt_mem_write(dev, XR_VIN, t->v, sizeof t->v, &t->err);
  vt_launch l = simple_launch(numt, 1);
  if (t->rc == VT_OK) t->rc = vt_device_run(dev, &l, NULL, &t->err);
  if (t->rc == VT_OK)
    for (unsigned r = 1; r <= 30; r++) t->out[r] = rd32(dev, OUT_BASE + 4 * r);
  if (t->rc == VT_OK && t->vec)
    for (unsigned r = 0; r < 8; r++)
      for (unsigned i = 0; i < numt; i++) t->vout[r][i] = rd32(dev, XR_VOUT + 128 * r + 4 * i);
  if (t->keep_dev)
    t->dev = dev;
  else
    vt_device_free(dev);
}

/* The run stopped with 'status' at body instruction 'at' and a message
 * whose reason (after "): ") is 'reason'. */
static inline void xr_expect_error(check_state *st, const xrun *t, int status, unsigned at,
                                   const char *reason, int line) {
  if (t->rc != status) {
    st->failed_checks++;
    fprintf(stderr, "line %d: status %d, expected %d (%s)\n", line, t->rc, status,
            t->err.message);
    return;
  }
  if (t->err.pc != prog_addr(t->body_at + at)) {
    st->failed_checks++;
    fprintf(stderr, "line %d: error at pc 0x%08x, expected 0x%08x\n", line, t->err.pc,
            prog_addr(t->body_at + at));
  }
  const char *m = strstr(t->err.message, "): ");
  if (!m || strcmp(m + 3, reason) != 0) {
    st->failed_checks++;
    fprintf(stderr, "line %d: message \"%s\", wanted reason \"%s\"\n", line, t->err.message, reason);
  }
}
#define XR_ERROR(st, t, status, at, reason) xr_expect_error(st, t, status, at, reason, __LINE__)

static inline void xr_ok(check_state *st, const xrun *t, int line) {
  if (t->rc != VT_OK) {
    st->failed_checks++;
    fprintf(stderr, "line %d: run failed: %s\n", line, t->err.message);
  }
}
#define XR_OK(st, t) xr_ok(st, t, __LINE__)

/* a 64-bit value of a pair after the run */
#define XR_EQ64(st, t, r, want)                                                          \
  do {                                                                                   \
    uint64_t got_ = xr_get64(t, r), want_ = (uint64_t)(want);                            \
    if (got_ != want_) {                                                                 \
      (st)->failed_checks++;                                                             \
      fprintf(stderr, "%s:%d: pair x%u = 0x%016llx, expected 0x%016llx\n", __FILE__,      \
              __LINE__, (unsigned)(r), (unsigned long long)got_, (unsigned long long)want_); \
    }                                                                                    \
  } while (0)

/* deterministic pseudo-random values */
static inline uint64_t xr_rand(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}
#endif
