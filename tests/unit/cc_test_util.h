/* Helpers of the compiler tests (test_cc_*.c): compile a kernel file of
 * tests/cc with libvtcc, run one of its kernels through the runtime
 * (vt_runtime.h) with host buffers, read the results and the warp
 * instructions back. Without the compiler (vt built without LLVM 14) the
 * test programs exit with 77, which CTest reports as skipped. */
#ifndef VT_CC_TEST_UTIL_H
#define VT_CC_TEST_UTIL_H
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "rt_test_util.h"
#include "vt/cc.h"
#include "vt_runtime.h"

typedef struct cc_prog {
  uint8_t *elf;
  size_t size;
  char *log;
} cc_prog;

/* Compiles tests/cc/FILE with the given options (NULL-terminated list). */
static inline int cc_build(cc_prog *p, const char *file, const char *const *opts) {
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/cc/%s", VT_SOURCE_DIR, file);
  int n = 0;
  while (opts && opts[n]) n++;
  vt_cc_job job = {.path = path, .argv = opts, .argc = n, .output = VT_CC_ELF};
  memset(p, 0, sizeof *p);
  int rc = vt_cc_run(&job, &p->elf, &p->size, &p->log);
  if (rc) fprintf(stderr, "compiling %s:\n%s", file, p->log ? p->log : "");
  return rc;
}

static inline void cc_prog_free(cc_prog *p) {
  free(p->elf);
  free(p->log);
  memset(p, 0, sizeof *p);
}

enum { CA_IN, CA_OUT, CA_IO, CA_SCALAR, CA_LOCAL };

typedef struct cc_arg {
  int kind;
  void *host;   /* buffers: host copy (read back for OUT/IO); scalars: the value */
  size_t bytes; /* buffer / scalar / local size */
  uint32_t addr;
} cc_arg;

#define ARG_IN(p, n) {CA_IN, (void *)(p), (n), 0}
#define ARG_OUT(p, n) {CA_OUT, (void *)(p), (n), 0}
#define ARG_IO(p, n) {CA_IO, (void *)(p), (n), 0}
#define ARG_VAL(p) {CA_SCALAR, (void *)(p), sizeof *(p), 0}
#define ARG_LOCAL(n) {CA_LOCAL, NULL, (n), 0}

typedef struct cc_run {
  unsigned threads;      /* threads per warp (0 = automatic) */
  uint64_t warp_insns;   /* out */
  rt_capture *print;     /* optional printf capture */
} cc_run;

/* Runs kernel 'name' of p over nd with args; buffers are copied in before
 * and OUT/IO buffers back after. 0 on success. */
static inline int cc_launch(const cc_prog *p, const char *name, const vt_rt_ndrange *nd,
                            cc_arg *args, int nargs, cc_run *run) {
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.threads_per_warp = run ? run->threads : 0;
  if (run && run->print) {
    o.print_fn = rt_capture_fn;
    o.print_user = run->print;
  }
  vt_rt *rt = NULL;
  vt_rt_program *prog = NULL;
  vt_rt_kernel *k = NULL;
  char err[256];
  int rc = vt_rt_create(&o, &rt, err, sizeof err);
  if (rc) {
    fprintf(stderr, "runtime: %s\n", err);
    return rc;
  }
  rc = vt_rt_program_load_mem(rt, p->elf, p->size, "cc", &prog);
  if (!rc) rc = vt_rt_kernel_create(prog, name, &k);
  if (!rc) rc = vt_rt_kernel_set_num_args(k, (unsigned)nargs);
  for (int i = 0; !rc && i < nargs; i++) {
    cc_arg *a = &args[i];
    if (a->kind == CA_SCALAR) {
      rc = vt_rt_set_arg_scalar(k, (unsigned)i, a->host, a->bytes);
    } else if (a->kind == CA_LOCAL) {
      rc = vt_rt_set_arg_local(k, (unsigned)i, (uint32_t)a->bytes);
    } else {
      rc = vt_rt_alloc(rt, a->bytes ? a->bytes : 4, &a->addr);
      if (!rc && a->kind != CA_OUT) rc = vt_rt_write(rt, a->addr, a->host, a->bytes);
      if (!rc && a->kind == CA_OUT) {
        void *z = calloc(1, a->bytes ? a->bytes : 4);
        rc = z ? vt_rt_write(rt, a->addr, z, a->bytes) : -1;
        free(z);
      }
      if (!rc) rc = vt_rt_set_arg_buffer(k, (unsigned)i, a->addr, 0);
    }
  }
  if (!rc) rc = vt_rt_launch(k, nd, NULL);
  for (int i = 0; !rc && i < nargs; i++)
    if (args[i].kind == CA_OUT || args[i].kind == CA_IO)
      rc = vt_rt_read(rt, args[i].addr, args[i].host, args[i].bytes);
  if (rc) fprintf(stderr, "kernel %s: %s\n", name, vt_rt_error(rt));
  if (!rc && run) run->warp_insns = (uint64_t)vt_rt_counter(rt, VT_C_warp_instructions);
  vt_rt_kernel_free(k);
  vt_rt_program_free(prog);
  vt_rt_destroy(rt);
  return rc;
}

static inline vt_rt_ndrange nd1(uint32_t g, uint32_t l) {
  vt_rt_ndrange nd = {.dims = 1, .global = {g, 1, 1}, .local = {l, 1, 1}};
  return nd;
}

static inline vt_rt_ndrange nd2(uint32_t gx, uint32_t gy, uint32_t lx, uint32_t ly) {
  vt_rt_ndrange nd = {.dims = 2, .global = {gx, gy, 1}, .local = {lx, ly, 1}};
  return nd;
}

static inline uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* xorshift for test data */
static inline uint32_t cc_rand(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

/* Compares n 32-bit words; reports the first few differences. */
static inline void check_words(check_state *st, const char *what, const void *got, const void *want,
                               size_t n) {
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t g, w; /* memcpy: the arrays may be float or int */
    memcpy(&g, (const char *)got + 4 * i, 4);
    memcpy(&w, (const char *)want + 4 * i, 4);
    if (g != w && bad++ < 4) fprintf(stderr, "%s[%zu] = 0x%08x, expected 0x%08x\n", what, i, g, w);
  }
  if (bad) st->failed_checks++;
}
#endif
