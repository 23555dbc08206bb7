/* cp_dma_tensor (isa2025.md 3.9.4, D12, D37, D42, C15, C18, C19): the
 * descriptor in lanes 0-12 of vs1 and 0-14 of vs2 is checked field by field
 * in the order of the pseudo-code, the box origin is decomposed from the
 * BoxAddress, and the box is copied element by element (dimension 1
 * fastest) into densely packed local memory at x[rs3], 16-byte chunks
 * XOR-swizzled within each swizzle span; elements outside the tensor are
 * zeros or the type's canonical NaN. Elements are gathered into a buffer
 * first, so an error while reading leaves local memory untouched. */
#include <stdlib.h>

#include "exec_tensor.h"

/* CUDA data-type codes 0-12: element sizes (3.9.4) */
static const uint8_t elem_size[13] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
enum { T_FLOAT16 = 6, T_FLOAT64 = 8, T_BFLOAT16 = 9, T_LAST_INT = 5 };

typedef struct box {
  unsigned type, e, rank, swz, oob;
  uint32_t gaddr;
  uint64_t gdim[6], bdim[6], es[6], n[6], stride[6], c[6];
} box;

static int bad(vt_error *err, const char *field, uint32_t value) {
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: cp_dma_tensor: %s (%u)", field, value);
  return VT_ERR_ILLEGAL;
}

/* the descriptor checks and the box origin (3.9.4 up to "# destination") */
static int read_descriptor(const vt_warp *w, const vt_insn *in, box *b, vt_error *err) {
  const uint32_t *T = w->v[in->rs1], *U = w->v[in->rs2];
  static const char *const gdim_name[6] = {"", "globalDim1", "globalDim2", "globalDim3", "globalDim4", "globalDim5"};
  static const char *const bdim_name[6] = {"", "boxDim1", "boxDim2", "boxDim3", "boxDim4", "boxDim5"};
  static const char *const es_name[6] = {"", "elementStrides1", "elementStrides2", "elementStrides3",
                                         "elementStrides4", "elementStrides5"};
  static const char *const st_name[6] = {"", "", "globalStride2", "globalStride3", "globalStride4",
                                         "globalStride5"};
  memset(b, 0, sizeof *b);
  if (T[0] > 12) return bad(err, "datatype", T[0]);
  b->type = T[0];
  b->e = elem_size[b->type];
  if (T[1] < 1 || T[1] > 5) return bad(err, "tensorRank", T[1]);
  b->rank = T[1];
  b->gaddr = T[2];
  for (unsigned d = 1; d <= b->rank; d++) {
    b->gdim[d] = T[2 + d];
    b->bdim[d] = U[d];
    b->es[d] = U[5 + d];
    if (b->gdim[d] < 1) return bad(err, gdim_name[d], T[2 + d]);
    if (b->bdim[d] < 1 || b->bdim[d] > 256) return bad(err, bdim_name[d], U[d]);
    if (b->es[d] < 1 || b->es[d] > 8) return bad(err, es_name[d], U[5 + d]);
  }
  b->stride[1] = b->e;
  for (unsigned d = 2; d <= b->rank; d++) {
    b->stride[d] = T[6 + d];
    if (T[6 + d] < 16 || T[6 + d] % 16 != 0) return bad(err, st_name[d], T[6 + d]);
  }
  if (U[11] != 0) {
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: unsupported: interleave (%u)", U[11]);
    return VT_ERR_ILLEGAL;
  }
  if (U[12] > 3) return bad(err, "swizzle", U[12]);
  if (U[13] > 3) return bad(err, "L2promotion", U[13]);
  if (U[14] > 1) return bad(err, "oobfill", U[14]);
  if (U[14] == 1 && b->type <= T_LAST_INT) return bad(err, "oobfill NaN with an integer datatype", b->type);
  b->swz = U[12];
  b->oob = U[14];
  if (U[0] < T[2]) return bad(err, "BoxAddress below globalAddress", U[0]);
  uint64_t off = U[0] - T[2];
  for (unsigned d = b->rank; d >= 2; d--) {
    b->c[d] = off / b->stride[d];
    off %= b->stride[d];
  }
  if (off % b->e != 0) return bad(err, "BoxAddress not on an element boundary", U[0]);
  b->c[1] = off / b->e;
  for (unsigned d = 1; d <= b->rank; d++) b->n[d] = (b->bdim[d] + b->es[d] - 1) / b->es[d];
  return VT_OK;
}

