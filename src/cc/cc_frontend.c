/* The front end: clang 14 run as a program (`clang -cc1`, SPIR 32-bit
 * target, OpenCL C 1.2, no LLVM passes) produces LLVM bitcode, which is
 * read into the compilation's LLVM context. clang's diagnostics go to the
 * log unchanged, so they keep clang's "file:line:col" form. */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np: no chdir in this process */
#include <errno.h>
#include <fcntl.h>
#include <llvm-c/BitReader.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cc_internal.h"
#include "util/file.h"

extern char **environ;

/* clang to run: $VT_CLANG, else the one vt was built with */
static const char *clang_path(void) {
  const char *e = getenv("VT_CLANG");
  return e && *e ? e : VT_CC_CLANG;
}

/* Runs argv with standard output and error going to 'log_path'; returns the
 * exit status (or -1 if it could not be started, with errno). */
static int run_program(const char *const *argv, const char *cwd, const char *log_path) {
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0) return -1;
  posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  /* the child changes directory, not this (possibly multi-threaded) process */
  if (cwd) posix_spawn_file_actions_addchdir_np(&fa, cwd);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    errno = rc;
    return -1;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

/* Absolute form of a relative include directory (clang runs elsewhere). */
static char *absolute(const char *dir) {
  if (dir[0] == '/') return strdup(dir);
  char *cwd = getcwd(NULL, 0);
  if (!cwd) return NULL;
  size_t n = strlen(cwd) + strlen(dir) + 2;
  char *r = malloc(n);
  if (r) snprintf(r, n, "%s/%s", cwd, dir);
  free(cwd);
  return r;
}

/* Writes the job's source text into the temporary directory. */
static int write_source(cc_ctx *c, char *path, size_t size) {
  const vt_cc_job *j = c->job;
  size_t len = j->source_len ? j->source_len : strlen(j->source);
  snprintf(path, size, "%s/%s", c->tmpdir, base_name(c->display_name));
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(j->source, 1, len, f) != len) {
    if (f) fclose(f);
    cc_buf_printf(&c->log, "vt cc: error: cannot write %s: %s\n", path, strerror(errno));
    return -1;
  }
  if (fclose(f) != 0) return -1;
  return 0;
}

enum { MAX_ARGS = 40 + 2 * CC_MAX_WORDS };

/* The clang command line. 'owned' collects strings to free. */
static int build_argv(cc_ctx *c, const char *input, const char *bc, const char **argv,
                      char **owned, int *nowned) {
  int n = 0;
  argv[n++] = clang_path();
  const char *fixed[] = {"-cc1", "-triple", "spir-unknown-unknown", "-finclude-default-header",
                         "-cl-ext=-cl_khr_fp16", "-emit-llvm-bc", "-O2", "-disable-llvm-passes",
                         "-debug-info-kind=line-tables-only", "-dwarf-version=4", "-Wno-format",
                         "-cl-kernel-arg-info" /* argument names for cc_kargs.c */
};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) argv[n++] = fixed[i];
  char *std = malloc(32);
  if (!std) return -1;
  snprintf(std, 32, "-cl-std=%s", c->opts.cl_std);
  owned[(*nowned)++] = std;
  argv[n++] = std;
  const cc_opts *o = &c->opts;
  if (o->no_warnings) argv[n++] = "-w";
  if (o->werror) argv[n++] = "-Werror";
  if (o->fast_math) argv[n++] = "-cl-fast-relaxed-math";
  if (o->finite_math) argv[n++] = "-cl-finite-math-only";
  if (o->no_signed_zeros) argv[n++] = "-cl-no-signed-zeros";
  if (o->mad_enable) argv[n++] = "-cl-mad-enable";
  if (o->denorms_are_zero) argv[n++] = "-cl-denorms-are-zero";
  for (int i = 0; i < o->ndefines; i++) {
    argv[n++] = "-D";
    argv[n++] = o->defines[i];
  }
  for (int i = 0; i < o->nincludes; i++) {
    char *abs = absolute(o->includes[i]);
    if (!abs) return -1;
    owned[(*nowned)++] = abs;
    argv[n++] = "-I";
    argv[n++] = abs;
  }
  argv[n++] = "-o";
  argv[n++] = bc;
  argv[n++] = input;
  argv[n] = NULL;
  return n;
}

static void append_file(cc_buf *b, const char *path) {
  uint8_t *d = NULL;
  size_t n = 0;
  const vt_file_limit lim = {64ull << 20, "a compiler log", NULL};
  char msg[64];
  if (vt_read_file(path, lim, &d, &n, msg, sizeof msg) == 0) {
    cc_buf_add(b, (const char *)d, n);
    free(d);
  }
}

int cc_frontend(cc_ctx *c) {
  char input[4200], bc[4200], logp[4200];
  const char *cwd = NULL, *in = input;
  if (c->job->path) {
    in = c->job->path;
  } else {
    if (write_source(c, input, sizeof input) != 0) return -1;
    in = base_name(input);
    cwd = c->tmpdir;
  }
  snprintf(bc, sizeof bc, "%s/input.bc", c->tmpdir);
  snprintf(logp, sizeof logp, "%s/clang.log", c->tmpdir);
  const char *argv[MAX_ARGS];
  char *owned[CC_MAX_WORDS + 4];
  int nowned = 0;
  int rc = build_argv(c, in, bc, argv, owned, &nowned) < 0 ? -1 : 0;
  int status = rc ? -1 : run_program(argv, cwd, logp);
  int err = errno;
  for (int i = 0; i < nowned; i++) free(owned[i]);
  if (status < 0) {
    cc_buf_printf(&c->log, "vt cc: error: cannot run %s: %s\n", clang_path(), strerror(err));
    c->errors++;
    return -1;
  }
  append_file(&c->log, logp);
  if (status != 0) {
    c->errors++;
    return -1;
  }
  LLVMMemoryBufferRef mb;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(bc, &mb, &msg)) {
    cc_buf_printf(&c->log, "vt cc: error: cannot read clang's output: %s\n", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    c->errors++;
    return -1;
  }
  LLVMBool bad = LLVMParseBitcodeInContext2(c->llctx, mb, &c->mod);
  LLVMDisposeMemoryBuffer(mb);
  if (bad) {
    cc_buf_printf(&c->log, "vt cc: error: clang's bitcode does not load\n");
    c->errors++;
    return -1;
  }
  return 0;
}
