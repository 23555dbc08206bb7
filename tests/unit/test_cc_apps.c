/* vt cc on application kernels (tests/cc): tiled matrix multiply with
 * __local tiles and barriers, reductions, Rodinia BFS (data-dependent
 * divergence), histograms with atomics, gaussian elimination, k-means and
 * nearest neighbour, each against a C computation of the same result, over
 * several NDRange shapes and warp widths. */
#include "cc_test_util.h"

#ifdef VT_HAVE_CC
TEST(matmul_tiles) {
  static const int tiles[] = {4, 8};
  for (int t = 0; t < 2; t++) {
    char def[32];
    snprintf(def, sizeof def, "-DTS=%d", tiles[t]);
    const char *opts[] = {def, NULL};
    cc_prog p;
    if (cc_build(&p, "matmul.cl", opts)) {
      st->failed_checks++;
      return;
    }
    int ts = tiles[t], n = 16;
    float *a = malloc(4u * n * n), *b = malloc(4u * n * n), *c = malloc(4u * n * n),
          *want = malloc(4u * n * n);
    uint32_t seed = 3;
    for (int i = 0; i < n * n; i++) {
      a[i] = (float)((int)(cc_rand(&seed) % 201) - 100) / 16.0f;
      b[i] = (float)((int)(cc_rand(&seed) % 201) - 100) / 8.0f;
    }
    for (int r = 0; r < n; r++)
      for (int col = 0; col < n; col++) {
        float acc = 0;
        for (int k = 0; k < n; k++) acc = fmaf(a[r * n + k], b[k * n + col], acc);
        want[r * n + col] = acc;
      }
    unsigned widths[] = {4, 16, 8};
    for (int w = 0; w < 3; w++) {
      cc_arg args[] = {ARG_IN(a, 4u * n * n), ARG_IN(b, 4u * n * n), ARG_OUT(c, 4u * n * n),
                       ARG_VAL(&n)};
      vt_rt_ndrange nd = nd2((uint32_t)n, (uint32_t)n, (uint32_t)ts, (uint32_t)ts);
      cc_run run = {.threads = widths[w]};
      CHECK(st, cc_launch(&p, "matmul", &nd, args, 4, &run) == 0);
      check_words(st, "matmul", c, want, (size_t)n * n);
    }
    free(a);
    free(b);
    free(c);
    free(want);
    cc_prog_free(&p);
  }
}

