/* vt cc against the official Ventus compiler on the same computations:
 * the official binaries of VT_SHARED_DIR/cases (vecadd, matadd, gaussian
 * Fan1/Fan2 from their llvm-objdump listings; nn and bfs from the code
 * buffers of the rtl-verilog test vectors) and vt cc's builds of the same
 * OpenCL C kernels (tests/cc) run through the same runtime with the same
 * inputs and geometries; outputs must agree bit for bit, and vt cc must
 * not execute more warp instructions. The gaussian sequence is also
 * checked against the final values the case README lists. T_CASES tests:
 * skipped without the shared folder or without the compiler. */
#include "cc_test_util.h"
#include "vt/asm.h"
#include "vt/testvec.h"

#ifdef VT_HAVE_CC
#define CASES VT_SHARED_DIR "/cases"

/* An ELF from an llvm-objdump listing: its .text words at their
 * addresses, its global labels as symbols. */
static int dump_to_elf(const char *path, cc_prog *p) {
  FILE *f = fopen(path, "r");
  memset(p, 0, sizeof *p);
  if (!f) return -1;
  size_t cap = 1 << 20, n = 0;
  char *src = malloc(cap), line[512];
  uint32_t next = 0x80000000u;
  n += (size_t)snprintf(src, cap, "    .text\n");
  while (fgets(line, sizeof line, f) && n + 600 < cap) {
    unsigned addr, b[4];
    char name[256];
    if (sscanf(line, "%x <%255[^>]>:", &addr, name) == 2) {
      if (name[0] != '.') n += (size_t)snprintf(src + n, cap - n, "    .globl %s\n%s:\n", name, name);
    } else if (sscanf(line, "%x: %x %x %x %x", &addr, &b[0], &b[1], &b[2], &b[3]) == 5) {
      if (addr != next) break;
      n += (size_t)snprintf(src + n, cap - n, "    .word 0x%02x%02x%02x%02x\n", b[3], b[2], b[1], b[0]);
      next += 4;
    }
  }
  fclose(f);
  vt_asm *as = vt_asm_new(NULL);
  int rc = vt_asm_add_source(as, "official.s", src, n) || vt_asm_link(as, &p->elf, &p->size) ? -1 : 0;
  if (rc) fprintf(stderr, "%s\n", vt_asm_errors(as));
  vt_asm_free(as);
  free(src);
  return rc;
}

/* An ELF from the code buffer (at 0x80000000) of a test vector, with the
 * given kernel names at their entry addresses. */
static int testvec_code_elf(const char *meta, const char *const *names, const uint32_t *entries,
                            int nk, cc_prog *p, vt_testvec **tv_out) {
  vt_testvec *tv = NULL;
  vt_error err;
  memset(p, 0, sizeof *p);
  if (vt_testvec_load(meta, NULL, &tv, &err) != 0) {
    fprintf(stderr, "%s\n", err.message);
    return -1;
  }
  const vt_tv_buffer *code = NULL;
  for (unsigned i = 0; i < tv->nbuf; i++)
    if (tv->bufs[i].base == 0x80000000u) code = &tv->bufs[i];
  if (!code) {
    vt_testvec_free(tv);
    return -1;
  }
  size_t cap = 64 * (size_t)code->size + 4096, n = 0;
  char *src = malloc(cap);
  n += (size_t)snprintf(src, cap, "    .text\n    .globl _start\n_start:\n");
  for (uint32_t off = 0; off + 4 <= code->size; off += 4) {
    for (int k = 0; k < nk; k++)
      if (entries[k] == 0x80000000u + off)
        n += (size_t)snprintf(src + n, cap - n, "    .globl %s\n%s:\n", names[k], names[k]);
    uint32_t w;
    memcpy(&w, tv->data + code->data_offset + off, 4);
    n += (size_t)snprintf(src + n, cap - n, "    .word 0x%08x\n", w);
  }
  vt_asm *as = vt_asm_new(NULL);
  int rc = vt_asm_add_source(as, "official.s", src, n) || vt_asm_link(as, &p->elf, &p->size) ? -1 : 0;
  vt_asm_free(as);
  free(src);
  if (tv_out) *tv_out = tv;
  else vt_testvec_free(tv);
  return rc;
}

