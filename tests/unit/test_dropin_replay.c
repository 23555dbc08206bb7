/* The drop-in libspike_driver.so (docs/driver.md "Drop-in for the official
 * library"), loaded with dlopen as the pocl Ventus device loads the
 * official library, replaying pocl's calls for an NDRange
 * (host-stack.md 2.5 and 2.7): buffers allocated at first use and filled,
 * then per launch the argument buffer, __local arguments zero-filled
 * through the local-memory window, the kernel file, the private area
 * (4 KiB per work-item, at most 256 MiB), the 64-byte metadata buffer, the
 * 96-byte descriptor, vt_start, vt_ready_wait(1000), frees; results read
 * back and checked against values computed here.
 *
 * The library is the build tree's, or the one VT_DROPIN_LIB names (the
 * install test passes the installed one). Kernels: examples/kernels
 * (vecadd, reduce) and small ones below, assembled with libvt and written
 * to files as pocl writes objectN.riscv; the kernel's entry comes from nm,
 * as in pocl (step D). */
#include <dlfcn.h>
#include <fcntl.h>
#include <time.h>

#include "check.h"
#include "driver/dropin/spike_driver.h"
#include "vt/asm.h"

#ifndef VT_DROPIN_LIB
#define VT_DROPIN_LIB "libspike_driver.so"
#endif

/* ---- the library ---- */
typedef struct api {
  void *lib;
  __typeof__(vt_dev_open) *dev_open;
  __typeof__(vt_dev_close) *dev_close;
  __typeof__(vt_dev_caps) *dev_caps;
  __typeof__(vt_root_mem_alloc) *root_mem_alloc;
  __typeof__(vt_root_mem_free) *root_mem_free;
  __typeof__(vt_buf_alloc) *buf_alloc;
  __typeof__(vt_buf_free) *buf_free;
  __typeof__(vt_one_buf_free) *one_buf_free;
  __typeof__(vt_copy_to_dev) *copy_to_dev;
  __typeof__(vt_copy_from_dev) *copy_from_dev;
  __typeof__(vt_upload_kernel_file) *upload_kernel_file;
  __typeof__(vt_start) *start;
  __typeof__(vt_ready_wait) *ready_wait;
  __typeof__(vt_finish_all_kernel) *finish_all_kernel;
} api;

static const char *lib_path(void) {
  const char *p = getenv("VT_DROPIN_LIB");
  return p && *p ? p : VT_DROPIN_LIB;
}

#define SYM(a, field, name) \
  ok &= ((a)->field = (__typeof__((a)->field))dlsym((a)->lib, name)) != NULL
static bool load(check_state *st, api *a) {
  memset(a, 0, sizeof *a);
  a->lib = dlopen(lib_path(), RTLD_NOW | RTLD_LOCAL);
  if (!a->lib) fprintf(stderr, "dlopen %s: %s\n", lib_path(), dlerror());
  CHECK(st, a->lib != NULL);
  if (!a->lib) return false;
  bool ok = true;
  SYM(a, dev_open, "vt_dev_open");
  SYM(a, dev_close, "vt_dev_close");
  SYM(a, dev_caps, "vt_dev_caps");
  SYM(a, root_mem_alloc, "vt_root_mem_alloc");
  SYM(a, root_mem_free, "vt_root_mem_free");
  SYM(a, buf_alloc, "vt_buf_alloc");
  SYM(a, buf_free, "vt_buf_free");
  SYM(a, one_buf_free, "vt_one_buf_free");
  SYM(a, copy_to_dev, "vt_copy_to_dev");
  SYM(a, copy_from_dev, "vt_copy_from_dev");
  SYM(a, upload_kernel_file, "vt_upload_kernel_file");
  SYM(a, start, "vt_start");
  SYM(a, ready_wait, "vt_ready_wait");
  SYM(a, finish_all_kernel, "vt_finish_all_kernel");
  CHECK(st, ok);
  return ok;
}

