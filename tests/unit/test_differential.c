/* Differential testing (issue 14): the simulator's fast paths against its
 * simple exact paths (setting reference). Every kernel runs twice, with
 * reference on and 1 host thread, and with the fast paths and 2 host
 * threads; diff_run.h says what must agree (status and error, memory
 * bytes, counters, every warp's final registers, CSRs and SIMT stack).
 * Inputs: the assembly kernels of tests/kernels and examples/kernels that
 * run on their own (each on two launch shapes over 2 SMs, with patterned
 * buffers), the fuzz_sim seed corpus (tests/fuzz/corpus/sim, set up as
 * tests/fuzz/fuzz_sim.c does), and with --cases every official test vector
 * (launch sequences on one device). Under AddressSanitizer the kernels get
 * a smaller instruction budget. */
#include <dirent.h>

#include "check.h"
#include "diff_run.h"
#include "vt/asm.h"
#include "vt/elf.h"
#include "vt/testvec.h"

/* Under AddressSanitizer (gcc's macro, clang's feature test) the kernels'
 * instruction budget is smaller: the endless one dominates the time. */
#if defined(__SANITIZE_ADDRESS__)
#define DIFF_QUICK 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DIFF_QUICK 1
#endif
#endif
#ifndef DIFF_QUICK
#define DIFF_QUICK 0
#endif
#define KBUDGET (DIFF_QUICK ? 20000u : 200000u)

/* runs and compares one job; *count counts the jobs compared */
static void check_job(check_state *st, const diff_job *j, unsigned *count) {
  char msg[1024];
  int rc = diff_check(j, msg, sizeof msg);
  if (rc != 0 || msg[0]) fprintf(stderr, "differential: %s\n", msg);
  CHECK(st, rc == 0 && msg[0] == 0);
  (*count)++;
}

/* ---- assembly kernels ---- */

/* Arguments, one letter each: B a global buffer of patterned words (mixed
 * small integers and floats), I a buffer of small integers (0..7), L a
 * pointer into local memory, F the float 1.5, N the count 16 (elements,
 * multiple of every local size below), K 8 (matmul sizes). */
typedef struct kspec {
  const char *file; /* under the source tree */
  const char *sym;
  const char *args;
  bool square;      /* 2-D square workgroups (matmul) */
  bool printf_lib;  /* link examples/kernels/vtprintf.s too */
} kspec;

