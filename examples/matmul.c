/* matmul: C = A * B with the tiled local-memory kernel
 * (examples/kernels/matmul.s: two __local tile arguments, barriers),
 * checked bit for bit against the same float operations on the host.
 *
 * Usage: matmul KERNEL.elf [M [N [K [TS]]]] (all multiples of TS) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_runtime.h"

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: matmul KERNEL.elf [M [N [K [TS]]]]\n");
    return 2;
  }
  unsigned m = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 32;
  unsigned n = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 32;
  unsigned kk = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 0) : 32;
  unsigned ts = argc > 5 ? (unsigned)strtoul(argv[5], NULL, 0) : 8;
  if (!m || !n || !kk || !ts || m % ts || n % ts || kk % ts || ts * ts > 1024) {
    fprintf(stderr, "matmul: M, N, K must be multiples of TS (TS*TS <= 1024)\n");
    return 2;
  }
  char msg[512];
  vt_rt *rt;
  if (vt_rt_create(NULL, &rt, msg, sizeof msg) != 0) {
    fprintf(stderr, "matmul: %s\n", msg);
    return 1;
  }
  float *a = malloc(sizeof(float) * m * kk), *b = malloc(sizeof(float) * kk * n);
  float *c = malloc(sizeof(float) * m * n);
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  int status = 1;
  if (!a || !b || !c) goto done;
  srand(7);
  for (unsigned i = 0; i < m * kk; i++) a[i] = (float)(rand() % 2001 - 1000) / 256.0f;
  for (unsigned i = 0; i < kk * n; i++) b[i] = (float)(rand() % 2001 - 1000) / 128.0f;
  uint32_t da = 0, db = 0, dc = 0;
  int in = (int)n, ik = (int)kk;
  vt_rt_ndrange nd = {.dims = 2, .global = {n, m}, .local = {ts, ts}};
  vt_rt_launch_info info;
  if (vt_rt_program_load_file(rt, argv[1], &p) || vt_rt_kernel_create(p, "matmul", &k) ||
      vt_rt_alloc(rt, sizeof(float) * m * kk, &da) || vt_rt_alloc(rt, sizeof(float) * kk * n, &db) ||
      vt_rt_alloc(rt, sizeof(float) * m * n, &dc) ||
      vt_rt_write(rt, da, a, sizeof(float) * m * kk) ||
      vt_rt_write(rt, db, b, sizeof(float) * kk * n) || vt_rt_kernel_set_num_args(k, 7) ||
      vt_rt_set_arg_buffer(k, 0, da, 0) || vt_rt_set_arg_buffer(k, 1, db, 0) ||
      vt_rt_set_arg_buffer(k, 2, dc, 0) || vt_rt_set_arg_scalar(k, 3, &in, sizeof in) ||
      vt_rt_set_arg_scalar(k, 4, &ik, sizeof ik) ||
      vt_rt_set_arg_local(k, 5, 4 * ts * ts) || vt_rt_set_arg_local(k, 6, 4 * ts * ts) ||
      vt_rt_launch(k, &nd, &info) || vt_rt_read(rt, dc, c, sizeof(float) * m * n)) {
    fprintf(stderr, "matmul: %s\n", vt_rt_error(rt));
    goto done;
  }
  unsigned bad = 0;
  for (unsigned r = 0; r < m; r++)
    for (unsigned col = 0; col < n; col++) {
      float acc = 0.0f;
      for (unsigned i = 0; i < kk; i++) {
        float prod = a[r * kk + i] * b[i * n + col];
        acc = acc + prod;
      }
      if (memcmp(&acc, &c[r * n + col], sizeof acc) != 0 && bad++ < 5)
        fprintf(stderr, "C[%u][%u] = %g, expected %g\n", r, col, (double)c[r * n + col],
                (double)acc);
    }
  printf("matmul: %ux%u = %ux%u * %ux%u, tiles %ux%u (%u warps x %u threads), local memory "
         "%u bytes per workgroup: %s\n",
         m, n, m, kk, kk, n, ts, ts, info.warps_per_group, info.threads_per_warp, info.lds_size,
         bad ? "WRONG" : "verified (bit-exact)");
  status = bad ? 1 : 0;
done:
  if (status && !(a && b && c)) fprintf(stderr, "matmul: out of memory\n");
  free(a);
  free(b);
  free(c);
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  vt_rt_destroy(rt);
  return status;
}