static void unload(api *a) {
  if (a->lib) dlclose(a->lib);
  a->lib = NULL;
}

/* ---- standard error of the library ---- */
typedef struct capture {
  int saved;
  char path[64];
} capture;

static void capture_begin(capture *c) {
  fflush(stderr);
  snprintf(c->path, sizeof c->path, "stderr.txt");
  int fd = open(c->path, O_CREAT | O_TRUNC | O_WRONLY, 0600);
  c->saved = dup(2);
  dup2(fd, 2);
  close(fd);
}

/* The text written meanwhile (malloc'd). */
static char *capture_end(capture *c) {
  fflush(stderr);
  dup2(c->saved, 2);
  close(c->saved);
  FILE *f = fopen(c->path, "r");
  char *text = calloc(1, 8192);
  if (f && text) fread(text, 1, 8191, f);
  if (f) fclose(f);
  return text;
}

/* ---- kernels: assembled with crt0 into a file, as pocl's objectN.riscv ---- */
static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *t = calloc(1, 1 << 16);
  if (t) fread(t, 1, (1 << 16) - 1, f);
  fclose(f);
  return t;
}

/* crt0.s + the kernel (an examples/kernels file or text) -> path */
static bool make_kernel(check_state *st, const char *example, const char *text, const char *path) {
  char *crt0 = read_text(VT_SOURCE_DIR "/examples/kernels/crt0.s"), *src = NULL;
  if (example) {
    char p[512];
    snprintf(p, sizeof p, VT_SOURCE_DIR "/examples/kernels/%s", example);
    src = read_text(p);
  }
  const char *body = example ? src : text;
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *img = NULL;
  size_t n = 0;
  bool ok = crt0 && body && as && vt_asm_add_source(as, "crt0.s", crt0, strlen(crt0)) == 0 &&
            vt_asm_add_source(as, "k.s", body, strlen(body)) == 0 && vt_asm_link(as, &img, &n) == 0;
  if (!ok && as) fprintf(stderr, "assembling: %s\n", vt_asm_errors(as));
  FILE *f = ok ? fopen(path, "wb") : NULL;
  ok = f && fwrite(img, 1, n, f) == n;
  if (f) fclose(f);
  vt_asm_free(as);
  free(img);
  free(crt0);
  free(src);
  CHECK(st, ok);
  return ok;
}

/* pocl step D: `nm -s objectN.riscv`, the global text symbol of the kernel */
static uint32_t nm_entry(const char *path, const char *kernel) {
  char cmd[600], line[512];
  snprintf(cmd, sizeof cmd, "nm -s '%s'", path);
  FILE *p = popen(cmd, "r");
  uint32_t entry = 0;
  while (p && fgets(line, sizeof line, p)) {
    unsigned long addr;
    char type, name[256];
    if (sscanf(line, "%lx %c %255s", &addr, &type, name) == 3 && type == 'T' &&
        !strcmp(name, kernel))
      entry = (uint32_t)addr;
  }
  if (p) pclose(p);
  return entry;
}

/* ---- pocl's launch (host-stack.md 2.7) ---- */
enum { ARG_BUFFER, ARG_LOCAL };
typedef struct karg {
  int kind;
  uint64_t addr;  /* ARG_BUFFER: the cl_mem's device address */
  uint32_t bytes; /* ARG_LOCAL: the size */
} karg;

typedef struct ndrange {
  const char *file, *kernel;
  uint32_t entry;
  unsigned threads; /* NUM_THREAD */
  uint32_t global[3], local[3];
  unsigned dim;
  const karg *args;
  unsigned nargs;
} ndrange;

/* the per-launch buffers, for checks */
typedef struct launch_bufs {
  uint64_t args, pds, knl, pds_size;
} launch_bufs;

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* Steps B and C: argument values; __local ones get a placeholder growing
 * down from 0x80000000 that pocl zero-fills through the driver. */