static const kspec kernels[] = {
    {"tests/kernels/vecadd.s", "vecadd", "BBB", false, false},
    {"tests/kernels/saxpy.s", "saxpy", "FBBB", false, false},
    {"tests/kernels/matmul.s", "matmul", "BBBKK", true, false},
    {"tests/kernels/reduce.s", "reduce", "BB", false, false},
    {"tests/kernels/nested.s", "nested", "BBBB", false, false},
    {"tests/kernels/loop.s", "loop", "IIBBN", false, false},
    {"tests/kernels/privmem.s", "privmem", "BIB", false, false},
    {"tests/kernels/bytes.s", "bytes", "BBBBBBBB", false, false},
    {"tests/kernels/atomics.s", "atomics", "BBB", false, false},
    {"tests/kernels/fpcorner.s", "fpcorner", "INIIBBBB", false, false},
    {"tests/kernels/runtime.s", "argcopy", "BBBB", false, true},
    {"tests/kernels/runtime.s", "ids", "BBBB", false, true},
    {"tests/kernels/runtime.s", "localptrs", "BLL", false, true},
    {"tests/kernels/runtime.s", "lrev", "BL", false, true},
    {"tests/kernels/runtime.s", "addone", "B", false, true},
    {"tests/kernels/runtime.s", "scale", "BF", false, true},
    {"tests/kernels/runtime.s", "window", "BB", false, true},
    {"tests/kernels/runtime.s", "trap", "B", false, true},
    {"tests/kernels/runtime.s", "ptable", "BN", false, true},
    {"tests/kernels/runtime.s", "plong", "BN", false, true},
    {"tests/kernels/runtime.s", "textrec", "BN", false, true},
    {"tests/kernels/session.s", "forever", "B", false, false},
    {"tests/kernels/session.s", "past_end", "B", false, false},
    {"tests/kernels/session.s", "no_join", "B", false, false},
    {"tests/kernels/session.s", "local_far", "B", false, false},
    {"tests/kernels/session.s", "local_high", "B", false, false},
    {"tests/kernels/signature.s", "sum", "BNNNL", false, false},
    {"examples/kernels/vecadd.s", "vecadd", "BBB", false, false},
    {"examples/kernels/divergent.s", "divergent", "IB", false, false},
    {"examples/kernels/first.s", "first", "BBLN", false, true},
    {"examples/kernels/hello.s", "hello", "B", false, true},
    {"examples/kernels/matmul.s", "matmul", "BBBKKLL", true, false},
    {"examples/kernels/reduce.s", "reduce", "BBL", false, false},
    {"examples/kernels/memspace.s", "memspace", "BBNL", false, false},
    {"examples/kernels/cvt16.s", "cvt16", "BBBBBB", false, false},
    {"examples/kernels/dot64.s", "dot64", "BBBN", false, false},
    {"examples/kernels/sum64.s", "sum64", "IBBN", false, false},
    {"examples/kernels/prefixed.s", "prefixed", "BBBBBBBBBNN", false, false},
    {"examples/kernels/vop64.s", "vop64", "BBBBBN", false, false},
    {"examples/kernels/mma_gemm.s", "mma_gemm_f16", "BBBKKKLL", false, false},
    {"examples/kernels/mma_gemm.s", "mma_gemm_s8", "BBBKKKLL", false, false},
};

/* threads per warp, warps per workgroup, workgroups x, y; local x, y; SMs.
 * One SM runs every fast path (the vector stores' too); several SMs run
 * epochs on overlays, with 2 host threads in the fast run (run.h). */
typedef struct kshape {
  unsigned tpw, wpg, nwg[2], local[2], sms;
} kshape;
static const kshape flat_shapes[] = {
    {8, 2, {5, 1}, {16, 1}, 1}, {32, 4, {3, 1}, {128, 1}, 2}, {16, 1, {7, 1}, {16, 1}, 4}};
static const kshape square_shapes[] = {{8, 2, {2, 2}, {4, 4}, 1}, {4, 4, {2, 3}, {4, 4}, 2}};
#define NFLAT (sizeof flat_shapes / sizeof flat_shapes[0])
#define NSQUARE (sizeof square_shapes / sizeof square_shapes[0])

#define KBUF 16384u
#define KPAGE 4096u
#define KARGS (VT_BUFFER_BASE + 16 * KBUF)
#define KKNL (KARGS + KPAGE)
#define KPRINT (KKNL + KPAGE)
#define KPRINT_SIZE 65536u
#define KPDS (KPRINT + KPRINT_SIZE)
#define KPDS_PER_ITEM 256u

typedef struct kjob {
  const kspec *k;
  const kshape *s;
  vt_elf *elf;
  uint32_t entry;
} kjob;

