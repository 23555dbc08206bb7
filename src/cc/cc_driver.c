/* vt_cc_run / vt_cc_compile: one compilation from OpenCL C text to a kernel
 * ELF (or assembly, or LLVM IR), in a private temporary directory and a
 * private LLVM context, so compilations are independent. */
#include <dirent.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc_internal.h"

static int make_tmpdir(cc_ctx *c) {
  const char *root = getenv("TMPDIR");
  if (!root || !*root) root = "/tmp";
  snprintf(c->tmpdir, sizeof c->tmpdir, "%s/vtcc.XXXXXX", root);
  if (!mkdtemp(c->tmpdir)) {
    cc_buf_printf(&c->log, "vt cc: error: cannot create a temporary directory in %s\n", root);
    c->tmpdir[0] = 0;
    return -1;
  }
  return 0;
}

static void remove_tmpdir(cc_ctx *c) {
  if (!c->tmpdir[0]) return;
  DIR *d = opendir(c->tmpdir);
  if (d) {
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char p[4400];
      snprintf(p, sizeof p, "%s/%s", c->tmpdir, e->d_name);
      remove(p);
    }
    closedir(d);
  }
  rmdir(c->tmpdir);
}

static int set_text_out(const char *text, uint8_t **out, size_t *size) {
  size_t n = strlen(text);
  *out = malloc(n + 1);
  if (!*out) return -1;
  memcpy(*out, text, n + 1);
  *size = n;
  return 0;
}

static int compile(cc_ctx *c, uint8_t **out, size_t *out_size) {
  if (cc_frontend(c) != 0 || cc_link_libraries(c) != 0 || cc_optimize(c) != 0) return -1;
  c->td = LLVMGetModuleDataLayout(c->mod);
  if (c->job->output == VT_CC_LLVM) {
    char *s = LLVMPrintModuleToString(c->mod);
    int rc = set_text_out(s, out, out_size);
    LLVMDisposeMessage(s);
    return rc;
  }
  cc_buf text = {0};
  int rc = cc_backend(c, &text);
  if (rc == 0 && text.oom) rc = -1;
  if (rc == 0) {
    if (c->job->output == VT_CC_ASM)
      rc = set_text_out(text.s ? text.s : "", out, out_size);
    else
      rc = cc_assemble(c, text.s ? text.s : "", out, out_size);
  }
  cc_buf_free(&text);
  return rc;
}

int vt_cc_run(const vt_cc_job *job, uint8_t **out, size_t *out_size, char **log) {
  cc_ctx c;
  memset(&c, 0, sizeof c);
  c.job = job;
  *out = NULL;
  *out_size = 0;
  int rc = -1;
  if (!job || (!job->path && !job->source)) {
    cc_buf_puts(&c.log, "vt cc: error: no input\n");
  } else if (cc_parse_options(job->argv, job->argc, &c.opts, &c.log) == 0) {
    c.display_name = job->path ? job->path : job->source_name ? job->source_name : "program.cl";
    if (make_tmpdir(&c) == 0) {
      c.llctx = LLVMContextCreate();
      rc = compile(&c, out, out_size);
      if (c.errors) rc = -1;
      if (c.mod) LLVMDisposeModule(c.mod);
      LLVMContextDispose(c.llctx);
      remove_tmpdir(&c);
    }
  }
  if (rc != 0) {
    free(*out);
    *out = NULL;
    *out_size = 0;
  }
  if (c.log.oom) rc = -1;
  if (log) *log = cc_buf_take(&c.log);
  cc_buf_free(&c.log);
  return rc;
}

int vt_cc_compile(const char *source, const char *options, uint8_t **elf, size_t *elf_size,
                  char **log) {
  const char *opts = options ? options : "";
  char *storage = malloc(strlen(opts) + 1);
  const char **words = malloc(sizeof *words * 2 * CC_MAX_WORDS);
  int n = storage && words ? cc_split_words(opts, storage, words, 2 * CC_MAX_WORDS) : -1;
  if (n < 0) {
    free(storage);
    free(words);
    *elf = NULL;
    *elf_size = 0;
    if (log) {
      const char *m = storage && words ? "vt cc: error: bad option string (unterminated quote or "
                                         "too many words)\n"
                                       : "vt cc: error: out of memory\n";
      *log = strdup(m);
    }
    return -1;
  }
  vt_cc_job job = {.source = source, .argv = words, .argc = n, .output = VT_CC_ELF};
  int rc = vt_cc_run(&job, elf, elf_size, log);
  free(storage);
  free(words);
  return rc;
}