static int pocl_args(const api *a, vt_device_h dev, const ndrange *nd, uint8_t *abuf) {
  uint64_t cursor = 0x80000000u;
  for (unsigned i = 0; i < nd->nargs; i++) {
    const karg *k = &nd->args[i];
    uint32_t value = (uint32_t)k->addr;
    if (k->kind == ARG_LOCAL) {
      cursor -= (k->bytes / 4096 + 1) * 4096;
      value = (uint32_t)cursor;
      uint8_t *zeros = calloc(1, k->bytes);
      int rc = zeros ? a->copy_to_dev(dev, cursor, zeros, k->bytes, 0, 0) : -1;
      free(zeros);
      if (rc != 0) return -1;
    }
    put32(abuf + 4 * i, value);
  }
  return 0;
}

/* One clEnqueueNDRangeKernel as pocl_ventus_run does it. 0 or -1. */
static int pocl_run(const api *a, vt_device_h dev, const ndrange *nd, launch_bufs *lb) {
  /* A: geometry */
  uint64_t items = (uint64_t)nd->local[0] * nd->local[1] * nd->local[2];
  uint64_t warps = (items + nd->threads - 1) / nd->threads, groups[3], ngroups = 1;
  for (int k = 0; k < 3; k++) ngroups *= groups[k] = nd->global[k] / nd->local[k];
  /* B, C: argument buffer */
  uint8_t abuf[64] = {0};
  uint32_t abuf_size = 4 * nd->nargs;
  if (pocl_args(a, dev, nd, abuf) || a->buf_alloc(dev, abuf_size, &lb->args, 0, 0, 0) ||
      a->copy_to_dev(dev, lb->args, abuf, abuf_size, 0, 0))
    return -1;
  /* E: the program (the spike backend reads the ELF itself) */
  if (a->upload_kernel_file(dev, nd->file, 0)) return -1;
  /* F: private memory, 4 KiB per work-item, at most 256 MiB */
  lb->pds_size = 0x1000ull * nd->threads * warps * ngroups;
  if (lb->pds_size > 0x10000000u) lb->pds_size = 0x10000000u;
  if (a->buf_alloc(dev, lb->pds_size, &lb->pds, 0, 0, 0)) return -1;
  /* G: the 64-byte metadata buffer (formats-and-launch.md 3) */
  uint8_t knl[64] = {0};
  put32(knl + 0, nd->entry);
  put32(knl + 4, (uint32_t)lb->args);
  put32(knl + 8, nd->dim);
  for (int k = 0; k < 3; k++) {
    put32(knl + 12 + 4 * k, (uint32_t)(groups[k] * nd->local[k]));
    put32(knl + 24 + 4 * k, nd->local[k]);
  }
  if (a->buf_alloc(dev, 64, &lb->knl, 0, 0, 0) || a->copy_to_dev(dev, lb->knl, knl, 64, 0, 0))
    return -1;
  /* H: the driver's descriptor (host-stack.md 1.3) */
  uint64_t meta[12] = {0, groups[0], groups[1], groups[2], nd->threads, warps, lb->knl,
                       0x1000, 0x1000, 64, 64, lb->pds};
  /* J: launch and wait; K: free the metadata, private and argument buffers */
  int rc = a->start(dev, meta, 0) || a->ready_wait(dev, 1000) ? -1 : 0;
  if (a->one_buf_free(dev, 64, &lb->knl, 0, 0) ||
      a->one_buf_free(dev, lb->pds_size, &lb->pds, 0, 0) ||
      a->one_buf_free(dev, abuf_size, &lb->args, 0, 0))
    rc = -1;
  return rc;
}

/* clCreateBuffer with CL_MEM_COPY_HOST_PTR (or without: src NULL) */
static uint64_t pocl_buffer(const api *a, vt_device_h dev, const void *src, uint64_t size) {
  uint64_t addr = 0;
  if (a->buf_alloc(dev, size, &addr, 0, 0, 0) != 0) return 0;
  if (src && a->copy_to_dev(dev, addr, src, size, 0, 0) != 0) return 0;
  return addr;
}