/* a test vector buffer's initial bytes */
static const uint8_t *tv_bytes(const vt_testvec *tv, uint32_t base, uint32_t *size) {
  for (unsigned i = 0; i < tv->nbuf; i++)
    if (tv->bufs[i].base == base) {
      *size = tv->bufs[i].size;
      return tv->data + tv->bufs[i].data_offset;
    }
  *size = 0;
  return NULL;
}

static void report(const char *what, uint64_t official, uint64_t ours) {
  printf("     %-34s official %6llu, vt cc %6llu warp instructions (%+.0f%%)\n", what,
         (unsigned long long)official, (unsigned long long)ours,
         official ? 100.0 * ((double)ours - (double)official) / (double)official : 0.0);
}

/* the same launch with the official and with vt cc's program */
static void both(check_state *st, const cc_prog *off, const cc_prog *ours, const char *name,
                 const vt_rt_ndrange *nd, unsigned threads, cc_arg *a_off, cc_arg *a_ours, int nargs,
                 uint64_t *i_off, uint64_t *i_ours) {
  cc_run r1 = {.threads = threads}, r2 = {.threads = threads};
  CHECK(st, cc_launch(off, name, nd, a_off, nargs, &r1) == 0);
  CHECK(st, cc_launch(ours, name, nd, a_ours, nargs, &r2) == 0);
  *i_off += r1.warp_insns;
  *i_ours += r2.warp_insns;
}

TEST(vecadd_matadd) {
  cc_prog off, ours, moff, mours;
  CHECK(st, dump_to_elf(CASES "/vecadd_4x16/vecadd.dump", &off) == 0);
  CHECK(st, dump_to_elf(CASES "/matadd/matadd.dump", &moff) == 0);
  const char *o1[] = {"-O1", NULL};
  CHECK(st, cc_build(&ours, "basic.cl", o1) == 0);
  CHECK(st, cc_build(&mours, "matmul.cl", o1) == 0);
  if (!off.elf || !ours.elf || !moff.elf || !mours.elf) return;
  uint64_t io = 0, iu = 0;
  static const uint32_t shapes[][3] = {{64, 64, 16}, {256, 64, 16}, {128, 32, 8}, {64, 16, 4}};
  uint32_t seed = 1;
  for (int s = 0; s < 4; s++) { /* the case's shape first (16 x 4, 64 items), then others */
    uint32_t n = shapes[s][0];
    float *a = malloc(4 * n), *b = malloc(4 * n), *c1 = malloc(4 * n), *c2 = malloc(4 * n);
    for (uint32_t i = 0; i < n; i++) {
      a[i] = (float)(int)(cc_rand(&seed) % 100000) / 77.0f;
      b[i] = (float)(int)(cc_rand(&seed) % 100000) / -33.0f;
    }
    cc_arg x1[] = {ARG_IN(a, 4 * n), ARG_IN(b, 4 * n), ARG_OUT(c1, 4 * n)};
    cc_arg x2[] = {ARG_IN(a, 4 * n), ARG_IN(b, 4 * n), ARG_OUT(c2, 4 * n)};
    vt_rt_ndrange nd = nd1(n, shapes[s][1]);
    both(st, &off, &ours, "vecadd", &nd, shapes[s][2], x1, x2, 3, &io, &iu);
    check_words(st, "vecadd", c2, c1, n);
    free(a);
    free(b);
    free(c1);
    free(c2);
  }
  report("vecadd (4 launches)", io, iu);
  CHECK(st, iu <= io);
  io = iu = 0;
  static const uint32_t mshapes[][5] = {{4, 4, 4, 4, 4}, {16, 8, 4, 4, 4}, {8, 8, 8, 2, 8}};
  for (int s = 0; s < 3; s++) {
    uint32_t n = mshapes[s][0] * mshapes[s][1];
    float *a = malloc(4 * n), *b = malloc(4 * n), *c1 = malloc(4 * n), *c2 = malloc(4 * n);
    for (uint32_t i = 0; i < n; i++) {
      a[i] = (float)(int)(cc_rand(&seed) % 1000) * 0.37f;
      b[i] = (float)(int)(cc_rand(&seed) % 1000) * -1.13f;
    }
    cc_arg x1[] = {ARG_IN(a, 4 * n), ARG_IN(b, 4 * n), ARG_OUT(c1, 4 * n)};
    cc_arg x2[] = {ARG_IN(a, 4 * n), ARG_IN(b, 4 * n), ARG_OUT(c2, 4 * n)};
    vt_rt_ndrange nd = nd2(mshapes[s][0], mshapes[s][1], mshapes[s][2], mshapes[s][3]);
    both(st, &moff, &mours, "matadd", &nd, mshapes[s][4], x1, x2, 3, &io, &iu);
    check_words(st, "matadd", c2, c1, n);
    free(a);
    free(b);
    free(c1);
    free(c2);
  }
  report("matadd (3 launches)", io, iu);
  CHECK(st, iu <= io);
  cc_prog_free(&off);
  cc_prog_free(&ours);
  cc_prog_free(&moff);
  cc_prog_free(&mours);
}