static uint32_t pattern(unsigned buf, unsigned i, bool small) {
  uint32_t h = (buf * 0x9e3779b9u) ^ (i * 0x85ebca6bu);
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  if (small || !(i & 1)) return h % 8;
  float f = (float)((int)(h % 2001) - 1000) / 16.0f;
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

static int map_fill(vt_device *dev, uint32_t addr, uint32_t size, unsigned buf, bool small,
                    vt_error *err) {
  int rc = vt_mem_map(dev, addr, size, err);
  uint32_t word;
  for (uint32_t i = 0; rc == VT_OK && i < size / 4; i++) {
    word = buf == ~0u ? 0 : pattern(buf, i, small);
    rc = vt_mem_write(dev, addr + 4 * i, &word, 4, err);
  }
  return rc;
}

static int kernel_setup(void *arg, vt_device *dev, unsigned k, vt_launch *l, diff_run *r,
                        vt_error *err) {
  (void)k;
  const kjob *j = arg;
  const kshape *s = j->s;
  unsigned items = s->tpw * s->wpg * s->nwg[0] * s->nwg[1];
  uint32_t args[16] = {0}, nargs = 0, nbuf = 0, nlocal = 0;
  int rc = vt_device_load_elf(dev, j->elf, err);
  for (const char *a = j->k->args; rc == VT_OK && *a; a++) {
    uint32_t v = 0;
    if (*a == 'B' || *a == 'I') {
      v = VT_BUFFER_BASE + nbuf * KBUF;
      rc = map_fill(dev, v, KBUF, nbuf, *a == 'I', err);
      diff_add_region(r, v, KBUF);
      nbuf++;
    } else if (*a == 'L') {
      v = VT_LDS_BASE + 1024 * s->wpg + 0x1000 * nlocal++;
    } else if (*a == 'F') {
      v = 0x3fc00000u;
    } else {
      v = *a == 'N' ? 16 : 8;
    }
    args[nargs++] = v;
  }
  uint32_t meta[16] = {j->entry, KARGS, s->nwg[1] > 1 ? 2 : 1, s->nwg[0] * s->local[0],
                       s->nwg[1] * s->local[1], 1, s->local[0], s->local[1], 1, 0, 0, 0,
                       KPRINT, KPRINT_SIZE, 0, 0};
  if (rc == VT_OK) rc = vt_mem_map(dev, KARGS, KPAGE, err);
  if (rc == VT_OK) rc = vt_mem_write(dev, KARGS, args, 4 * nargs + 4, err);
  if (rc == VT_OK) rc = vt_mem_map(dev, KKNL, KPAGE, err);
  if (rc == VT_OK) rc = vt_mem_write(dev, KKNL, meta, sizeof meta, err);
  if (rc == VT_OK) rc = map_fill(dev, KPRINT, KPRINT_SIZE, ~0u, false, err);
  if (rc == VT_OK) rc = map_fill(dev, KPDS, items * KPDS_PER_ITEM, ~0u, false, err);
  diff_add_region(r, KARGS, KPAGE);
  diff_add_region(r, KPRINT, KPRINT_SIZE);
  diff_add_region(r, KPDS, items * KPDS_PER_ITEM);
  *l = (vt_launch){.start_pc = VT_PROGRAM_BASE,
                   .num_wg = {s->nwg[0], s->nwg[1], 1},
                   .threads_per_warp = s->tpw,
                   .warps_per_wg = s->wpg,
                   .knl_addr = KKNL,
                   .lds_size = 0x4000,
                   .pds_size = KPDS_PER_ITEM,
                   .pds_base = KPDS};
  return rc;
}

/* crt0 + (vtprintf) + the kernel's file, linked; NULL with msg on failure */
static vt_elf *kernel_build(const kspec *k, uint8_t **image, uint32_t *entry, char *msg,
                            size_t n) {
  vt_asm *as = vt_asm_new(NULL);
  if (!as) return NULL;
  char path[1024];
  snprintf(path, sizeof path, "%s/examples/kernels/crt0.s", VT_SOURCE_DIR);
  int rc = vt_asm_add_file(as, path);
  if (k->printf_lib && strcmp(k->sym, "hello") != 0) {
    snprintf(path, sizeof path, "%s/examples/kernels/hello.s", VT_SOURCE_DIR);
    rc |= vt_asm_add_file(as, path);
  }
  if (k->printf_lib) {
    snprintf(path, sizeof path, "%s/examples/kernels/vtprintf.s", VT_SOURCE_DIR);
    rc |= vt_asm_add_file(as, path);
  }
  snprintf(path, sizeof path, "%s/%s", VT_SOURCE_DIR, k->file);
  rc |= vt_asm_add_file(as, path);
  size_t size = 0;
  if (rc == 0) rc = vt_asm_link(as, image, &size);
  if (rc != 0) {
    snprintf(msg, n, "%s: assembly failed: %s", k->file, vt_asm_errors(as));
    vt_asm_free(as);
    return NULL;
  }
  vt_asm_free(as);
  vt_elf *elf = NULL;
  if (vt_elf_open_mem(*image, size, &elf, msg, n) != 0) return NULL;
  if (vt_elf_find_symbol(elf, k->sym, entry) != 0) {
    snprintf(msg, n, "%s: no symbol %s", k->file, k->sym);
    vt_elf_free(elf);
    return NULL;
  }
  return elf;
}

TEST(assembly_kernels) {
  unsigned count = 0;
  size_t nk = sizeof kernels / sizeof kernels[0];
  for (size_t i = 0; i < nk; i++) {
    const kspec *k = &kernels[i];
    char msg[2048];
    uint8_t *image = NULL;
    uint32_t entry = 0;
    vt_elf *elf = kernel_build(k, &image, &entry, msg, sizeof msg);
    if (!elf) fprintf(stderr, "%s\n", msg);
    CHECK(st, elf != NULL);
    unsigned nshapes = k->square ? NSQUARE : NFLAT;
    for (unsigned s = 0; elf && s < nshapes; s++) {
      kjob kj = {k, k->square ? &square_shapes[s] : &flat_shapes[s], elf, entry};
      char name[256];
      snprintf(name, sizeof name, "%s:%s shape %u", k->file, k->sym, s);
      diff_job j = {name, 1, kernel_setup, &kj, kj.s->sms, KBUDGET};
      check_job(st, &j, &count);
    }
    vt_elf_free(elf);
    free(image);
  }
  printf("assembly kernels: %u launches compared\n", count);
  CHECK(st, count >= 110u);
}

/* ---- the fuzz_sim seed corpus, set up as tests/fuzz/fuzz_sim.c does ---- */

#define FBUF 0x90000000u
static const uint32_t fuzz_prologue[] = {
    0x02000e93, 0x0d0efed7, 0x00002eb7, 0x300eaef3, 0x90000537,
    0x000505b3, 0x5208a0d7, 0x96113157, 0x02254157,
};

typedef struct fjob {
  const uint8_t *data;
  size_t size;
} fjob;

static int fuzz_setup(void *arg, vt_device *dev, unsigned k, vt_launch *l, diff_run *r,
                      vt_error *err) {
  (void)k;
  const fjob *f = arg;
  size_t nwords = (f->size - 4) / 4;
  if (nwords > 4096) nwords = 4096;
  int rc = vt_mem_write(dev, VT_PROGRAM_BASE, fuzz_prologue, sizeof fuzz_prologue, err);
  if (rc == VT_OK && nwords)
    rc = vt_mem_write(dev, VT_PROGRAM_BASE + sizeof fuzz_prologue, f->data + 4, 4 * nwords, err);
  if (rc == VT_OK) rc = vt_mem_map(dev, FBUF, 0x10000, err);
  diff_add_region(r, FBUF, 0x10000);
  diff_add_region(r, VT_PROGRAM_BASE, (uint32_t)(sizeof fuzz_prologue + 4 * nwords));
  const uint8_t *d = f->data;
  *l = (vt_launch){.start_pc = VT_PROGRAM_BASE,
                   .num_wg = {1 + d[2] % 3, 1, 1},
                   .threads_per_warp = 1u << (d[0] % 6),
                   .warps_per_wg = 1 + d[1] % 4,
                   .knl_addr = FBUF,
                   .lds_size = 0x1000,
                   .pds_size = 16,
                   .pds_base = FBUF + 0x8000};
  return rc;
}

TEST(fuzz_corpus) {
  const char *dir = VT_SOURCE_DIR "/tests/fuzz/corpus/sim";
  DIR *d = opendir(dir);
  CHECK(st, d != NULL);
  if (!d) return;
  unsigned n = 0, count = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (e->d_name[0] == '.') continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    size_t size = 0;
    char *data = test_slurp(path, &size);
    CHECK(st, data != NULL);
    if (!data) continue;
    /* the input's own shape bytes, then other shapes (threads per warp,
     * warps, workgroups, SMs as fuzz_sim.c reads them) */
    static const uint8_t shapes[][4] = {{0, 0, 0, 0}, {5, 3, 2, 1}, {3, 1, 1, 0}, {2, 2, 2, 1}};
    for (unsigned v = 0; size >= 4 && v < sizeof shapes / sizeof shapes[0]; v++) {
      if (v) memcpy(data, shapes[v], 4);
      fjob f = {(const uint8_t *)data, size};
      char name[512];
      snprintf(name, sizeof name, "%s shape %u", e->d_name, v);
      /* the functional half of fuzz_sim: its SMs and budget */
      diff_job j = {name, 1, fuzz_setup, &f, 1 + f.data[3] % 2, 5000};
      check_job(st, &j, &count);
      n += v == 0;
    }
    free(data);
  }
  closedir(d);
  printf("fuzz corpus: %u inputs, %u runs compared\n", n, count);
  CHECK(st, n >= 10);
}