static long rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, rss = 0;
  if (f && fscanf(f, "%ld %ld", &pages, &rss) != 2) rss = 0;
  if (f) fclose(f);
  return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

/* ---- tests ---- */
TEST(exactly_the_official_functions) {
  api a;
  if (!load(st, &a)) return;
  /* what the official header declares but the official library does not
   * define, and libvt's own functions, stay out */
  const char *hidden[] = {"vt_upload_kernel_bytes", "vt_dump_perf", "vt_last_error",
                          "vt_dev_open_settings", "vt_dev_session", "vtd_dev_open",
                          "vt_session_new", "vt_device_new", "vt_asm_new"};
  for (size_t i = 0; i < sizeof hidden / sizeof hidden[0]; i++) {
    bool absent = dlsym(a.lib, hidden[i]) == NULL;
    if (!absent) fprintf(stderr, "%s is exported\n", hidden[i]);
    CHECK(st, absent);
  }
  unload(&a);
}

TEST(vecadd_2000_launches_reuse_their_addresses) {
  api a;
  if (!load(st, &a) || !make_kernel(st, "vecadd.s", NULL, "object0.riscv")) {
    unload(&a);
    return;
  }
  vt_device_h dev = NULL;
  CHECK(st, a.dev_open(&dev) == 0);
  enum { N = 1024, LAUNCHES = 2000 };
  static float x[N], y[N], z[N];
  for (int i = 0; i < N; i++) x[i] = (float)i * 0.5f;
  /* A, B, C at first use: 4 KiB each from 0x90000000 */
  uint64_t A = pocl_buffer(&a, dev, x, sizeof x), B = pocl_buffer(&a, dev, NULL, sizeof y),
           C = pocl_buffer(&a, dev, NULL, sizeof z);
  CHECK(st, A == 0x90000000u && B == 0x90001000u && C == 0x90002000u);
  karg args[3] = {{ARG_BUFFER, A, 0}, {ARG_BUFFER, B, 0}, {ARG_BUFFER, C, 0}};
  ndrange nd = {"object0.riscv", "vecadd", nm_entry("object0.riscv", "vecadd"), 32,
                {N, 1, 1}, {64, 1, 1}, 1, args, 3};
  CHECK(st, nd.entry > 0x80000000u); /* after _start */
  int bad_launches = 0, bad_results = 0, moved = 0;
  long rss_early = 0;
  for (int k = 0; k < LAUNCHES; k++) {
    for (int i = 0; i < N; i++) y[i] = (float)(k % 97) - (float)i;
    launch_bufs lb;
    if (a.copy_to_dev(dev, B, y, sizeof y, 0, 0) || pocl_run(&a, dev, &nd, &lb) ||
        a.copy_from_dev(dev, C, z, sizeof z, 0, 0)) {
      bad_launches++;
      break;
    }
    /* every launch gets the first launch's addresses: arguments after C,
     * 4 MiB of private memory (16 groups x 2 warps x 32 x 4 KiB), then
     * the metadata */
    moved += lb.args != 0x90003000u || lb.pds != 0x90004000u || lb.knl != 0x90404000u ||
             lb.pds_size != 0x400000u;
    for (int i = 0; i < N; i++) bad_results += z[i] != x[i] + y[i];
    if (k == 200) rss_early = rss_kib();
  }
  CHECK(st, bad_launches == 0);
  CHECK(st, bad_results == 0);
  CHECK(st, moved == 0);
  long grown = rss_kib() - rss_early;
#if defined(__SANITIZE_ADDRESS__)
  /* AddressSanitizer keeps freed memory in quarantine: RSS says nothing */
  (void)grown;
#else
  if (grown > 16384) fprintf(stderr, "resident memory grew by %ld KiB\n", grown);
  CHECK(st, grown <= 16384);
#endif
  /* cl_mem releases, then the device (pocl's uninit) */
  CHECK(st, a.one_buf_free(dev, sizeof x, &A, 0, 0) == 0);
  CHECK(st, a.one_buf_free(dev, sizeof y, &B, 0, 0) == 0);
  CHECK(st, a.one_buf_free(dev, sizeof z, &C, 0, 0) == 0);
  CHECK(st, a.dev_close(dev) == 0);
  unload(&a);
}