/* the gaussian sequence of the case (N = 4, Fan1 4 x 1, Fan2 4 x 4 with
 * 4 threads per warp) and a larger one */
static void gaussian_run(check_state *st, const cc_prog *p, int n, float *a, float *b, float *m,
                         uint64_t *insns) {
  for (int t = 0; t < n - 1; t++) {
    cc_arg args[] = {ARG_IO(m, 4u * n * n), ARG_IO(a, 4u * n * n), ARG_IO(b, 4u * n), ARG_VAL(&n),
                     ARG_VAL(&t)};
    uint32_t g = (uint32_t)((n + 3) / 4 * 4);
    vt_rt_ndrange n1 = nd1(g, 4), n2 = nd2(g, g, 4, 4);
    cc_run run = {.threads = 4};
    CHECK(st, cc_launch(p, "Fan1", &n1, args, 5, &run) == 0);
    *insns += run.warp_insns;
    CHECK(st, cc_launch(p, "Fan2", &n2, args, 5, &run) == 0);
    *insns += run.warp_insns;
  }
}

TEST(gaussian_bit_exact) {
  cc_prog off, ours;
  CHECK(st, dump_to_elf(CASES "/gaussian/gaussian.dump", &off) == 0);
  const char *o1[] = {"-O1", NULL};
  CHECK(st, cc_build(&ours, "gaussian.cl", o1) == 0);
  if (!off.elf || !ours.elf) return;
  /* the case's inputs (Fan1_0.data: a, b, m = 0) */
  vt_testvec *tv = NULL;
  vt_error err;
  CHECK(st, vt_testvec_load(CASES "/gaussian/Fan1_0.metadata", NULL, &tv, &err) == 0);
  if (!tv) return;
  uint32_t sa, sb;
  const uint8_t *ia = tv_bytes(tv, 0x90000000u, &sa), *ib = tv_bytes(tv, 0x90001000u, &sb);
  CHECK(st, ia && ib && sa == 64 && sb == 16);
  float a1[16] = {0}, b1[4] = {0}, m1[16] = {0}, a2[16], b2[4], m2[16] = {0};
  if (ia && ib) {
    memcpy(a1, ia, 64);
    memcpy(b1, ib, 16);
  }
  memcpy(a2, a1, 64);
  memcpy(b2, b1, 16);
  vt_testvec_free(tv);
  uint64_t io = 0, iu = 0;
  gaussian_run(st, &off, 4, a1, b1, m1, &io);
  gaussian_run(st, &ours, 4, a2, b2, m2, &iu);
  static const uint32_t want_a[16] = {0xbf19999a, 0xbf000000, 0x3f333333, 0x3e99999a, 0x00000000,
                                      0xbf266666, 0xbd4cccc8, 0x3f0ccccc, 0xb26eeef0, 0x31424c20,
                                      0xbf40fc10, 0xbf920d21, 0x00000000, 0xb0c4ec50, 0x32036a80,
                                      0x3f0042df};
  static const uint32_t want_b[4] = {0xbf59999a, 0xbe828f5c, 0x3f5f3ec1, 0xbe8042df};
  static const uint32_t want_m[16] = {0, 0, 0, 0, 0x3f000000, 0, 0, 0, 0x3f2aaaaa, 0x3e834836, 0, 0,
                                      0x80000000, 0x3e1d89d9, 0xbe8d0fac, 0};
  check_words(st, "official a", a1, want_a, 16); /* the README's values, for both */
  check_words(st, "vt cc a", a2, want_a, 16);
  check_words(st, "vt cc b", b2, want_b, 4);
  check_words(st, "vt cc m", m2, want_m, 16);
  report("gaussian N=4 (6 launches)", io, iu);
  CHECK(st, iu <= io);
  /* a larger random system: both programs, bit for bit */
  enum { N = 10 };
  float A1[N * N], B1[N], M1[N * N] = {0}, A2[N * N], B2[N], M2[N * N] = {0};
  uint32_t seed = 77;
  for (int i = 0; i < N * N; i++) A1[i] = (float)((int)(cc_rand(&seed) % 200) - 100) / 7.0f;
  for (int i = 0; i < N; i++) {
    A1[i * N + i] += 60.0f;
    B1[i] = (float)i * 1.5f;
  }
  memcpy(A2, A1, sizeof A1);
  memcpy(B2, B1, sizeof B1);
  io = iu = 0;
  gaussian_run(st, &off, N, A1, B1, M1, &io);
  gaussian_run(st, &ours, N, A2, B2, M2, &iu);
  check_words(st, "gaussian a", A2, A1, N * N);
  check_words(st, "gaussian b", B2, B1, N);
  check_words(st, "gaussian m", M2, M1, N * N);
  report("gaussian N=10 (18 launches)", io, iu);
  CHECK(st, iu <= io);
  cc_prog_free(&off);
  cc_prog_free(&ours);
}