/* The warp-end callback itself, against hand-computed values: the fuzz
 * prologue (a0 = 0x90000000, v1 = lane ids), addi a5, zero, 0x123, endprg
 * on 2 workgroups of 3 warps of 4 threads, 2 SMs, 2 host threads: each
 * warp is reported once, ended, with those registers. */
static const uint32_t end_words[] = {0x12300793u /* addi a5, zero, 0x123 */,
                                     0x0000400bu /* endprg */};
static int end_setup(void *arg, vt_device *dev, unsigned k, vt_launch *l, diff_run *r,
                     vt_error *err) {
  (void)arg, (void)k, (void)r;
  int rc = vt_mem_write(dev, VT_PROGRAM_BASE, fuzz_prologue, sizeof fuzz_prologue, err);
  if (rc == VT_OK)
    rc = vt_mem_write(dev, VT_PROGRAM_BASE + sizeof fuzz_prologue, end_words, sizeof end_words,
                      err);
  if (rc == VT_OK) rc = vt_mem_map(dev, FBUF, 0x10000, err);
  *l = (vt_launch){.start_pc = VT_PROGRAM_BASE, .num_wg = {2, 1, 1}, .threads_per_warp = 4,
                   .warps_per_wg = 3, .knl_addr = FBUF, .lds_size = 0x1000};
  return rc;
}