/* reduce.s: partial[g] = sum of in[] over group g, through a __local
 * argument of 2 L ints; L up to pocl's 1024 work-items */
static void reduce_case(check_state *st, const api *a, vt_device_h dev, unsigned threads,
                        uint32_t L, uint32_t groups) {
  uint32_t n = L * groups;
  int32_t *in = malloc(4 * (size_t)n), *part = calloc(groups, 4);
  if (!in || !part) return;
  for (uint32_t i = 0; i < n; i++) in[i] = (int32_t)((i * 7919u) % 1000u) - 500;
  uint64_t IN = pocl_buffer(a, dev, in, 4ull * n), P = pocl_buffer(a, dev, NULL, 4ull * groups);
  karg args[3] = {{ARG_BUFFER, IN, 0}, {ARG_BUFFER, P, 0}, {ARG_LOCAL, 0, 8 * L}};
  ndrange nd = {"object1.riscv", "reduce", nm_entry("object1.riscv", "reduce"), threads,
                {n, 1, 1}, {L, 1, 1}, 1, args, 3};
  launch_bufs lb;
  int rc = pocl_run(a, dev, &nd, &lb);
  if (rc) fprintf(stderr, "reduce: %u threads, L %u: launch failed\n", threads, L);
  CHECK(st, rc == 0);
  CHECK(st, a->copy_from_dev(dev, P, part, 4ull * groups, 0, 0) == 0);
  for (uint32_t g = 0; g < groups; g++) {
    int64_t sum = 0;
    for (uint32_t i = 0; i < L; i++) sum += in[g * L + i];
    if (part[g] != (int32_t)sum)
      fprintf(stderr, "reduce: %u threads, L %u, group %u: %d, expected %lld\n", threads, L, g,
              part[g], (long long)sum);
    CHECK(st, part[g] == (int32_t)sum);
  }
  a->one_buf_free(dev, 4ull * n, &IN, 0, 0);
  a->one_buf_free(dev, 4ull * groups, &P, 0, 0);
  free(in);
  free(part);
}

TEST(workgroups_up_to_1024_items_with_local_arguments) {
  api a;
  if (!load(st, &a) || !make_kernel(st, "reduce.s", NULL, "object1.riscv")) {
    unload(&a);
    return;
  }
  vt_device_h dev = NULL;
  CHECK(st, a.dev_open(&dev) == 0);
  reduce_case(st, &a, dev, 32, 64, 3);   /* 2 warps, 512 bytes of __local */
  reduce_case(st, &a, dev, 32, 256, 2);  /* 8 warps */
  reduce_case(st, &a, dev, 32, 1024, 2); /* 32 warps, 8 KiB of __local at 0x7fffd000 */
  reduce_case(st, &a, dev, 8, 256, 2);   /* NUM_THREAD=8: 32 warps */
  reduce_case(st, &a, dev, 16, 1024, 2); /* NUM_THREAD=16: 64 warps */
  CHECK(st, a.dev_close(dev) == 0);
  unload(&a);
}

/* Each work-item stores gid + j into private word j (j < 16), reads the
 * words back and writes their sum, 16 gid + 120: a workgroup sharing its
 * private area with a resident one would read the other's values. */