TEST(nn_bit_exact) {
  const char *names[] = {"NearestNeighbor"};
  const uint32_t entries[] = {0x800000b8u};
  cc_prog off, ours;
  vt_testvec *tv = NULL;
  CHECK(st, testvec_code_elf(CASES "/rtl-verilog/nn_2w16t/NearestNeighbor_0.metadata", names,
                             entries, 1, &off, &tv) == 0);
  const char *o1[] = {"-O1", NULL};
  CHECK(st, cc_build(&ours, "nn.cl", o1) == 0);
  if (!off.elf || !ours.elf || !tv) {
    vt_testvec_free(tv);
    return;
  }
  uint32_t sl, sargs;
  const uint8_t *loc = tv_bytes(tv, 0x90000000u, &sl), *args = tv_bytes(tv, 0x90002000u, &sargs);
  CHECK(st, loc && sl == 152 && args && sargs == 20);
  if (!loc || !args) return;
  int nrec;
  float lat, lng, l[38], d1[19], d2[19];
  memcpy(&nrec, args + 8, 4);
  memcpy(&lat, args + 12, 4);
  memcpy(&lng, args + 16, 4);
  memcpy(l, loc, 152);
  CHECK_EQ_U32(st, nrec, 19);
  uint64_t io = 0, iu = 0;
  cc_arg x1[] = {ARG_IN(l, 152), ARG_OUT(d1, 76), ARG_VAL(&nrec), ARG_VAL(&lat), ARG_VAL(&lng)};
  cc_arg x2[] = {ARG_IN(l, 152), ARG_OUT(d2, 76), ARG_VAL(&nrec), ARG_VAL(&lat), ARG_VAL(&lng)};
  vt_rt_ndrange nd = nd1(32, 32); /* the test vector's launch: 2 warps of 16 */
  both(st, &off, &ours, "NearestNeighbor", &nd, 16, x1, x2, 5, &io, &iu);
  check_words(st, "nn", d2, d1, 19);
  report("NearestNeighbor (nn_2w16t)", io, iu);
  CHECK(st, iu <= io);
  vt_testvec_free(tv);
  cc_prog_free(&off);
  cc_prog_free(&ours);
}

