/* mma_gemm: C = A * B on the tensor instructions (examples/kernels/mma_gemm.s:
 * A and B tiles copied into local memory by cp_dma_tensor, multiplied by
 * mma), checked against a host reference.
 *
 *   fp16: A and B binary16, C binary32. Every MMA of the kernel rounds its
 *         16-term dot product once to binary16 and adds it to C in binary32
 *         (isa2025.md 4.7, C25); the reference does the same with exact
 *         host arithmetic (the inputs are multiples of 2^-8 below 4, so
 *         double sums of 16 products are exact), bit for bit.
 *   s8:   A and B signed bytes, C 32-bit integers, exact.
 *
 * B is passed column-major (as Bt, N x K row-major): the layout MMA reads.
 *
 * Usage: mma_gemm KERNEL.elf [f16|s8 [M N K]]   (M a multiple of 16; N of 16
 * for f16, of 32 for s8; K of 8 for f16, of 16 for s8) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_runtime.h"

/* the binary16 encoding of a value it represents exactly (|x| < 2^15, at
 * most 11 significant bits, no subnormals needed for these inputs) */
static uint16_t f16_bits(double x) {
  if (x == 0) return signbit(x) ? 0x8000 : 0;
  int e;
  double m = frexp(fabs(x), &e); /* x = m * 2^e, 0.5 <= m < 1 */
  uint16_t s = x < 0 ? 0x8000 : 0;
  return (uint16_t)(s | (uint16_t)(e - 1 + 15) << 10 | (uint16_t)((m * 2 - 1) * 1024));
}

/* x rounded to binary16, ties to even (subnormals and overflow included) */
static double round_f16(double x) {
  if (x == 0) return x;
  int e;
  frexp(x, &e);
  int q = e - 1 < -14 ? -14 : e - 1; /* exponent of the unit in the last place + 10 */
  double ulp = ldexp(1.0, q - 10), r = nearbyint(x / ulp) * ulp;
  return fabs(r) > 65504 ? copysign(INFINITY, x) : r;
}

typedef struct gemm {
  int s8;
  unsigned m, n, k, tn;
  void *a, *bt, *c;
  size_t asz, bsz, csz;
} gemm;

static int check(const gemm *g, const void *a, const void *bt, const void *c) {
  unsigned bad = 0;
  for (unsigned r = 0; r < g->m; r++)
    for (unsigned col = 0; col < g->n; col++) {
      if (g->s8) {
        int32_t want = 0, got;
        for (unsigned i = 0; i < g->k; i++)
          want += ((const int8_t *)a)[r * g->k + i] * ((const int8_t *)bt)[col * g->k + i];
        memcpy(&got, (const char *)c + 4 * (r * g->n + col), 4);
        if (got != want && bad++ < 5) fprintf(stderr, "C[%u][%u] = %d, expected %d\n", r, col, got, want);
        continue;
      }
      const double *ad = (const double *)a + (size_t)r * g->k, *bd = (const double *)bt + (size_t)col * g->k;
      float acc = 0.0f, got;
      for (unsigned k0 = 0; k0 < g->k; k0 += 16) {
        double dot = 0; /* exact: products of multiples of 2^-8 below 16 */
        for (unsigned i = k0; i < k0 + 16 && i < g->k; i++) dot += ad[i] * bd[i];
        acc = acc + (float)round_f16(dot);
      }
      memcpy(&got, (const char *)c + 4 * (r * g->n + col), 4);
      if (memcmp(&got, &acc, 4) != 0 && bad++ < 5)
        fprintf(stderr, "C[%u][%u] = %.9g, expected %.9g\n", r, col, (double)got, (double)acc);
    }
  return bad ? 1 : 0;
}

