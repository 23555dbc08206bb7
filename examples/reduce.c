/* reduce: sum of N ints with the barrier-based tree reduction
 * (examples/kernels/reduce.s): one partial sum per workgroup in local
 * memory (a __local argument), then the host adds the partial sums; both
 * are checked against the host.
 *
 * Usage: reduce KERNEL.elf [N [L]] (L a power of two dividing N) */
#include <stdio.h>
#include <stdlib.h>

#include "vt_runtime.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: reduce KERNEL.elf [N [L]]\n");
    return 2;
  }
  unsigned n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 4096;
  unsigned l = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 128;
  if (!n || !l || (l & (l - 1)) || n % l || l > 1024) {
    fprintf(stderr, "reduce: L must be a power of two (<= 1024) dividing N\n");
    return 2;
  }
  char msg[512];
  vt_rt *rt;
  if (vt_rt_create(NULL, &rt, msg, sizeof msg) != 0) {
    fprintf(stderr, "reduce: %s\n", msg);
    return 1;
  }
  unsigned groups = n / l;
  uint32_t *in = malloc(4u * n), *part = malloc(4u * groups);
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  int status = 1;
  uint32_t din = 0, dpart = 0;
  vt_rt_ndrange nd = {.dims = 1, .global = {n}, .local = {l}};
  vt_rt_launch_info info;
  if (!in || !part) {
    fprintf(stderr, "reduce: out of memory\n");
    goto done;
  }
  srand(11);
  for (unsigned i = 0; i < n; i++) in[i] = (uint32_t)rand() * 2654435761u;
  if (vt_rt_program_load_file(rt, argv[1], &p) || vt_rt_kernel_create(p, "reduce", &k) ||
      vt_rt_alloc(rt, 4u * n, &din) || vt_rt_alloc(rt, 4u * groups, &dpart) ||
      vt_rt_write(rt, din, in, 4u * n) || vt_rt_set_arg_buffer(k, 0, din, 0) ||
      vt_rt_set_arg_buffer(k, 1, dpart, 0) || vt_rt_set_arg_local(k, 2, 8 * l) ||
      vt_rt_launch(k, &nd, &info) || vt_rt_read(rt, dpart, part, 4u * groups)) {
    fprintf(stderr, "reduce: %s\n", vt_rt_error(rt));
    goto done;
  }
  unsigned bad = 0;
  uint32_t total = 0, want = 0;
  for (unsigned g = 0; g < groups; g++) {
    uint32_t s = 0;
    for (unsigned i = 0; i < l; i++) s += in[g * l + i];
    if (part[g] != s && bad++ < 5)
      fprintf(stderr, "partial[%u] = 0x%08x, expected 0x%08x\n", g, part[g], s);
    total += part[g];
    want += s;
  }
  printf("reduce: %u ints in %u workgroups of %u (%u warps x %u threads): sum 0x%08x %s\n", n,
         groups, l, info.warps_per_group, info.threads_per_warp, total,
         bad || total != want ? "WRONG" : "verified");
  status = bad || total != want ? 1 : 0;
done:
  free(in);
  free(part);
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  vt_rt_destroy(rt);
  return status;
}
