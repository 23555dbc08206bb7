/* vecadd: C = A + B on the simulator through the runtime (vt_runtime.h):
 * the example kernel (examples/kernels/vecadd.s, assembled by `vt as` with
 * its start-up code) is loaded from its ELF, launched over N work-items and
 * checked bit for bit against the host; then the run statistics.
 *
 * Usage: vecadd KERNEL.elf [N [THREADS_PER_WARP [WARPS_PER_GROUP]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_runtime.h"

static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: vecadd KERNEL.elf [N [THREADS [WARPS]]]\n");
    return 2;
  }
  unsigned n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 1024;
  unsigned threads = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 32;
  unsigned warps = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 0) : 4;
  unsigned local = threads * warps;
  if (n == 0 || local == 0 || n % local != 0) {
    fprintf(stderr, "vecadd: N (%u) must be a multiple of threads*warps (%u)\n", n, local);
    return 2;
  }
  vt_rt_options opt;
  vt_rt_options_default(&opt);
  opt.threads_per_warp = threads;
  char msg[512];
  vt_rt *rt;
  if (vt_rt_create(&opt, &rt, msg, sizeof msg) != 0) {
    fprintf(stderr, "vecadd: %s\n", msg);
    return 1;
  }
  vt_rt_program *prog = NULL;
  vt_rt_kernel *k = NULL;
  float *ha = malloc(4u * n), *hb = malloc(4u * n), *hc = malloc(4u * n);
  int status = 1;
  uint32_t a = 0, b = 0, c = 0;
  if (!ha || !hb || !hc) {
    fprintf(stderr, "vecadd: out of memory\n");
    goto out;
  }
  srand(42);
  for (unsigned i = 0; i < n; i++) {
    ha[i] = (float)rand() / (float)RAND_MAX * 100.0f - 50.0f;
    hb[i] = (float)(i % 97) * 0.25f;
  }
  vt_rt_ndrange nd = {.dims = 1, .global = {n}, .local = {local}};
  vt_rt_launch_info info;
  if (vt_rt_program_load_file(rt, argv[1], &prog) || vt_rt_kernel_create(prog, "vecadd", &k) ||
      vt_rt_alloc(rt, 4u * n, &a) || vt_rt_alloc(rt, 4u * n, &b) || vt_rt_alloc(rt, 4u * n, &c) ||
      vt_rt_write(rt, a, ha, 4u * n) || vt_rt_write(rt, b, hb, 4u * n) ||
      vt_rt_set_arg_buffer(k, 0, a, 0) || vt_rt_set_arg_buffer(k, 1, b, 0) ||
      vt_rt_set_arg_buffer(k, 2, c, 0) || vt_rt_launch(k, &nd, &info) ||
      vt_rt_read(rt, c, hc, 4u * n)) {
    fprintf(stderr, "vecadd: %s\n", vt_rt_error(rt));
    goto out;
  }
  unsigned bad = 0;
  for (unsigned i = 0; i < n; i++)
    if (f2u(hc[i]) != f2u(ha[i] + hb[i]) && bad++ < 5)
      fprintf(stderr, "C[%u] = %g, expected %g\n", i, (double)hc[i], (double)(ha[i] + hb[i]));
  uint64_t sms = 0;
  vt_device_h dev = vt_rt_device(rt);
  if (vt_dev_caps(&dev, VT_CAPS_MAX_CORES, &sms)) {
    fprintf(stderr, "vecadd: %s\n", vt_last_error());
    goto out;
  }
  double wi = vt_rt_counter(rt, VT_C_warp_instructions), secs = vt_rt_counter(rt, VT_C_host_seconds);
  printf("vecadd: %u elements, %u workgroups of %u warps x %u threads on %llu SMs: %s\n", n,
         info.groups[0], info.warps_per_group, info.threads_per_warp, (unsigned long long)sms,
         bad ? "WRONG" : "verified (bit-exact)");
  printf("  warp-instructions   %.0f\n  thread-instructions %.0f\n  vector branches     %.0f "
         "(%.0f divergent)\n  host time           %.4f s (%.2f M warp-insn/s)\n",
         wi, vt_rt_counter(rt, VT_C_thread_instructions), vt_rt_counter(rt, VT_C_vector_branches),
         vt_rt_counter(rt, VT_C_divergent_vector_branches), secs, secs > 0 ? wi / secs / 1e6 : 0.0);
  status = bad ? 1 : 0;
out:
  free(ha);
  free(hb);
  free(hc);
  vt_rt_kernel_free(k);
  vt_rt_program_free(prog);
  vt_rt_destroy(rt);
  return status;
}