static int run(vt_rt *rt, const char *elf, const gemm *g, const void *a16, const void *b16) {
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  uint32_t da = 0, db = 0, dc = 0;
  int im = (int)g->m, in = (int)g->n, ik = (int)g->k, status = 1;
  vt_rt_ndrange nd = {.dims = 2, .global = {64 * g->n / g->tn, g->m / 16}, .local = {64, 1}};
  vt_rt_launch_info info;
  void *c = calloc(1, g->csz);
  if (!c || vt_rt_program_load_file(rt, elf, &p) ||
      vt_rt_kernel_create(p, g->s8 ? "mma_gemm_s8" : "mma_gemm_f16", &k) ||
      vt_rt_alloc(rt, (uint32_t)g->asz, &da) || vt_rt_alloc(rt, (uint32_t)g->bsz, &db) ||
      vt_rt_alloc(rt, (uint32_t)g->csz, &dc) || vt_rt_write(rt, da, a16, g->asz) ||
      vt_rt_write(rt, db, b16, g->bsz) || vt_rt_kernel_set_num_args(k, 9) ||
      vt_rt_set_arg_buffer(k, 0, da, 0) || vt_rt_set_arg_buffer(k, 1, db, 0) ||
      vt_rt_set_arg_buffer(k, 2, dc, 0) || vt_rt_set_arg_scalar(k, 3, &im, 4) ||
      vt_rt_set_arg_scalar(k, 4, &in, 4) || vt_rt_set_arg_scalar(k, 5, &ik, 4) ||
      vt_rt_set_arg_local(k, 6, 512) || vt_rt_set_arg_local(k, 7, 512) ||
      vt_rt_set_arg_local(k, 8, 512) || vt_rt_launch(k, &nd, &info) ||
      vt_rt_read(rt, dc, c, g->csz)) {
    fprintf(stderr, "mma_gemm: %s\n", c ? vt_rt_error(rt) : "out of memory");
  } else {
    status = check(g, g->a, g->bt, c);
    printf("mma_gemm %s: %ux%u = %ux%u * %ux%u, %u workgroups of %u warps x %u threads: %s\n",
           g->s8 ? "s8 -> s32" : "f16 -> f32", g->m, g->n, g->m, g->k, g->k, g->n,
           info.groups[0] * info.groups[1], info.warps_per_group, info.threads_per_warp,
           status ? "WRONG" : "verified (bit-exact)");
  }
  free(c);
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  return status;
}

int main(int argc, char **argv) {
  gemm g = {0};
  g.s8 = argc > 2 && !strcmp(argv[2], "s8");
  if (argc < 2 || (argc > 2 && !g.s8 && strcmp(argv[2], "f16"))) {
    fprintf(stderr, "usage: mma_gemm KERNEL.elf [f16|s8 [M N K]]\n");
    return 2;
  }
  g.tn = g.s8 ? 32 : 16;
  g.m = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 32;
  g.n = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 0) : 2 * g.tn;
  g.k = argc > 5 ? (unsigned)strtoul(argv[5], NULL, 0) : 40 + (g.s8 ? 8 : 0);
  if (!g.m || !g.n || !g.k || g.m % 16 || g.n % g.tn || g.k % (g.s8 ? 16 : 8) || g.m > 4096 ||
      g.n > 4096 || g.k > 4096) {
    fprintf(stderr, "mma_gemm: M a multiple of 16, N of %u, K of %u (at most 4096)\n", g.tn,
            g.s8 ? 16 : 8);
    return 2;
  }
  size_t e = g.s8 ? 1 : 2;
  g.asz = e * g.m * g.k;
  g.bsz = e * g.n * g.k;
  g.csz = 4 * (size_t)g.m * g.n;
  /* host values (double for fp16, int8 for s8) and the device encodings */
  size_t hv = g.s8 ? 1 : sizeof(double);
  g.a = malloc(hv * g.m * g.k);
  g.bt = malloc(hv * g.n * g.k);
  uint8_t *a16 = malloc(g.asz), *b16 = malloc(g.bsz);
  vt_rt *rt = NULL;
  char msg[512];
  int status = 1;
  if (!g.a || !g.bt || !a16 || !b16) {
    fprintf(stderr, "mma_gemm: out of memory\n");
    goto done;
  }
  srand(11);
  for (size_t i = 0; i < (size_t)g.m * g.k + (size_t)g.n * g.k; i++) {
    int v = rand() % 2001 - 1000;
    int inb = i >= (size_t)g.m * g.k;
    size_t j = inb ? i - (size_t)g.m * g.k : i;
    uint8_t *dev = inb ? b16 : a16;
    if (g.s8) {
      ((int8_t *)(inb ? g.bt : g.a))[j] = (int8_t)(v % 128);
      dev[j] = (uint8_t)(v % 128);
    } else {
      double x = v / 256.0; /* |x| < 4, 10 significant bits: exact in binary16 */
      ((double *)(inb ? g.bt : g.a))[j] = x;
      uint16_t h = f16_bits(x);
      dev[2 * j] = (uint8_t)h;
      dev[2 * j + 1] = (uint8_t)(h >> 8);
    }
  }
  if (vt_rt_create(NULL, &rt, msg, sizeof msg) != 0) {
    fprintf(stderr, "mma_gemm: %s\n", msg);
    goto done;
  }
  status = run(rt, argv[1], &g, a16, b16);
done:
  free(g.a);
  free(g.bt);
  free(a16);
  free(b16);
  vt_rt_destroy(rt);
  return status;
}