static const char priv_kernel[] =
    "    .text\n    .globl priv\npriv:\n"
    "    csrr t0, CSR_KNL\n    lw t1, 24(t0)\n    csrr t2, CSR_GIDX\n    mul t2, t2, t1\n"
    "    csrr t3, CSR_TID\n    add t2, t2, t3\n    vid.v v1\n    vadd.vx v1, v1, t2\n"
    "    vmv.v.x v2, tp\n    li t4, 0\n    li t5, 16\n"
    "1:  vadd.vx v3, v1, t4\n    vsw.v v3, 0(v2)\n    vadd.vi v2, v2, 4\n"
    "    addi t4, t4, 1\n    bne t4, t5, 1b\n"
    "    vmv.v.x v2, tp\n    vmv.v.i v4, 0\n    li t4, 0\n"
    "2:  vlw.v v3, 0(v2)\n    vadd.vv v4, v4, v3\n    vadd.vi v2, v2, 4\n"
    "    addi t4, t4, 1\n    bne t4, t5, 2b\n"
    "    vsll.vi v5, v1, 2\n    lw t6, 0(a0)\n    vadd.vx v5, v5, t6\n    vsw12.v v4, 0(v5)\n"
    "    ret\n";

static void private_memory_case(check_state *st, const api *a) {
  vt_device_h dev = NULL;
  CHECK(st, a->dev_open(&dev) == 0);
  enum { N = 131072 };
  uint32_t *out = malloc(4 * N);
  uint64_t O = pocl_buffer(a, dev, NULL, 4 * N);
  karg args[1] = {{ARG_BUFFER, O, 0}};
  ndrange nd = {"object2.riscv", "priv", nm_entry("object2.riscv", "priv"), 32,
                {N, 1, 1}, {1024, 1, 1}, 1, args, 1};
  launch_bufs lb;
  CHECK(st, out && pocl_run(a, dev, &nd, &lb) == 0);
  CHECK(st, lb.pds_size == 0x10000000u); /* 131072 x 4 KiB = 512 MiB, capped */
  CHECK(st, out && a->copy_from_dev(dev, O, out, 4 * N, 0, 0) == 0);
  unsigned bad = 0;
  for (uint32_t i = 0; out && i < N; i++) bad += out[i] != 16 * i + 120;
  CHECK(st, bad == 0);
  free(out);
  CHECK(st, a->dev_close(dev) == 0);
}

TEST(private_memory_of_131072_items_fits_pocls_256_mib) {
  api a;
  if (!load(st, &a) || !make_kernel(st, NULL, priv_kernel, "object2.riscv")) {
    unload(&a);
    return;
  }
  private_memory_case(st, &a);
  /* the timing model's workgroup scheduler shares the areas too */
  setenv("VT_TIMING", "1", 1);
  private_memory_case(st, &a);
  unsetenv("VT_TIMING");
  unload(&a);
}

/* one warp counting down from 3,000,000: some tens of milliseconds */
static const char loop_kernel[] =
    "    .text\n    .globl spin\nspin:\n    li t0, 3000000\n1:  addi t0, t0, -1\n"
    "    bnez t0, 1b\n    lw t1, 0(a0)\n    li t2, 0x600d\n    sw t2, 0(t1)\n    ret\n";
static const char trap_kernel[] =
    "    .text\n    .globl trap\ntrap:\n    lw t0, 0(zero)\n    ret\n";

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* a one-warp launch of 'kernel' in 'file' with a 4-byte output buffer */
static int one_warp(const api *a, vt_device_h dev, const char *file, const char *kernel,
                    uint64_t out, uint32_t *result) {
  karg args[1] = {{ARG_BUFFER, out, 0}};
  ndrange nd = {file, kernel, nm_entry(file, kernel), 32, {32, 1, 1}, {32, 1, 1}, 1, args, 1};
  launch_bufs lb;
  int rc = pocl_run(a, dev, &nd, &lb);
  if (a->copy_from_dev(dev, out, result, 4, 0, 0) != 0) rc = -1;
  return rc;
}

