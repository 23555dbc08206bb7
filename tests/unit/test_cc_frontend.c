/* vt cc's driver and outputs: clang's diagnostics passed through with
 * file:line:col, unsupported OpenCL features refused with the source line,
 * -D/-I/-O0..-O3 options, vt_cc_compile's option string, the assembly and
 * LLVM IR outputs, the .ventus.resource and .vt.kernel_args sections, and
 * the `vt cc` command (exit codes, output files). */
#include <pthread.h>
#include <sys/wait.h>

#include "cc_test_util.h"
#include "util/file.h"
#include "vt/elf.h"
#include "vt/kargs.h"

#ifdef VT_HAVE_CC
/* a test output file, whole (at most 256 MiB) */
static int read_whole(const char *path, uint8_t **d, size_t *n) {
  const vt_file_limit lim = {256ull << 20, "a test output", NULL};
  char msg[256];
  return vt_read_file(path, lim, d, n, msg, sizeof msg);
}

static char *compile_log(const char *file, const char *const *opts, int *rc, vt_cc_output out,
                         char **result) {
  char path[1024];
  snprintf(path, sizeof path, "%s/tests/cc/%s", VT_SOURCE_DIR, file);
  int n = 0;
  while (opts && opts[n]) n++;
  vt_cc_job job = {.path = path, .argv = opts, .argc = n, .output = out};
  uint8_t *o = NULL;
  size_t size;
  char *log = NULL;
  *rc = vt_cc_run(&job, &o, &size, &log);
  if (result) *result = (char *)o;
  else free(o);
  return log;
}

TEST(clang_diagnostics) {
  int rc;
  const char *opts[] = {"-DERR=1", NULL};
  char *log = compile_log("errors.cl", opts, &rc, VT_CC_ELF, NULL);
  CHECK(st, rc == -1);
  CHECK(st, log && strstr(log, "errors.cl:5:10: error: use of undeclared identifier 'undeclared_name'"));
  free(log);
}

