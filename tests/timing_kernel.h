/* Kernels for the timing-model tests: the micro-kernel source (the common
 * prologue, a setup, n copies of a unit, endprg), a device holding an
 * assembled kernel with a buffer mapped at TK_BUF, and the buffer contents
 * after a sequence of test-vector launches. */
#ifndef VT_TEST_TIMING_KERNEL_H
#define VT_TEST_TIMING_KERNEL_H
#include <string.h>

#include "asm_elf.h"
#include "check.h"
#include "vt/testvec.h"
#include "vt/timing.h"

#define TK_BUF 0x90000000u

/* vl = 32 at SEW 32, mstatus.FS on, v1 = lane ids; then setup and n units
 * (aligned to a fetch group), endprg */
static inline char *tk_source(const char *setup, const char *unit, unsigned n) {
  size_t cap = 4096 + strlen(setup) + (strlen(unit) + 16) * n;
  char *s = malloc(cap);
  if (!s) return NULL;
  size_t o = (size_t)snprintf(s, cap,
                              "  .text\n  .globl _start\n_start:\n"
                              "  li t4, 32\n  vsetvli t4, t4, e32, m1, ta, ma\n"
                              "  li t4, 0x2000\n  csrs mstatus, t4\n  vid.v v1\n%s"
                              "  .p2align 3\n",
                              setup);
  for (unsigned i = 0; i < n; i++) o += (size_t)snprintf(s + o, cap - o, "%s", unit);
  snprintf(s + o, cap - o, "  endprg x0, x0, x0\n");
  return s;
}

/* a new device (sms SMs; 0: the default settings) with the assembled
 * kernel loaded and [TK_BUF, TK_BUF + buf_bytes) mapped; NULL, with a
 * failed check, when the source does not assemble */
static inline vt_device *tk_device(check_state *st, const char *src, unsigned sms,
                                   uint32_t buf_bytes) {
  vt_elf *elf = test_assemble(st, "k.s", src);
  if (!elf) {
    fprintf(stderr, "%s", src);
    return NULL;
  }
  vt_settings dc;
  vt_settings_default(&dc);
  if (sms) dc.sms = sms;
  vt_device *dev = vt_device_new(&dc);
  vt_error err;
  CHECK(st, dev && elf && vt_device_load_elf(dev, elf, &err) == VT_OK);
  CHECK(st, dev && vt_mem_map(dev, TK_BUF, buf_bytes, &err) == VT_OK);
  vt_elf_free(elf);
  return dev;
}

/* Runs the test-vector launches meta[0..n) on a fresh default device,
 * with the timing model t or functionally (t = NULL); returns the
 * concatenated contents of their buffers (*len bytes) and, when asked, the
 * cycles of the last timing run */
static inline uint8_t *tk_run_sequence(check_state *st, const char *const *meta, unsigned n,
                                       vt_timing *t, size_t *len, uint64_t *cycles) {
  vt_device *dev = vt_device_new(NULL);
  struct { uint32_t base, size; } regs[64];
  unsigned nr = 0;
  for (unsigned i = 0; i < n; i++) {
    vt_testvec *tv = NULL;
    vt_launch l;
    vt_error err;
    int rc = vt_testvec_load(meta[i], NULL, &tv, &err);
    if (rc == VT_OK) rc = vt_testvec_apply(dev, tv, &l, &err);
    if (rc == VT_OK)
      rc = t ? vt_timing_run(t, dev, &l, meta[i], &err) : vt_device_run(dev, &l, NULL, &err);
    if (rc != VT_OK) {
      fprintf(stderr, "%s: %s\n", meta[i], err.message);
      st->failed_checks++;
    }
    for (unsigned b = 0; tv && b < tv->nbuf && nr < 64; b++) {
      regs[nr].base = tv->bufs[b].base;
      regs[nr++].size = tv->bufs[b].size;
    }
    vt_testvec_free(tv);
  }
  size_t total = 0;
  for (unsigned r = 0; r < nr; r++) total += regs[r].size;
  uint8_t *out = calloc(total + 1, 1), *p = out;
  for (unsigned r = 0; r < nr && out; r++) {
    vt_error err;
    if (vt_mem_read(dev, regs[r].base, p, regs[r].size, &err) != VT_OK) st->failed_checks++;
    p += regs[r].size;
  }
  vt_device_free(dev);
  *len = total;
  if (cycles) *cycles = t ? vt_timing_cycles(t) : 0;
  return out;
}

#endif