TEST(bfs_bit_exact) {
  const char *names[] = {"BFS_1", "BFS_2"};
  const uint32_t entries[] = {0x800000b8u, 0x800001ecu};
  cc_prog off, ours;
  vt_testvec *tv = NULL;
  CHECK(st, testvec_code_elf(CASES "/rtl-verilog/bfs_2w16t/BFS_1_0.metadata", names, entries, 2,
                             &off, &tv) == 0);
  const char *o1[] = {"-O1", NULL};
  CHECK(st, cc_build(&ours, "bfs.cl", o1) == 0);
  if (!off.elf || !ours.elf || !tv) {
    vt_testvec_free(tv);
    return;
  }
  /* the graph of the test vector: 32 nodes, 194 edges, source 0 */
  uint32_t sn, se;
  const uint8_t *gn = tv_bytes(tv, 0x90000000u, &sn), *ge = tv_bytes(tv, 0x90001000u, &se);
  CHECK(st, gn && sn == 256 && ge && se == 776);
  if (!gn || !ge) return;
  uint64_t io = 0, iu = 0;
  int cost[2][32];
  for (int v = 0; v < 2; v++) {
    const cc_prog *p = v ? &ours : &off;
    char mask[32] = {1}, upd[32] = {0}, visited[32] = {1}, over;
    int n = 32, iterations = 0;
    for (int i = 0; i < 32; i++) cost[v][i] = i ? -1 : 0;
    do {
      over = 0;
      vt_rt_ndrange nd = nd1(32, 32);
      cc_run run = {.threads = 16};
      cc_arg a1[] = {ARG_IN(gn, 256),        ARG_IN(ge, 776), ARG_IO(mask, 32), ARG_IO(upd, 32),
                     ARG_IO(visited, 32), ARG_IO(cost[v], 128), ARG_VAL(&n)};
      if (cc_launch(p, "BFS_1", &nd, a1, 7, &run)) break;
      (v ? &iu : &io)[0] += run.warp_insns;
      cc_arg a2[] = {ARG_IO(mask, 32), ARG_IO(upd, 32), ARG_IO(visited, 32), ARG_IO(&over, 1),
                     ARG_VAL(&n)};
      if (cc_launch(p, "BFS_2", &nd, a2, 5, &run)) break;
      (v ? &iu : &io)[0] += run.warp_insns;
    } while (over && ++iterations < 32);
    CHECK(st, !over);
  }
  check_words(st, "bfs cost", cost[1], cost[0], 32);
  report("BFS (bfs_2w16t graph, all levels)", io, iu);
  CHECK(st, iu <= io);
  vt_testvec_free(tv);
  cc_prog_free(&off);
  cc_prog_free(&ours);
}
#endif

#ifdef VT_HAVE_CC
RUN_TESTS(T_CASES(vecadd_matadd), T_CASES(gaussian_bit_exact), T_CASES(nn_bit_exact),
          T_CASES(bfs_bit_exact))
#else
int main(void) {
  printf("SKIP: vt was built without the compiler (LLVM 14 not found)\n");
  return VT_TEST_SKIPPED;
}
#endif
