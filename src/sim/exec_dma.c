/* The asynchronous copies (isa2025.md 3.9): cp_dma, cp_dma_bulk and
 * cp_dma_mbarrier here, cp_dma_tensor in exec_dma_tensor.c, and the range
 * checks and page-wise copying they share. The functional model copies
 * eagerly when the instruction executes, so cp_dma_mbarrier has nothing to
 * wait for (D14, 3.9.6); every check runs before the first byte is written
 * (3.9.6 item 1), in the order of the pseudo-code (C17: ILLEGAL, then
 * MISALIGNED, then ACCESS). The copy is also recorded in vt_device.dma for
 * the timing model, which makes it asynchronous. */
#include <stdlib.h>

#include "exec_tensor.h"

static bool in_local_window(uint64_t p) { return p >= VT_LDS_BASE && p < VT_PROGRAM_BASE; }

int vt_dma_check_src(vt_device *dev, vt_warp *w, const char *name, uint32_t p, uint64_t n,
                     vt_error *err) {
  uint64_t last = (uint64_t)p + n - 1;
  if (p < WCSR(w, GDS) || last > WCSR(w, GDS_LIMIT)) {
    vt_err_set(err, VT_ERR_ACCESS,
               "%s: source bytes 0x%08x..0x%08llx are outside [gds 0x%08x, gds_limit 0x%08x]",
               name, p, (unsigned long long)last, WCSR(w, GDS), WCSR(w, GDS_LIMIT));
    return VT_ERR_ACCESS;
  }
  /* C16: copies go from global to local memory only */
  uint32_t lds = WCSR(w, LDS);
  bool in_lds = lds <= WCSR(w, LDS_LIMIT) && p <= WCSR(w, LDS_LIMIT) && last >= lds;
  if (in_lds || in_local_window(p) || in_local_window(last) ||
      (p < VT_LDS_BASE && last >= VT_PROGRAM_BASE)) {
    vt_err_set(err, VT_ERR_ACCESS, "%s: DMA source in local memory (bytes 0x%08x..0x%08llx)", name,
               p, (unsigned long long)last);
    return VT_ERR_ACCESS;
  }
  if (dev->mmu) { /* every page through the launch's page table (a load: R) */
    for (uint64_t a = p; a <= last; a = (a | (VT_PAGE_SIZE - 1)) + 1)
      if (!vt_sim_access(dev, w, (uint32_t)a, 1, false, err)) {
        vt_err_prefix(err, "%s: source: ", name);
        return err ? err->status : VT_ERR_ACCESS;
      }
  } else if (!vt_mem_mapped(&dev->mem, p, (uint32_t)n)) {
    vt_err_set(err, VT_ERR_ACCESS, "%s: source bytes 0x%08x..0x%08llx are not mapped", name, p,
               (unsigned long long)last);
    return VT_ERR_ACCESS;
  }
  if (dev->cfg.memcheck && !vt_memcheck(dev, w, p, (uint32_t)n, false, err)) {
    vt_err_prefix(err, "%s: source: ", name);
    return err ? err->status : VT_ERR_ACCESS;
  }
  return VT_OK;
}

int vt_dma_check_dst(vt_device *dev, vt_warp *w, const char *name, uint32_t p, uint64_t n,
                     vt_error *err) {
  uint64_t last = (uint64_t)p + n - 1;
  uint32_t lds = WCSR(w, LDS);
  if (p < lds || last > WCSR(w, LDS_LIMIT)) {
    vt_err_set(err, VT_ERR_ACCESS,
               "%s: destination bytes 0x%08x..0x%08llx are outside [CSR_LDS 0x%08x, lds_limit "
               "0x%08x]",
               name, p, (unsigned long long)last, lds, WCSR(w, LDS_LIMIT));
    return VT_ERR_ACCESS;
  }
  if (!in_local_window(p) || !in_local_window(last)) {
    vt_err_set(err, VT_ERR_ACCESS,
               "%s: destination bytes 0x%08x..0x%08llx are not in local memory [0x%08x, 0x%08x)",
               name, p, (unsigned long long)last, VT_LDS_BASE, VT_PROGRAM_BASE);
    return VT_ERR_ACCESS;
  }
  /* the workgroup's window (its local bytes and the stacks above them):
   * the first and last byte of every page the copy writes */
  for (uint64_t a = p; a <= last; a = (a | (VT_PAGE_SIZE - 1)) + 1) {
    uint64_t end = a | (VT_PAGE_SIZE - 1);
    if (end > last) end = last;
    if (!vt_sim_access(dev, w, (uint32_t)a, 1, true, err) ||
        !vt_sim_access(dev, w, (uint32_t)end, 1, true, err)) {
      vt_err_prefix(err, "%s: destination: ", name);
      return err ? err->status : VT_ERR_ACCESS;
    }
  }
  return VT_OK;
}

/* a copy's write breaks other warps' LR reservations on the words it writes */
static void break_reservations(vt_device *dev, const vt_warp *w, uint32_t dst, uint32_t k) {
  if (!dev->nresv) return;
  for (uint64_t a = dst & ~3u; a < (uint64_t)dst + k; a += 4) vt_resv_store(dev, w, (uint32_t)a);
}

