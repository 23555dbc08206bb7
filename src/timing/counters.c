/* The timing model's part of the statistics report: cycles per launch and
 * the FIN line the RTL harness prints. The counters themselves are in the
 * device's statistics (vt/counters.h). */
#include "timing_internal.h"

uint64_t vt_timing_cycles(const vt_timing *t) {
  return t->total_cycles;
}

void vt_timing_fin_line(const vt_timing *t, char *buf, size_t n) {
  size_t off = 0;
  int k = snprintf(buf, n, "FIN %llu |", (unsigned long long)vt_timing_cycles(t));
  if (k < 0 || !t->stats) return;
  off = (size_t)k < n ? (size_t)k : n;
  for (unsigned s = 0; s < vt_stats_sm_count(t->stats) && off < n; s++) {
    k = snprintf(buf + off, n - off, " [i: X: %.0f V: %.0f]",
                 vt_stats_value(t->stats, -1, (int)s, VT_C_fin_x),
                 vt_stats_value(t->stats, -1, (int)s, VT_C_fin_v));
    if (k < 0) return;
    off += (size_t)k < n - off ? (size_t)k : n - off;
  }
}

void vt_timing_report(const vt_timing *t, FILE *f) {
  char fin[512];
  vt_timing_fin_line(t, fin, sizeof fin);
  fprintf(f, "timing: %u launch(es), %llu cycles\n", t->nlaunch,
          (unsigned long long)vt_timing_cycles(t));
  unsigned n = t->stats ? vt_stats_launch_count(t->stats) : 0;
  for (unsigned L = 0; L < n; L++) {
    double cy = vt_stats_value(t->stats, (int)L, -1, VT_C_cycles);
    if (cy == 0) continue; /* a functional launch */
    const char *name = vt_stats_launch_name(t->stats, L);
    fprintf(f, "  launch %u%s%s%s: %.0f cycles, IPC %.3f\n", L, *name ? " (" : "", name,
            *name ? ")" : "", cy, vt_stats_value(t->stats, (int)L, -1, VT_C_ipc));
  }
  fprintf(f, "%s\n", fin);
}