TEST(reductions) {
  cc_prog p;
  if (cc_build(&p, "reduce.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { N = 256 };
  float in[N], out[8], want[8];
  int iin[N], iout[1];
  for (int i = 0; i < N; i++) {
    in[i] = (float)(i % 13) - 4.0f; /* small integers: every order gives the same sum */
    iin[i] = i * 3 - 100;
  }
  static const uint32_t locals[] = {32, 64, 128};
  static const unsigned widths[] = {8, 32, 4};
  for (int s = 0; s < 3; s++) {
    uint32_t L = locals[s], groups = N / L;
    for (uint32_t g = 0; g < groups; g++) {
      want[g] = 0;
      for (uint32_t i = 0; i < L; i++) want[g] += in[g * L + i];
    }
    cc_arg args[] = {ARG_IN(in, sizeof in), ARG_OUT(out, 4 * groups), ARG_LOCAL(4 * L)};
    vt_rt_ndrange nd = nd1(N, L);
    cc_run run = {.threads = widths[s]};
    CHECK(st, cc_launch(&p, "reduce", &nd, args, 3, &run) == 0);
    check_words(st, "reduce", out, want, groups);
    /* grid-stride loop + atomics: fewer items than elements */
    int n = N, total = 0;
    for (int i = 0; i < N; i++) total += iin[i];
    iout[0] = 0;
    cc_arg args2[] = {ARG_IN(iin, sizeof iin), ARG_IO(iout, 4), ARG_LOCAL(4 * L / 2), ARG_VAL(&n)};
    vt_rt_ndrange nd2_ = nd1(L, L / 2);
    CHECK(st, cc_launch(&p, "reduce_int", &nd2_, args2, 4, &run) == 0);
    CHECK_EQ_U32(st, iout[0], total);
  }
  cc_prog_free(&p);
}

/* --- BFS over a random graph, the host loop of Rodinia's bfs --- */
typedef struct node {
  int starting, no_of_edges;
} node;

static void bfs_graph(int n, node *nodes, int *edges, int *nedges) {
  uint32_t seed = 12345;
  int e = 0;
  for (int i = 0; i < n; i++) {
    int deg = 1 + (int)(cc_rand(&seed) % 4);
    nodes[i].starting = e;
    nodes[i].no_of_edges = deg;
    for (int k = 0; k < deg; k++) edges[e++] = (int)(cc_rand(&seed) % (uint32_t)n);
  }
  *nedges = e;
}

static void bfs_ref(int n, const node *nodes, const int *edges, int *cost) {
  int *queue = malloc(sizeof(int) * (size_t)n), qh = 0, qt = 0;
  for (int i = 0; i < n; i++) cost[i] = -1;
  cost[0] = 0;
  queue[qt++] = 0;
  while (qh < qt) {
    int v = queue[qh++];
    for (int k = 0; k < nodes[v].no_of_edges; k++) {
      int w = edges[nodes[v].starting + k];
      if (cost[w] < 0) {
        cost[w] = cost[v] + 1;
        queue[qt++] = w;
      }
    }
  }
  free(queue);
}

static void run_bfs(check_state *st, const char *const *opts) {
  cc_prog p;
  if (cc_build(&p, "bfs.cl", opts)) {
    st->failed_checks++;
    return;
  }
  enum { N = 100 };
  node nodes[N];
  int edges[4 * N], ne, want[N];
  bfs_graph(N, nodes, edges, &ne);
  bfs_ref(N, nodes, edges, want);
  static const unsigned widths[] = {16, 4, 32};
  for (int w = 0; w < 3; w++) {
    char mask[N] = {1}, upd[N] = {0}, visited[N] = {1}, over;
    int cost[N], n = N;
    for (int i = 0; i < N; i++) cost[i] = i ? -1 : 0;
    int iterations = 0;
    do {
      over = 0;
      vt_rt_ndrange nd = nd1(128, 32); /* more items than nodes: the bounds test */
      cc_run run = {.threads = widths[w]};
      cc_arg a1[] = {ARG_IN(nodes, sizeof nodes), ARG_IN(edges, 4u * (unsigned)ne),
                     ARG_IO(mask, N),            ARG_IO(upd, N),
                     ARG_IO(visited, N),         ARG_IO(cost, sizeof cost),
                     ARG_VAL(&n)};
      if (cc_launch(&p, "BFS_1", &nd, a1, 7, &run)) break;
      cc_arg a2[] = {ARG_IO(mask, N), ARG_IO(upd, N), ARG_IO(visited, N), ARG_IO(&over, 1),
                     ARG_VAL(&n)};
      if (cc_launch(&p, "BFS_2", &nd, a2, 5, &run)) break;
    } while (over && ++iterations < N);
    CHECK(st, !over);
    check_words(st, "bfs cost", cost, want, N);
  }
  cc_prog_free(&p);
}

static void run_histograms(check_state *st, const char *const *opts) {
  cc_prog p;
  if (cc_build(&p, "histogram.cl", opts)) {
    st->failed_checks++;
    return;
  }
  enum { N = 512 };
  uint32_t in[N], bins[16], want[16];
  uint32_t seed = 77, nb = 11;
  for (int i = 0; i < N; i++) in[i] = cc_rand(&seed) % 1000;
  static const unsigned widths[] = {32, 8};
  for (int w = 0; w < 2; w++) {
    memset(want, 0, sizeof want);
    for (int i = 0; i < N; i++) want[in[i] % nb]++;
    cc_arg a[] = {ARG_IN(in, sizeof in), ARG_OUT(bins, 4 * nb), ARG_VAL(&nb)};
    vt_rt_ndrange nd = nd1(N, 64);
    cc_run run = {.threads = widths[w]};
    CHECK(st, cc_launch(&p, "hist_global", &nd, a, 3, &run) == 0);
    check_words(st, "hist_global", bins, want, nb);
    memset(want, 0, sizeof want);
    for (int i = 0; i < N; i++) want[in[i] & 15]++;
    cc_arg b[] = {ARG_IN(in, sizeof in), ARG_OUT(bins, sizeof bins)};
    nd = nd1(N, 128);
    CHECK(st, cc_launch(&p, "hist_local", &nd, b, 2, &run) == 0);
    check_words(st, "hist_local", bins, want, 16);
  }
  /* every atomic function */
  enum { M = 48 };
  int cell[12] = {0, 1000, -1, 120, -5, 0, -1, 0x55, 0, 0, 0, 0}, got[4 * M];
  cc_arg c[] = {ARG_IO(cell, sizeof cell), ARG_OUT(got, sizeof got)};
  vt_rt_ndrange nd = nd1(M, 16);
  cc_run run = {.threads = 8};
  CHECK(st, cc_launch(&p, "atomics", &nd, c, 2, &run) == 0);
  int sum = 0, x = 0x55;
  for (int g = 0; g < M; g++) {
    sum += g;
    x ^= g;
  }
  CHECK_EQ_U32(st, cell[0], sum);
  CHECK_EQ_U32(st, cell[1], 1000 - 2 * sum);
  CHECK_EQ_U32(st, cell[3], 100 - (M - 1));
  CHECK_EQ_U32(st, cell[4], 3 * (M - 1));
  CHECK_EQ_U32(st, cell[5], 0xffffffffu); /* bits 0..31 all set (48 items) */
  CHECK_EQ_U32(st, cell[6], 0);
  CHECK_EQ_U32(st, cell[7], x);
  CHECK_EQ_U32(st, cell[8], sum + M);
  CHECK_EQ_U32(st, cell[9], M);
  CHECK_EQ_U32(st, cell[10], -M);
  CHECK_EQ_U32(st, cell[11], 0x80000000u + M - 1);
  /* the old values of atomic_add, sorted, step by the values added (a
   * permutation of 0..M-1); atomic_xchg's old values and the final value
   * are the initial one and every g; atomic_min's stay within bounds */
  int adds[M + 1], xchg[M + 1], seen[M + 1], ok = 1;
  for (int g = 0; g < M; g++) {
    adds[g] = got[4 * g];
    xchg[g] = got[4 * g + 2];
    ok &= got[4 * g + 3] >= 100 - (M - 1) && got[4 * g + 3] <= 120;
  }
  adds[M] = cell[0];
  xchg[M] = cell[2];
  for (int i = 0; i <= M; i++) /* insertion sort */
    for (int j = i; j > 0 && adds[j] < adds[j - 1]; j--) {
      int t = adds[j];
      adds[j] = adds[j - 1];
      adds[j - 1] = t;
    }
  memset(seen, 0, sizeof seen);
  CHECK_EQ_U32(st, adds[0], 0);
  for (int i = 1; i <= M; i++) {
    int d = adds[i] - adds[i - 1];
    if (d >= 0 && d < M && !seen[d]) seen[d] = 1;
    else ok = 0;
  }
  memset(seen, 0, sizeof seen);
  int init_seen = 0;
  for (int i = 0; i <= M; i++) {
    if (xchg[i] == -1 && !init_seen) init_seen = 1;
    else if (xchg[i] >= 0 && xchg[i] < M && !seen[xchg[i]]) seen[xchg[i]] = 1;
    else ok = 0;
  }
  CHECK(st, ok && init_seen);
  cc_prog_free(&p);
}

/* Rodinia gaussian on the host: the kernels' fused multiply-adds */
static void gaussian_ref(int n, float *a, float *b, float *m) {
  for (int t = 0; t < n - 1; t++) {
    for (int g = 0; g < n - 1 - t; g++) m[n * (g + t + 1) + t] = a[n * (g + t + 1) + t] / a[n * t + t];
    for (int x = 0; x < n - 1 - t; x++)
      for (int y = 0; y < n - t; y++) {
        a[n * (x + 1 + t) + y + t] = fmaf(-m[n * (x + 1 + t) + t], a[n * t + y + t], a[n * (x + 1 + t) + y + t]);
        if (y == 0) b[x + 1 + t] = fmaf(-m[n * (x + 1 + t) + y + t], b[t], b[x + 1 + t]);
      }
  }
}

static void run_gaussian(check_state *st, const char *const *opts) {
  cc_prog p;
  if (cc_build(&p, "gaussian.cl", opts)) {
    st->failed_checks++;
    return;
  }
  enum { N = 12 };
  float a[N * N], b[N], m[N * N], ra[N * N], rb[N], rm[N * N];
  uint32_t seed = 4242;
  for (int i = 0; i < N * N; i++) a[i] = (float)((int)(cc_rand(&seed) % 200) - 100) / 10.0f;
  for (int i = 0; i < N; i++) {
    a[i * N + i] += 40.0f; /* diagonally dominant */
    b[i] = (float)i - 3.0f;
  }
  memset(m, 0, sizeof m);
  memcpy(ra, a, sizeof a);
  memcpy(rb, b, sizeof b);
  memcpy(rm, m, sizeof m);
  gaussian_ref(N, ra, rb, rm);
  int n = N;
  cc_run run = {.threads = 4};
  for (int t = 0; t < N - 1; t++) {
    cc_arg args[] = {ARG_IO(m, sizeof m), ARG_IO(a, sizeof a), ARG_IO(b, sizeof b), ARG_VAL(&n),
                     ARG_VAL(&t)};
    vt_rt_ndrange n1 = nd1(16, 4), n2 = nd2(16, 16, 4, 4);
    CHECK(st, cc_launch(&p, "Fan1", &n1, args, 5, &run) == 0);
    CHECK(st, cc_launch(&p, "Fan2", &n2, args, 5, &run) == 0);
  }
  check_words(st, "gaussian a", a, ra, N * N);
  check_words(st, "gaussian b", b, rb, N);
  check_words(st, "gaussian m", m, rm, N * N);
  cc_prog_free(&p);
}

TEST(bfs) { run_bfs(st, NULL); }
TEST(histograms) { run_histograms(st, NULL); }
TEST(gaussian) { run_gaussian(st, NULL); }

/* -O0 keeps locals in private memory and spills more; -O3 unrolls */
TEST(opt_levels) {
  static const char *const levels[][2] = {{"-O0", NULL}, {"-O3", NULL}};
  for (int l = 0; l < 2; l++) {
    run_bfs(st, levels[l]);
    run_histograms(st, levels[l]);
    run_gaussian(st, levels[l]);
  }
}

TEST(kmeans_and_nn) {
  cc_prog p;
  if (cc_build(&p, "kmeans.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { P = 200, K = 5, F = 3 };
  float feat[F * P], cl[K * F];
  int mem[P], want[P];
  uint32_t seed = 9;
  for (int i = 0; i < F * P; i++) feat[i] = (float)(cc_rand(&seed) % 1000) / 10.0f;
  for (int i = 0; i < K * F; i++) cl[i] = (float)(cc_rand(&seed) % 1000) / 10.0f;
  for (int pt = 0; pt < P; pt++) {
    int index = 0;
    float min = 3.4e38f;
    for (int i = 0; i < K; i++) {
      float dist = 0;
      for (int l = 0; l < F; l++) {
        float d = feat[l * P + pt] - cl[i * F + l];
        dist = fmaf(d, d, dist);
      }
      if (dist < min) {
        min = dist;
        index = i;
      }
    }
    want[pt] = index;
  }
  int np = P, nk = K, nf = F;
  cc_arg args[] = {ARG_IN(feat, sizeof feat), ARG_IN(cl, sizeof cl), ARG_OUT(mem, sizeof mem),
                   ARG_VAL(&np), ARG_VAL(&nk), ARG_VAL(&nf)};
  vt_rt_ndrange nd = nd1(256, 64);
  cc_run run = {.threads = 16};
  CHECK(st, cc_launch(&p, "kmeans_assign", &nd, args, 6, &run) == 0);
  check_words(st, "kmeans", mem, want, P);
  cc_prog_free(&p);

  if (cc_build(&p, "nn.cl", NULL)) {
    st->failed_checks++;
    return;
  }
  enum { R = 70 };
  float loc[2 * R], dist[R], dwant[R], lat = 30.0f, lng = 90.0f;
  for (int i = 0; i < 2 * R; i++) loc[i] = (float)(cc_rand(&seed) % 18000) / 100.0f;
  for (int i = 0; i < R; i++) {
    float dy = lat - loc[2 * i], dx = lng - loc[2 * i + 1];
    dwant[i] = sqrtf(fmaf(dy, dy, dx * dx)); /* the kernel contracts one multiply-add */
  }
  int nr = R;
  cc_arg a2[] = {ARG_IN(loc, sizeof loc), ARG_OUT(dist, sizeof dist), ARG_VAL(&nr), ARG_VAL(&lat),
                 ARG_VAL(&lng)};
  nd = nd1(96, 32);
  run.threads = 8;
  CHECK(st, cc_launch(&p, "NearestNeighbor", &nd, a2, 5, &run) == 0);
  check_words(st, "nn", dist, dwant, R);
  cc_prog_free(&p);
}
#endif

#ifdef VT_HAVE_CC
RUN_TESTS(T(matmul_tiles), T(reductions), T(bfs), T(histograms), T(gaussian), T(opt_levels),
          T(kmeans_and_nn))
#else
int main(void) {
  printf("SKIP: vt was built without the compiler (LLVM 14 not found)\n");
  return VT_TEST_SKIPPED;
}
#endif