TEST(warp_end_callback) {
  diff_job j = {"warp_end", 1, end_setup, NULL, 2, 0};
  diff_run *r = calloc(1, sizeof *r);
  char msg[256];
  CHECK(st, r != NULL);
  if (!r) return;
  CHECK(st, diff_run_job(&j, DIFF_FAST, r, msg, sizeof msg) == 0);
  CHECK_EQ_U32(st, r->nl, 1);
  CHECK_EQ_U32(st, r->l[0].rc, VT_OK);
  CHECK_EQ_U32(st, r->nw, 6);
  unsigned seen = 0;
  for (size_t i = 0; i < r->nw; i++) {
    const diff_warp *w = r->w[i];
    seen |= 1u << (w->info.wg * 3 + w->info.warp);
    CHECK_EQ_U32(st, w->info.state, VT_WARP_ENDED);
    CHECK_EQ_U32(st, w->x[15], 0x123);
    CHECK_EQ_U32(st, w->x[10], 0x90000000u);
    for (unsigned lane = 0; lane < 4; lane++) CHECK_EQ_U32(st, w->v[1][lane], lane);
  }
  CHECK_EQ_U32(st, seen, 0x3f);
  diff_run_free(r);
  free(r);
}

/* ---- the official test vectors (launch sequences on one device) ---- */