TEST(unsupported_features) {
  static const struct {
    const char *def, *want;
  } cases[] = {
      {"-DERR=2", "errors.cl:10:10: error: recursion is not supported"}, /* the call left */
      {"-DERR=3", "errors.cl:14:10: error: images and samplers are not supported ('read_imagef')"},
      {"-DERR=4", "errors.cl:18:"},  /* half arithmetic */
      {"-DERR=5", "errors.cl:22:"},  /* function pointers: clang refuses them */
      {"-DERR=6", "errors.cl:27:3: error: 64-bit atomics are not supported ('atom_add')"},
      {"-DERR=7", "errors.cl:31:3: error: printf of a double needs a format that is a string literal"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc;
    const char *opts[] = {cases[i].def, NULL};
    char *log = compile_log("errors.cl", opts, &rc, VT_CC_ELF, NULL);
    CHECK(st, rc == -1);
    if (!log || !strstr(log, cases[i].want)) {
      fprintf(stderr, "%s: expected '%s' in:\n%s\n", cases[i].def, cases[i].want, log ? log : "");
      st->failed_checks++;
    }
    free(log);
  }
  int rc;
  const char *o2[] = {"-DERR=2", NULL};
  char *log = compile_log("errors.cl", o2, &rc, VT_CC_ELF, NULL);
  CHECK(st, log && strstr(log, "recursion is not supported"));
  free(log);
  const char *o4[] = {"-DERR=4", NULL};
  log = compile_log("errors.cl", o4, &rc, VT_CC_ELF, NULL);
  CHECK(st, log && strstr(log, "cl_khr_fp16"));
  free(log);
}

TEST(defines_includes_levels) {
  char inc[1024];
  snprintf(inc, sizeof inc, "-I%s/tests/cc/inc", VT_SOURCE_DIR);
  for (int lvl = 0; lvl < 4; lvl++) {
    char o[8];
    snprintf(o, sizeof o, "-O%d", lvl);
    const char *opts[] = {o, "-D", "VALUE=7", inc, "-include", "cc_include.h", NULL};
    cc_prog p;
    /* -include is not an option of vt cc: expect the refusal, then build
     * with the header included from the source instead */
    int rc;
    char *log = compile_log("errors.cl", opts, &rc, VT_CC_ELF, NULL);
    CHECK(st, rc == -1 && log && strstr(log, "unknown option '-include'"));
    free(log);
    const char *opts2[] = {o, "-D", "VALUE=7", inc, "-DINCLUDED=1000", NULL};
    if (cc_build(&p, "errors.cl", opts2)) {
      st->failed_checks++;
      continue;
    }
    int out[32], want[32];
    for (int i = 0; i < 32; i++) want[i] = 1007;
    cc_arg args[] = {ARG_OUT(out, sizeof out)};
    vt_rt_ndrange nd = nd1(32, 16);
    cc_run run = {.threads = 8};
    CHECK(st, cc_launch(&p, "k", &nd, args, 1, &run) == 0);
    check_words(st, o, out, want, 32);
    cc_prog_free(&p);
  }
}

TEST(compile_with_option_string) {
  const char *src = "#include \"cc_include.h\"\n"
                    "__kernel void k(__global int *a) { a[get_global_id(0)] = X + INCLUDED; }\n";
  char opts[1200];
  snprintf(opts, sizeof opts, "-cl-std=CL1.2 -D X=5 -cl-mad-enable -I '%s/tests/cc/inc'",
           VT_SOURCE_DIR);
  uint8_t *elf = NULL;
  size_t size = 0;
  char *log = NULL;
  CHECK(st, vt_cc_compile(src, opts, &elf, &size, &log) == 0);
  CHECK_STR(st, log, "");
  cc_prog p = {elf, size, log};
  int out[8], want[8];
  for (int i = 0; i < 8; i++) want[i] = 1005;
  cc_arg args[] = {ARG_OUT(out, sizeof out)};
  vt_rt_ndrange nd = nd1(8, 8);
  cc_run run = {.threads = 8};
  CHECK(st, elf && cc_launch(&p, "k", &nd, args, 1, &run) == 0);
  check_words(st, "option string", out, want, 8);
  cc_prog_free(&p);
  /* a bad option string and a bad option */
  CHECK(st, vt_cc_compile(src, "-D 'X=1", &elf, &size, &log) == -1 && elf == NULL);
  CHECK(st, log && strstr(log, "unterminated quote"));
  free(log);
  CHECK(st, vt_cc_compile(src, "-cl-std=CL2.0", &elf, &size, &log) == -1);
  CHECK(st, log && strstr(log, "-cl-std=CL2.0 is not supported"));
  free(log);
  /* messages name the program "program.cl" */
  CHECK(st, vt_cc_compile("__kernel void k() { x; }", NULL, &elf, &size, &log) == -1);
  CHECK(st, log && strstr(log, "program.cl:1:21: error:"));
  free(log);
}

TEST(outputs_and_resources) {
  int rc;
  char *text = NULL;
  const char *opts[] = {"-DTS=4", NULL};
  char *log = compile_log("matmul.cl", opts, &rc, VT_CC_ASM, &text);
  CHECK(st, rc == 0 && text);
  CHECK(st, text && strstr(text, "\nmatmul:\n"));
  /* static __local: two 4 x 4 float tiles = 128 bytes */
  CHECK(st, text && strstr(text, ".section .ventus.resource.matmul,\"aw\",@progbits\n"));
  CHECK(st, text && strstr(text, "setrpc") == NULL); /* no divergence in matmul */
  free(text);
  free(log);
  log = compile_log("matmul.cl", opts, &rc, VT_CC_LLVM, &text);
  CHECK(st, rc == 0 && text && strstr(text, "spir_kernel void @matmul("));
  free(text);
  free(log);
  cc_prog p;
  if (cc_build(&p, "matmul.cl", opts)) {
    st->failed_checks++;
    return;
  }
  vt_elf *e = NULL;
  char err[256];
  CHECK(st, vt_elf_open_mem(p.elf, p.size, &e, err, sizeof err) == 0);
  const vt_elf_section *s = e ? vt_elf_section_by_name(e, ".ventus.resource.matmul") : NULL;
  CHECK(st, s && s->size == 8);
  if (s && s->size == 8) {
    uint16_t v[4];
    memcpy(v, s->data, 8);
    CHECK(st, v[0] >= 2 && v[0] <= 64); /* vector registers */
    CHECK(st, v[1] >= 32 && v[1] <= 64); /* scalar registers */
    CHECK_EQ_U32(st, v[2], 128);         /* static __local bytes */
    CHECK_EQ_U32(st, v[3], 0);           /* no private memory */
  }
  /* crt0's _start first, the kernels as global functions */
  CHECK(st, e && vt_elf_entry(e) == 0x80000000u);
  vt_elf_free(e);
  cc_prog_free(&p);
}

static void check_arg(check_state *st, const vt_kargs_kernel *k, unsigned i, unsigned kind,
                      unsigned space, unsigned quals, unsigned size, const char *name,
                      const char *type) {
  CHECK(st, k && i < k->nargs);
  if (!k || i >= k->nargs) return;
  const vt_karg *a = &k->args[i];
  if (a->kind != kind || a->space != space || a->quals != quals || a->size != size)
    fprintf(stderr, "argument %u: kind %u space %u quals %u size %u\n", i, a->kind, a->space,
            a->quals, a->size);
  CHECK(st, a->kind == kind && a->space == space && a->quals == quals && a->size == size);
  CHECK_STR(st, a->name, name);
  CHECK_STR(st, a->type, type);
}

/* .vt.kernel_args: every argument's kind, address space, qualifiers, size
 * in the argument buffer (OpenCL C sizes: float4 16, the struct 4 + 3 x 4,
 * char 1), name and type as written in the source */
TEST(kernel_argument_section) {
  const char *src =
      "typedef struct { int a; float b[3]; } S;\n"
      "__kernel void k1(__global const float *restrict in, __global float *out,\n"
      "                 __local int *scratch, __constant int *tab, int n, float4 v, S s,\n"
      "                 char c, volatile __global uint *vv) {\n"
      "  out[0] = in[0] + n + v.x + s.b[1] + c + tab[0] + scratch[0] + vv[0];\n}\n"
      "__kernel void k2(void) {}\n";
  uint8_t *elf = NULL;
  size_t size = 0;
  char *log = NULL, err[256];
  CHECK(st, vt_cc_compile(src, NULL, &elf, &size, &log) == 0);
  vt_elf *e = NULL;
  vt_kargs *ka = NULL;
  CHECK(st, elf && vt_elf_open_mem(elf, size, &e, err, sizeof err) == 0);
  const vt_elf_section *sec = e ? vt_elf_section_by_name(e, VT_KARGS_SECTION) : NULL;
  CHECK(st, sec && vt_kargs_parse(sec->data, sec->size, &ka, err, sizeof err) == 0);
  CHECK(st, ka && vt_kargs_count(ka) == 2);
  const vt_kargs_kernel *k1 = ka ? vt_kargs_find(ka, "k1") : NULL;
  const vt_kargs_kernel *k2 = ka ? vt_kargs_find(ka, "k2") : NULL;
  CHECK(st, k1 && k1->nargs == 9 && k2 && k2->nargs == 0);
  check_arg(st, k1, 0, VT_KARG_BUFFER, VT_KSPACE_GLOBAL, VT_KQUAL_CONST | VT_KQUAL_RESTRICT, 4,
            "in", "float*");
  check_arg(st, k1, 1, VT_KARG_BUFFER, VT_KSPACE_GLOBAL, 0, 4, "out", "float*");
  check_arg(st, k1, 2, VT_KARG_LOCAL, VT_KSPACE_LOCAL, 0, 4, "scratch", "int*");
  check_arg(st, k1, 3, VT_KARG_BUFFER, VT_KSPACE_CONSTANT, VT_KQUAL_CONST, 4, "tab", "int*");
  check_arg(st, k1, 4, VT_KARG_VALUE, VT_KSPACE_PRIVATE, 0, 4, "n", "int");
  check_arg(st, k1, 5, VT_KARG_VALUE, VT_KSPACE_PRIVATE, 0, 16, "v", "float4");
  check_arg(st, k1, 6, VT_KARG_VALUE, VT_KSPACE_PRIVATE, 0, 16, "s", "S");
  check_arg(st, k1, 7, VT_KARG_VALUE, VT_KSPACE_PRIVATE, 0, 1, "c", "char");
  check_arg(st, k1, 8, VT_KARG_BUFFER, VT_KSPACE_GLOBAL, VT_KQUAL_VOLATILE, 4, "vv", "uint*");
  vt_kargs_free(ka);
  vt_elf_free(e);
  free(elf);
  free(log);
  /* a struct too large for the argument buffer's by-value limit */
  CHECK(st, vt_cc_compile("typedef struct { int w[257]; } B;\n"
                          "__kernel void big(__global int *o, B b) { o[0] = b.w[256]; }\n",
                          NULL, &elf, &size, &log) == -1);
  CHECK(st, log && strstr(log, "kernel 'big': argument 1 ('b') is larger than 1024 bytes"));
  free(log);
}

/* -g: a line table whose rows name the kernel's source lines (oracle:
 * GNU addr2line, when installed) */
TEST(debug_line_table) {
  const char *opts[] = {"-g", "-O1", NULL};
  cc_prog p;
  if (cc_build(&p, "basic.cl", opts)) {
    st->failed_checks++;
    return;
  }
  vt_elf *e = NULL;
  char err[256];
  uint32_t k = 0;
  CHECK(st, vt_elf_open_mem(p.elf, p.size, &e, err, sizeof err) == 0);
  CHECK(st, e && vt_elf_section_by_name(e, ".debug_line") != NULL);
  CHECK(st, e && vt_elf_find_symbol(e, "vecadd", &k) == 0);
  vt_elf_free(e);
  if (system("riscv64-unknown-elf-addr2line --version > /dev/null 2>&1") != 0) {
    printf("     (riscv64-unknown-elf-addr2line not installed: line numbers not checked)\n");
    cc_prog_free(&p);
    return;
  }
  FILE *f = fopen("g.elf", "wb");
  CHECK(st, f && fwrite(p.elf, 1, p.size, f) == p.size);
  if (f) fclose(f);
  char cmd[512], out[512] = "";
  snprintf(cmd, sizeof cmd, "riscv64-unknown-elf-addr2line -e g.elf 0x%x 0x%x 0x%x", k + 8, k + 40,
           k + 60);
  FILE *pp = popen(cmd, "r");
  size_t n = pp ? fread(out, 1, sizeof out - 1, pp) : 0;
  out[n] = 0;
  if (pp) pclose(pp);
  /* vecadd is lines 2-5 of tests/cc/basic.cl */
  int lines = 0;
  for (char *l = out; (l = strstr(l, "basic.cl:")) != NULL; l++) {
    int v = atoi(l + 9);
    CHECK(st, v >= 2 && v <= 5);
    lines++;
  }
  CHECK(st, lines == 3);
  cc_prog_free(&p);
}

/* vt_cc_compile from several threads at once: each has its own LLVM
 * context and temporary directory */
typedef struct job {
  int value, rc;
  uint8_t *elf;
  size_t size;
} job;

static void *compile_thread(void *arg) {
  job *j = arg;
  char src[256], *log = NULL;
  snprintf(src, sizeof src, "__kernel void k(__global int *a) { a[get_global_id(0)] = V * %d; }\n",
           j->value);
  j->rc = vt_cc_compile(src, "-D V=3", &j->elf, &j->size, &log);
  free(log);
  return NULL;
}

TEST(parallel_compilations) {
  enum { NT = 4 };
  pthread_t t[NT];
  job jobs[NT];
  for (int i = 0; i < NT; i++) {
    memset(&jobs[i], 0, sizeof jobs[i]);
    jobs[i].value = i + 1;
    CHECK(st, pthread_create(&t[i], NULL, compile_thread, &jobs[i]) == 0);
  }
  for (int i = 0; i < NT; i++) pthread_join(t[i], NULL);
  for (int i = 0; i < NT; i++) {
    CHECK(st, jobs[i].rc == 0);
    cc_prog p = {jobs[i].elf, jobs[i].size, NULL};
    int out[8], want[8];
    for (int k = 0; k < 8; k++) want[k] = 3 * (i + 1);
    cc_arg args[] = {ARG_OUT(out, sizeof out)};
    vt_rt_ndrange nd = nd1(8, 8);
    cc_run run = {.threads = 8};
    CHECK(st, p.elf && cc_launch(&p, "k", &nd, args, 1, &run) == 0);
    check_words(st, "parallel", out, want, 8);
    cc_prog_free(&p);
  }
}

static int sh(const char *cmd) {
  int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

TEST(command_line) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "%s cc -O1 -o k.elf %s/tests/cc/basic.cl", VT_BINARY, VT_SOURCE_DIR);
  CHECK(st, sh(cmd) == 0);
  uint8_t *d = NULL;
  size_t n = 0;
  CHECK(st, read_whole("k.elf", &d, &n) == 0 && n > 64 && !memcmp(d, "\177ELF", 4));
  free(d);
  snprintf(cmd, sizeof cmd, "%s cc -S %s/tests/cc/basic.cl", VT_BINARY, VT_SOURCE_DIR);
  CHECK(st, sh(cmd) == 0);
  CHECK(st, read_whole("basic.s", &d, &n) == 0 && strstr((char *)d, ".globl vecadd"));
  free(d);
  /* the assembly assembles with vt as and the start-up code */
  snprintf(cmd, sizeof cmd, "%s as %s/examples/kernels/crt0.s basic.s -o k2.elf", VT_BINARY,
           VT_SOURCE_DIR);
  CHECK(st, sh(cmd) == 0);
  snprintf(cmd, sizeof cmd, "%s cc --emit-llvm %s/tests/cc/basic.cl", VT_BINARY, VT_SOURCE_DIR);
  CHECK(st, sh(cmd) == 0);
  CHECK(st, read_whole("basic.ll", &d, &n) == 0 && strstr((char *)d, "spir_kernel"));
  free(d);
  snprintf(cmd, sizeof cmd, "%s cc -DERR=1 -o bad.elf %s/tests/cc/errors.cl 2> err.txt", VT_BINARY,
           VT_SOURCE_DIR);
  CHECK(st, sh(cmd) == 1);
  CHECK(st, read_whole("err.txt", &d, &n) == 0 && strstr((char *)d, "errors.cl:5:10: error:"));
  free(d);
  CHECK(st, read_whole("bad.elf", &d, &n) != 0); /* no output after an error */
  snprintf(cmd, sizeof cmd, "%s cc 2> /dev/null", VT_BINARY);
  CHECK(st, sh(cmd) == 2);
  snprintf(cmd, sizeof cmd, "%s cc --bogus %s/tests/cc/basic.cl 2> err.txt", VT_BINARY, VT_SOURCE_DIR);
  CHECK(st, sh(cmd) == 1);
  CHECK(st, read_whole("err.txt", &d, &n) == 0 && strstr((char *)d, "unknown option '--bogus'"));
  free(d);
}
#endif

#ifdef VT_HAVE_CC
RUN_TESTS(T(clang_diagnostics), T(unsupported_features), T(defines_includes_levels),
          T(compile_with_option_string), T(outputs_and_resources), T(kernel_argument_section),
          T(debug_line_table),
          T(parallel_compilations), T(command_line))
#else
int main(void) {
  printf("SKIP: vt was built without the compiler (LLVM 14 not found)\n");
  return VT_TEST_SKIPPED;
}
#endif