/* copies n checked bytes from global src to local dst, page by page */
int vt_dma_copy(vt_device *dev, vt_warp *w, uint32_t dst, uint32_t src, uint64_t n,
                vt_error *err) {
  while (n) {
    uint32_t room_s = VT_PAGE_SIZE - (src & (VT_PAGE_SIZE - 1));
    uint32_t room_d = VT_PAGE_SIZE - (dst & (VT_PAGE_SIZE - 1));
    uint32_t k = room_s < room_d ? room_s : room_d;
    if (k > n) k = (uint32_t)n;
    const uint8_t *s = vt_sim_access(dev, w, src, 1, false, err);
    if (!s) return err ? err->status : VT_ERR_ACCESS;
    uint8_t *d = vt_sim_access(dev, w, dst, 1, true, err);
    if (!d) return err ? err->status : VT_ERR_ACCESS;
    memmove(d, s, k);
    break_reservations(dev, w, dst, k);
    n -= k;
    src += k;
    dst += k;
  }
  return VT_OK;
}

/* writes n bytes of buf to checked local memory at dst */
int vt_dma_store(vt_device *dev, vt_warp *w, uint32_t dst, const uint8_t *buf, uint64_t n,
                 vt_error *err) {
  while (n) {
    uint32_t k = VT_PAGE_SIZE - (dst & (VT_PAGE_SIZE - 1));
    if (k > n) k = (uint32_t)n;
    uint8_t *d = vt_sim_access(dev, w, dst, 1, true, err);
    if (!d) return err ? err->status : VT_ERR_ACCESS;
    memcpy(d, buf, k);
    break_reservations(dev, w, dst, k);
    buf += k;
    n -= k;
    dst += k;
  }
  return VT_OK;
}

void vt_dma_rec_start(vt_device *dev, bool tensor, uint64_t bytes) {
  vt_dma_rec *r = &dev->dma;
  r->valid = true;
  r->tensor = tensor;
  r->bytes = bytes;
  r->nruns = 0;
  r->extra = 0;
}

bool vt_step_copy(vt_device *dev, vt_dma_rec *out) {
  if (!dev->dma.valid) return false;
  *out = dev->dma;
  dev->dma.valid = false;
  return true;
}

void vt_dma_rec_read(vt_device *dev, uint32_t addr, uint32_t len) {
  vt_dma_rec *r = &dev->dma;
  if (r->nruns && (uint64_t)r->run_addr[r->nruns - 1] + r->run_len[r->nruns - 1] == addr &&
      r->run_len[r->nruns - 1] + (uint64_t)len <= 0xffffffffu) {
    r->run_len[r->nruns - 1] += len;
  } else if (r->nruns < VT_DMA_RUNS) {
    r->run_addr[r->nruns] = addr;
    r->run_len[r->nruns++] = len;
  } else {
    r->extra += len;
  }
}

static int illegal(vt_error *err, const char *name, const char *what, uint64_t value) {
  vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: %s: %s (%llu)", name, what,
             (unsigned long long)value);
  return VT_ERR_ILLEGAL;
}

/* cp_dma (3.9.2): the row's MEM size is the copy size c; n <= c bytes read,
 * the rest of the c destination bytes zero; no alignment requirement */
static int cp_dma(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  const char *name = in->d->mnemonic;
  uint32_t dst = w->x[in->vs3], src = w->x[in->rs1], n = w->x[in->rs2], c = in->d->msize;
  if (n > c) return illegal(err, name, "source size exceeds the copy size", n);
  int rc = n ? vt_dma_check_src(dev, w, name, src, n, err) : VT_OK;
  if (rc == VT_OK) rc = vt_dma_check_dst(dev, w, name, dst, c, err);
  if (rc != VT_OK) return rc;
  uint8_t buf[16] = {0};
  for (uint32_t j = 0; j < n; j++) {
    const uint8_t *p = vt_sim_access(dev, w, src + j, 1, false, err);
    if (!p) return err ? err->status : VT_ERR_ACCESS;
    buf[j] = *p;
  }
  vt_dma_rec_start(dev, false, c);
  if (n) vt_dma_rec_read(dev, src, n);
  return vt_dma_store(dev, w, dst, buf, c, err);
}

/* cp_dma_bulk (3.9.3, D36) */
static int cp_dma_bulk(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  const char *name = in->d->mnemonic;
  uint32_t dst = w->x[in->vs3], src = w->x[in->rs1], n = w->x[in->rs2];
  if (n == 0 || n % 16 != 0)
    return illegal(err, name, "size is not a non-zero multiple of 16", n);
  if (src % 16 != 0 || dst % 16 != 0) {
    vt_err_set(err, VT_ERR_MISALIGNED,
               "%s: source 0x%08x and destination 0x%08x must be multiples of 16", name, src, dst);
    return VT_ERR_MISALIGNED;
  }
  int rc = vt_dma_check_src(dev, w, name, src, n, err);
  if (rc == VT_OK) rc = vt_dma_check_dst(dev, w, name, dst, n, err);
  if (rc != VT_OK) return rc;
  vt_dma_rec_start(dev, false, n);
  vt_dma_rec_read(dev, src, n);
  return vt_dma_copy(dev, w, dst, src, n, err);
}

int vt_exec_dma(vt_device *dev, vt_warp *w, const vt_insn *in, vt_error *err) {
  switch ((vt_sem)in->d->sem) {
  case VT_SEM_COPY: return cp_dma(dev, w, in, err);
  case VT_SEM_COPY_BULK: return cp_dma_bulk(dev, w, in, err);
  case VT_SEM_COPY_TENSOR: return vt_dma_tensor(dev, w, in, err);
  case VT_SEM_COPY_WAIT: return VT_OK; /* the copies completed when they executed (D14) */
  default:
    vt_err_set(err, VT_ERR_ILLEGAL, "illegal instruction: not a copy");
    return VT_ERR_ILLEGAL;
  }
}