TEST(ready_wait_waits_for_the_kernel_whatever_the_timeout) {
  api a;
  if (!load(st, &a) || !make_kernel(st, NULL, loop_kernel, "object3.riscv")) {
    unload(&a);
    return;
  }
  vt_device_h dev = NULL;
  CHECK(st, a.dev_open(&dev) == 0);
  uint32_t zero = 0, result = 0;
  uint64_t out = pocl_buffer(&a, dev, &zero, 4);
  /* pocl's 1000 ms, then 1 ms: libvt's vt_ready_wait would time out after
   * 1 ms; the drop-in's returns 0 once the kernel has ended */
  CHECK(st, one_warp(&a, dev, "object3.riscv", "spin", out, &result) == 0 && result == 0x600d);
  result = 0;
  CHECK(st, a.copy_to_dev(dev, out, &zero, 4, 0, 0) == 0);
  uint32_t entry = nm_entry("object3.riscv", "spin");
  uint64_t args = 0, knl = 0;
  uint8_t abuf[4], meta_knl[64] = {0};
  put32(abuf, (uint32_t)out);
  CHECK(st, a.buf_alloc(dev, 4, &args, 0, 0, 0) == 0);
  CHECK(st, a.copy_to_dev(dev, args, abuf, 4, 0, 0) == 0);
  put32(meta_knl, entry);
  put32(meta_knl + 4, (uint32_t)args);
  put32(meta_knl + 8, 1);
  put32(meta_knl + 12, 32);
  put32(meta_knl + 24, 32);
  CHECK(st, a.buf_alloc(dev, 64, &knl, 0, 0, 0) == 0);
  CHECK(st, a.copy_to_dev(dev, knl, meta_knl, 64, 0, 0) == 0);
  uint64_t meta[12] = {0, 1, 1, 1, 32, 1, knl, 0x1000, 0, 64, 64, 0};
  double t0 = now_ms();
  CHECK(st, a.start(dev, meta, 0) == 0);
  CHECK(st, a.ready_wait(dev, 1) == 0);
  double waited = now_ms() - t0;
  CHECK(st, a.copy_from_dev(dev, out, &result, 4, 0, 0) == 0 && result == 0x600d);
  if (waited < 5) fprintf(stderr, "the launch took %.1f ms only\n", waited);
  CHECK(st, waited >= 5); /* 6 million instructions: the wait outlasted its 1 ms */
  CHECK(st, a.dev_close(dev) == 0);
  unload(&a);
}

TEST(a_trap_ends_the_launch_like_the_official_library_and_is_told_on_stderr) {
  api a;
  if (!load(st, &a) || !make_kernel(st, NULL, trap_kernel, "object4.riscv") ||
      !make_kernel(st, "vecadd.s", NULL, "object0.riscv")) {
    unload(&a);
    return;
  }
  vt_device_h dev = NULL;
  CHECK(st, a.dev_open(&dev) == 0);
  uint32_t zero = 0, result = 1;
  uint64_t out = pocl_buffer(&a, dev, &zero, 4);
  capture c;
  capture_begin(&c);
  int rc = one_warp(&a, dev, "object4.riscv", "trap", out, &result);
  char *text = capture_end(&c);
  CHECK(st, rc == 0 && result == 0); /* vt_start and vt_ready_wait return 0 */
  CHECK(st, text && strstr(text, "libspike_driver (vt): vt_ready_wait: kernel 0: SM 0, "
                                 "workgroup 0, warp 0, pc 0x"));
  CHECK(st, text && strstr(text, "lw t0, 0(zero)"));
  CHECK(st, text && strstr(text, "0x00000000"));
  if (text) fputs(text, stderr);
  free(text);
  /* the device goes on */
  float x[64], y[64], z[64];
  for (int i = 0; i < 64; i++) x[i] = (float)i, y[i] = 2.0f * (float)i;
  uint64_t A = pocl_buffer(&a, dev, x, sizeof x), B = pocl_buffer(&a, dev, y, sizeof y),
           C = pocl_buffer(&a, dev, NULL, sizeof z);
  karg args[3] = {{ARG_BUFFER, A, 0}, {ARG_BUFFER, B, 0}, {ARG_BUFFER, C, 0}};
  ndrange nd = {"object0.riscv", "vecadd", nm_entry("object0.riscv", "vecadd"), 32,
                {64, 1, 1}, {32, 1, 1}, 1, args, 3};
  launch_bufs lb;
  CHECK(st, pocl_run(&a, dev, &nd, &lb) == 0 && a.copy_from_dev(dev, C, z, sizeof z, 0, 0) == 0);
  for (int i = 0; i < 64; i++) CHECK(st, z[i] == 3.0f * (float)i);
  CHECK(st, a.dev_close(dev) == 0);
  unload(&a);
}

