/* vecadd_host: runs the example vecadd kernel (examples/kernels, built
 * into an ELF by `vt as`) on the functional simulator through libvt, checks
 * C = A + B against the host and prints the run statistics.
 *
 * Usage: vecadd_host KERNEL.elf [N [THREADS_PER_WARP [WARPS_PER_GROUP]]]
 *
 * It lays out the launch the way the Ventus driver does
 * (formats-and-launch.md 3-5): buffers from 0x90000000, a 64-byte kernel
 * metadata buffer (entry, argument buffer, NDRange) and an argument buffer
 * holding the three buffer addresses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt/elf.h"
#include "vt/sim.h"

static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static int fail(const char *what, const vt_error *err) {
  fprintf(stderr, "vecadd_host: %s: %s\n", what, err ? err->message : "");
  return 1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: vecadd_host KERNEL.elf [N [THREADS [WARPS]]]\n");
    return 2;
  }
  unsigned n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 1024;
  unsigned threads = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 32;
  unsigned warps = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 0) : 4;
  unsigned local = threads * warps;
  if (n == 0 || local == 0 || n % local != 0) {
    fprintf(stderr, "vecadd_host: N (%u) must be a multiple of threads*warps (%u)\n", n, local);
    return 2;
  }
  char msg[256];
  vt_elf *elf;
  if (vt_elf_open_file(argv[1], &elf, msg, sizeof msg) != 0) {
    fprintf(stderr, "vecadd_host: %s\n", msg);
    return 1;
  }
  uint32_t entry;
  if (vt_elf_find_symbol(elf, "vecadd", &entry) != 0) {
    fprintf(stderr, "vecadd_host: %s has no symbol 'vecadd'\n", argv[1]);
    vt_elf_free(elf);
    return 1;
  }
  vt_dev_config cfg;
  vt_dev_config_default(&cfg);
  vt_device *dev = vt_device_new(&cfg);
  vt_error err;
  if (!dev) return fail("out of memory", NULL);
  int status = 0;
  if (vt_device_load_elf(dev, elf, &err) != VT_OK) {
    status = fail("loading the kernel", &err);
    goto out;
  }
  uint32_t bytes = 4 * n, page = 4096;
  uint32_t size = (bytes + page - 1) & ~(page - 1);
  uint32_t a = 0x90000000u, b = a + size, c = b + size, args = c + size, knl = args + page;
  uint32_t pds = knl + page;
  float *ha = malloc(bytes), *hb = malloc(bytes), *hc = malloc(bytes);
  if (!ha || !hb || !hc) {
    status = fail("out of memory", NULL);
    goto out_free;
  }
  srand(42);
  for (unsigned i = 0; i < n; i++) {
    ha[i] = (float)rand() / (float)RAND_MAX * 100.0f - 50.0f;
    hb[i] = (float)(i % 97) * 0.25f;
  }
  uint32_t arg_words[3] = {a, b, c};
  /* KNL: entry, args, work_dim, global xyz, local xyz, offset xyz, print */
  uint32_t meta[16] = {entry, args, 1, n, 1, 1, local, 1, 1, 0, 0, 0, 0, 0, 0, 0};
  if (vt_mem_map(dev, a, size, &err) || vt_mem_map(dev, b, size, &err) ||
      vt_mem_map(dev, c, size, &err) || vt_mem_map(dev, args, page, &err) ||
      vt_mem_map(dev, knl, page, &err) || vt_mem_map(dev, pds, page, &err) ||
      vt_mem_write(dev, a, ha, bytes, &err) || vt_mem_write(dev, b, hb, bytes, &err) ||
      vt_mem_write(dev, args, arg_words, sizeof arg_words, &err) ||
      vt_mem_write(dev, knl, meta, sizeof meta, &err)) {
    status = fail("preparing memory", &err);
    goto out_free;
  }
  vt_launch l = {.start_pc = 0x80000000u, .num_wg = {n / local, 1, 1}, .threads_per_warp = threads,
                 .warps_per_wg = warps, .knl_addr = knl, .lds_size = 0x1000, .pds_size = 0,
                 .pds_base = pds};
  if (vt_device_run(dev, &l, &err) != VT_OK) {
    status = fail("running", &err);
    goto out_free;
  }
  if (vt_mem_read(dev, c, hc, bytes, &err) != VT_OK) {
    status = fail("reading C", &err);
    goto out_free;
  }
  unsigned bad = 0;
  for (unsigned i = 0; i < n; i++)
    if (f2u(hc[i]) != f2u(ha[i] + hb[i]) && bad++ < 5)
      fprintf(stderr, "C[%u] = %g, expected %g\n", i, (double)hc[i], (double)(ha[i] + hb[i]));
  vt_run_stats s;
  vt_device_stats(dev, &s);
  printf("vecadd: %u elements, %u workgroups of %u warps x %u threads on %u SMs: %s\n", n,
         n / local, warps, threads, cfg.num_sms, bad ? "WRONG" : "verified (bit-exact)");
  printf("  warp-instructions   %llu\n  thread-instructions %llu\n  vector branches     %llu "
         "(%llu divergent)\n  host time           %.4f s (%.2f M warp-insn/s)\n",
         (unsigned long long)s.warp_insns, (unsigned long long)s.thread_insns,
         (unsigned long long)s.vbranches, (unsigned long long)s.divergent_vbranches,
         s.host_seconds, s.host_seconds > 0 ? (double)s.warp_insns / s.host_seconds / 1e6 : 0.0);
  status = bad ? 1 : 0;
out_free:
  free(ha);
  free(hb);
  free(hc);
out:
  vt_device_free(dev);
  vt_elf_free(elf);
  return status;
}