/* the out-of-bounds value (D37): zeros, or the canonical quiet NaN */
static void fill(const box *b, uint8_t *out) {
  uint64_t v = 0;
  if (b->oob == 1)
    v = b->type == T_FLOAT16 ? 0x7e00u : b->type == T_BFLOAT16 ? 0x7fc0u
        : b->type == T_FLOAT64 ? 0x7ff8000000000000ull : 0x7fc00000u;
  for (unsigned j = 0; j < b->e; j++) out[j] = (uint8_t)(v >> (8 * j));
}

/* element i (coordinates idx) into out: its source check happens now */
static int read_element(vt_device *dev, vt_warp *w, const box *b, const uint64_t *idx,
                        uint8_t *out, vt_error *err) {
  uint64_t a = b->gaddr;
  for (unsigned d = 1; d <= b->rank; d++) {
    uint64_t coord = b->c[d] + idx[d] * b->es[d];
    if (coord >= b->gdim[d]) {
      fill(b, out);
      return VT_OK;
    }
    a += coord * b->stride[d];
  }
  if (a + b->e - 1 > 0xffffffffull) {
    vt_err_set(err, VT_ERR_ACCESS, "cp_dma_tensor: element address 0x%llx is beyond 4 GiB",
               (unsigned long long)a);
    return VT_ERR_ACCESS;
  }
  int rc = vt_dma_check_src(dev, w, "cp_dma_tensor", (uint32_t)a, b->e, err);
  if (rc != VT_OK) return rc;
  for (unsigned j = 0; j < b->e; j++) {
    const uint8_t *p = vt_sim_access(dev, w, (uint32_t)a + j, 1, false, err);
    if (!p) return err ? err->status : VT_ERR_ACCESS;
    out[j] = *p;
  }
  vt_dma_rec_read(dev, (uint32_t)a, b->e);
  return VT_OK;
}

/* every element of the box into buf (total bytes), swizzled */
static int gather(vt_device *dev, vt_warp *w, const box *b, uint8_t *buf, uint64_t total,
                  unsigned m, vt_error *err) {
  uint64_t idx[6] = {0, 0, 0, 0, 0, 0};
  for (uint64_t o = 0; o < total; o += b->e) {
    uint64_t sw = o ^ (((o >> 7) & m) << 4); /* 16-byte chunks within the span */
    int rc = read_element(dev, w, b, idx, buf + sw, err);
    if (rc != VT_OK) return rc;
    for (unsigned d = 1; d <= b->rank && ++idx[d] == b->n[d]; d++) idx[d] = 0;
  }
  return VT_OK;
}

int vt_dma_tensor(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  if (vt_popcount32(w->lane_limit) < 16) /* D42: the descriptor occupies lanes 0-14 */
    return bad(err, "needs at least 16 lanes", vt_popcount32(w->lane_limit));
  box b;
  int rc = read_descriptor(w, in, &b, err);
  if (rc != VT_OK) return rc;
  uint64_t total = b.e;
  for (unsigned d = 1; d <= b.rank; d++) total *= b.n[d];
  static const unsigned span[4] = {0, 32, 64, 128}, xmask[4] = {0, 1, 3, 7};
  uint32_t sh = w->x[in->vs3];
  unsigned S = span[b.swz];
  if (sh % 16 != 0 || (S && sh % (8 * S) != 0)) {
    vt_err_set(err, VT_ERR_MISALIGNED,
               "cp_dma_tensor: shared-memory address 0x%08x must be a multiple of %u", sh,
               S ? 8 * S : 16);
    return VT_ERR_MISALIGNED;
  }
  if (S && total % S != 0) {
    vt_err_set(err, VT_ERR_ILLEGAL,
               "illegal instruction: cp_dma_tensor: swizzled box of %llu bytes is not a multiple "
               "of the swizzle span %u",
               (unsigned long long)total, S);
    return VT_ERR_ILLEGAL;
  }
  rc = vt_dma_check_dst(dev, w, "cp_dma_tensor", sh, total, err);
  if (rc != VT_OK) return rc;
  uint8_t *buf = malloc(total); /* at most the workgroup's local memory (checked) */
  if (!buf) {
    vt_err_set(err, VT_ERR_NOMEM, "out of host memory (cp_dma_tensor of %llu bytes)",
               (unsigned long long)total);
    return VT_ERR_NOMEM;
  }
  vt_dma_rec_start(dev, true, total);
  rc = gather(dev, w, &b, buf, total, xmask[b.swz], err);
  if (rc == VT_OK) rc = vt_dma_store(dev, w, sh, buf, total, err);
  free(buf);
  if (rc != VT_OK) dev->dma.valid = false;
  return rc;
}