TEST(errors_return_minus_one_with_the_reason_on_stderr) {
  api a;
  if (!load(st, &a)) return;
  vt_device_h dev = NULL;
  CHECK(st, a.dev_open(&dev) == 0);
  uint64_t b = 0, b2 = 0, v = 0;
  uint8_t bytes[64] = {0}, queue[64];
  CHECK(st, a.buf_alloc(dev, 64, &b, 0, 0, 0) == 0 && a.buf_alloc(dev, 64, &b2, 0, 0, 0) == 0);
  capture c;
  capture_begin(&c);
  CHECK(st, a.copy_to_dev(dev, b + 60, bytes, 64, 0, 0) == -1);
  CHECK(st, a.copy_from_dev(dev, 0x7ffff000u, bytes, 64, 0, 0) == -1);
  CHECK(st, a.dev_caps(&dev, 99, &v) == -1);
  CHECK(st, a.dev_close((vt_device_h)bytes) == -1);
  char *text = capture_end(&c);
  CHECK(st, text && strstr(text, "libspike_driver (vt): vt_copy_to_dev: 64 bytes at 0x9000003c "
                                 "overrun the buffer at 0x90000000 (64 bytes) by 60 bytes\n"));
  CHECK(st, text && strstr(text, "libspike_driver (vt): vt_copy_from_dev: 0x7ffff000 is in the "
                                 "local-memory window"));
  CHECK(st, text && strstr(text, "vt_dev_caps: unknown capability id 99"));
  CHECK(st, text && strstr(text, "vt_dev_close: unknown or closed device handle"));
  free(text);
  /* accepted: pocl's zero-fill of a __local argument; capabilities */
  CHECK(st, a.copy_to_dev(dev, 0x7ffff000u, bytes, 64, 0, 0) == 0);
  CHECK(st, a.dev_caps(&dev, 3, &v) == 0 && v == 32); /* VT_CAPS_MAX_THREADS */
  /* vt_buf_free frees one buffer, and its address is given out again */
  CHECK(st, a.buf_free(dev, 64, &b, 0, 0) == 0);
  CHECK(st, a.copy_to_dev(dev, b2, bytes, 64, 0, 0) == 0);
  CHECK(st, a.buf_alloc(dev, 100, &v, 0, 0, 0) == 0 && v == 0x90000000u);
  /* the official std::queue<int> * is left as it is */
  memset(queue, 0xa5, sizeof queue);
  CHECK(st, a.finish_all_kernel(dev, queue) == 0);
  unsigned changed = 0;
  for (size_t i = 0; i < sizeof queue; i++) changed += queue[i] != 0xa5;
  CHECK(st, changed == 0);
  CHECK(st, a.root_mem_alloc(dev, 0) == 0 && a.root_mem_free(dev, 0) == 0);
  CHECK(st, a.dev_close(dev) == 0);
  unload(&a);
}

RUN_TESTS(T(exactly_the_official_functions), T(vecadd_2000_launches_reuse_their_addresses),
          T(workgroups_up_to_1024_items_with_local_arguments),
          T(private_memory_of_131072_items_fits_pocls_256_mib),
          T(ready_wait_waits_for_the_kernel_whatever_the_timeout),
          T(a_trap_ends_the_launch_like_the_official_library_and_is_told_on_stderr),
          T(errors_return_minus_one_with_the_reason_on_stderr))