typedef struct tjob {
  char paths[DIFF_MAX_LAUNCHES][1024];
  unsigned n;
} tjob;

static int tv_setup(void *arg, vt_device *dev, unsigned k, vt_launch *l, diff_run *r,
                    vt_error *err) {
  const tjob *t = arg;
  vt_testvec *tv = NULL;
  int rc = vt_testvec_load(t->paths[k], NULL, &tv, err);
  if (rc == VT_OK) rc = vt_testvec_apply(dev, tv, l, err);
  for (unsigned i = 0; rc == VT_OK && i < tv->nbuf; i++)
    diff_add_region(r, tv->bufs[i].base, tv->bufs[i].size);
  vt_testvec_free(tv);
  return rc;
}

/* launch order of a folder: launches.txt, else by the trailing _N of the
 * name then by name (gaussian: Fan1_0 Fan2_0 Fan1_1 ...) */
static int tv_key(const char *a) {
  const char *u = strrchr(a, '_');
  return u ? atoi(u + 1) : 0;
}
static int tv_order(const void *pa, const void *pb) {
  const char *a = pa, *b = pb;
  if (tv_key(a) != tv_key(b)) return tv_key(a) - tv_key(b);
  return strcmp(a, b);
}

static void tv_folder(check_state *st, const char *dir, const char *name, unsigned *count,
                      unsigned *launches) {
  tjob *t = calloc(1, sizeof *t);
  CHECK(st, t != NULL);
  if (!t) return;
  char path[1024];
  snprintf(path, sizeof path, "%s/launches.txt", dir);
  char *list = test_slurp(path, NULL);
  if (list) {
    for (char *s = strtok(list, "\n"); s && t->n < DIFF_MAX_LAUNCHES; s = strtok(NULL, "\n"))
      if (*s) snprintf(t->paths[t->n++], sizeof t->paths[0], "%s/%s", dir, s);
    free(list);
  } else {
    DIR *d = opendir(dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL && t->n < DIFF_MAX_LAUNCHES;) {
      size_t len = strlen(e->d_name);
      if (len > 9 && !strcmp(e->d_name + len - 9, ".metadata"))
        snprintf(t->paths[t->n++], sizeof t->paths[0], "%s", e->d_name);
    }
    if (d) closedir(d);
    qsort(t->paths, t->n, sizeof t->paths[0], tv_order);
    for (unsigned i = 0; i < t->n; i++) {
      char full[2048];
      int m = snprintf(full, sizeof full, "%s/%s", dir, t->paths[i]);
      if (m > 0 && (size_t)m < sizeof t->paths[0]) memcpy(t->paths[i], full, (size_t)m + 1);
    }
  }
  if (t->n) {
    diff_job j = {name, t->n, tv_setup, t, 0, 0};
    check_job(st, &j, count);
    *launches += t->n;
  }
  free(t);
}

/* every folder under dir holding test vectors */
static void tv_tree(check_state *st, const char *dir, unsigned *count, unsigned *launches) {
  tv_folder(st, dir, dir, count, launches);
  DIR *d = opendir(dir);
  if (!d) return;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    char sub[1024];
    struct stat sb;
    if (e->d_name[0] == '.') continue;
    snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
    if (stat(sub, &sb) == 0 && S_ISDIR(sb.st_mode)) tv_tree(st, sub, count, launches);
  }
  closedir(d);
}

TEST(official_cases) {
  unsigned count = 0, launches = 0;
  tv_tree(st, VT_SHARED_DIR "/cases", &count, &launches);
  printf("official cases: %u sequences (%u launches) compared\n", count, launches);
  CHECK(st, count >= 4);
}

RUN_TESTS(T(warp_end_callback), T(assembly_kernels), T(fuzz_corpus), T_CASES(official_cases))
