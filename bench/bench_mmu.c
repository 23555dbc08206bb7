/* bench_mmu: the cost of Sv39 translation (docs/memory.md, Costs) on a
 * walk-heavy kernel: every lane of 8 warps x 32 threads reads one word of
 * its own 4 KiB page and writes it back plus one, PASSES times, over
 * PAGES pages (default 2048: more than the L2 TLB's 512 entries, and far
 * more than a warp's 64-entry translation cache in the functional model).
 * The same launch runs with the MMU off and on:
 *   - on the timing model: cycles, walks, TLB hit rates, cycles per walk;
 *   - on the functional simulator (32 x PASSES passes, for a measurable
 *     time; best of 3): warp-instructions per second.
 * Results are checked (every word = PASSES).
 * Usage: bench_mmu [PAGES [PASSES]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_asm.h"
#include "vt/session.h"

static const char kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    li t4, 32\n"
    "    vsetvli t4, t4, e32, m1, ta, ma\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a0, 0(t0)            # buffer\n"
    "    lw a1, 4(t0)            # pages\n"
    "    lw a2, 8(t0)            # passes\n"
    "    csrr t1, CSR_TID        # the warp's first lane\n"
    "    vid.v v1\n"
    "    vadd.vx v1, v1, t1\n"
    "    vsll.vi v1, v1, 12      # a page per lane\n"
    "    li t2, 256\n"
    "    slli t3, t2, 12         # 256 lanes x 4 KiB\n"
    "2:  vadd.vx v2, v1, a0\n"
    "    mv a3, a1\n"
    "1:  vlw12.v v3, 0(v2)\n"
    "    vadd.vi v3, v3, 1\n"
    "    vsw12.v v3, 0(v2)\n"
    "    vadd.vx v2, v2, t3\n"
    "    addi a3, a3, -256\n"
    "    bgtz a3, 1b\n"
    "    addi a2, a2, -1\n"
    "    bnez a2, 2b\n"
    "    endprg x0, x0, x0\n";

#define BUF 0x90100000u
#define KNL 0x90000000u

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct result {
  double seconds, cycles, insns, walks, walk_cycles, l1_hits, l1_misses, l2_hits;
  long wrong;
} result;

static int run(const vt_elf *elf, bool mmu, bool timing, uint32_t pages, uint32_t passes,
               result *r) {
  vt_settings s;
  vt_settings_default(&s);
  s.mmu = mmu;
  s.timing = timing;
  s.progress = false;
  s.sms = 1;
  vt_session *ses;
  char msg[256];
  if (vt_session_new(&s, &ses, msg, sizeof msg) != 0) {
    fprintf(stderr, "bench_mmu: %s\n", msg);
    return 1;
  }
  vt_device *dev = vt_session_device(ses);
  vt_error e;
  uint32_t knl[3] = {BUF, pages, passes};
  if (vt_device_load_elf(dev, elf, &e) || vt_mem_map(dev, KNL, 4096, &e) ||
      vt_mem_map(dev, BUF, pages * 4096u, &e) || vt_mem_write(dev, KNL, knl, sizeof knl, &e)) {
    fprintf(stderr, "bench_mmu: %s\n", e.message);
    vt_session_free(ses);
    return 1;
  }
  vt_launch l;
  memset(&l, 0, sizeof l);
  l.start_pc = 0x80000000u;
  l.num_wg[0] = l.num_wg[1] = l.num_wg[2] = 1;
  l.threads_per_warp = 32;
  l.warps_per_wg = 8;
  l.knl_addr = KNL;
  double t0 = now_s();
  if (vt_session_launch(ses, &l, "walks", &e) != VT_OK) {
    fprintf(stderr, "bench_mmu: %s\n", e.message);
    vt_session_free(ses);
    return 1;
  }
  r->seconds = now_s() - t0;
  const vt_stats *st = vt_session_stats(ses);
  r->cycles = vt_stats_value(st, -1, -1, VT_C_cycles);
  r->insns = vt_stats_value(st, -1, -1, VT_C_warp_instructions);
  r->walks = vt_stats_value(st, -1, -1, VT_C_ptw_walks);
  r->walk_cycles = vt_stats_value(st, -1, -1, VT_C_ptw_cycles);
  r->l1_hits = vt_stats_value(st, -1, -1, VT_C_tlb_l1_hits);
  r->l1_misses = vt_stats_value(st, -1, -1, VT_C_tlb_l1_misses);
  r->l2_hits = vt_stats_value(st, -1, -1, VT_C_tlb_l2_hits);
  r->wrong = 0;
  for (uint32_t p = 0; p < pages; p++) {
    uint32_t v = 0;
    vt_mem_read(dev, BUF + p * 4096u, &v, 4, &e);
    r->wrong += v != passes;
  }
  vt_session_free(ses);
  return 0;
}

int main(int argc, char **argv) {
  uint32_t pages = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 2048;
  uint32_t passes = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 4;
  pages = (pages + 255) / 256 * 256;
  vt_elf *elf = bench_assemble("walks.s", kernel, sizeof kernel - 1);
  if (!elf) return 1;
  result t_off, t_on, f_off = {0}, f_on = {0}, r;
  if (run(elf, false, true, pages, passes, &t_off) || run(elf, true, true, pages, passes, &t_on))
    return 1;
  for (int k = 0; k < 3; k++) { /* functional: best of 3, alternating */
    if (run(elf, false, false, pages, 32 * passes, &r)) return 1;
    if (k == 0 || r.seconds < f_off.seconds || r.wrong) f_off = r;
    if (run(elf, true, false, pages, 32 * passes, &r)) return 1;
    if (k == 0 || r.seconds < f_on.seconds || r.wrong) f_on = r;
  }
  vt_elf_free(elf);
  printf("bench_mmu: %u pages (a word of each per lane, 8 warps x 32 threads, 1 SM), %u passes\n",
         pages, passes);
  printf("  timing model, MMU off: %.0f cycles\n", t_off.cycles);
  printf("  timing model, MMU on:  %.0f cycles (x%.2f): %.0f walks of %.1f cycles on average, "
         "L1 TLB hit rate %.3f, L2 TLB hits %.0f\n",
         t_on.cycles, t_on.cycles / t_off.cycles, t_on.walks,
         t_on.walks ? t_on.walk_cycles / t_on.walks : 0.0,
         t_on.l1_hits / (t_on.l1_hits + t_on.l1_misses), t_on.l2_hits);
  printf("  functional, MMU off: %.2f M warp-insn/s; MMU on: %.2f M warp-insn/s (%.0f %%)%s\n",
         f_off.insns / f_off.seconds / 1e6, f_on.insns / f_on.seconds / 1e6,
         100.0 * f_off.seconds / f_on.seconds,
         t_off.wrong + t_on.wrong + f_off.wrong + f_on.wrong ? "  RESULTS WRONG" : "  (results checked)");
  return t_off.wrong + t_on.wrong + f_off.wrong + f_on.wrong ? 1 : 0;
}
