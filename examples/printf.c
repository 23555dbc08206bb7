/* printf: runs the hello kernel (examples/kernels/hello.s, printing through
 * the device-side vt_printf of vtprintf.s and the runtime's print buffer),
 * shows what the kernel printed and checks it: the results out[i] = gid^2
 * and every expected line, exactly once (the order of lines from different
 * warps is the device's, so it is compared as a set).
 *
 * Usage: printf KERNEL.elf [N [LOCAL [THREADS]]] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_runtime.h"

typedef struct capture {
  char *text;
  size_t len, cap;
} capture;

static void collect(void *user, const char *text, size_t len) {
  capture *c = user;
  if (c->len + len + 1 > c->cap) {
    size_t cap = 2 * (c->len + len + 1);
    char *t = realloc(c->text, cap);
    if (!t) return;
    c->text = t;
    c->cap = cap;
  }
  memcpy(c->text + c->len, text, len);
  c->len += len;
  c->text[c->len] = 0;
}

/* removes one occurrence of line (with its '\n') from text; 0 if found */
static int take_line(char *text, const char *line) {
  size_t n = strlen(line);
  for (char *p = text; (p = strstr(p, line)) != NULL; p++) {
    if (p != text && p[-1] != '\n') continue;
    memmove(p, p + n, strlen(p + n) + 1);
    return 0;
  }
  return -1;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: printf KERNEL.elf [N [LOCAL [THREADS]]]\n");
    return 2;
  }
  unsigned n = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 0) : 16;
  unsigned local = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 0) : 8;
  unsigned threads = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 0) : 4;
  if (!n || !local || !threads || n % local || local % threads) {
    fprintf(stderr, "printf: N must be a multiple of LOCAL, LOCAL of THREADS\n");
    return 2;
  }
  capture cap = {0};
  vt_rt_options opt;
  vt_rt_options_default(&opt);
  opt.threads_per_warp = threads;
  opt.print_fn = collect;
  opt.print_user = &cap;
  char msg[512];
  vt_rt *rt;
  if (vt_rt_create(&opt, &rt, msg, sizeof msg) != 0) {
    fprintf(stderr, "printf: %s\n", msg);
    return 1;
  }
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  uint32_t out = 0;
  int *host = calloc(n, sizeof *host);
  int status = 1;
  vt_rt_ndrange nd = {.dims = 1, .global = {n}, .local = {local}};
  vt_rt_launch_info info;
  if (!host || vt_rt_program_load_file(rt, argv[1], &p) || vt_rt_kernel_create(p, "hello", &k) ||
      vt_rt_alloc(rt, 4u * n, &out) || vt_rt_set_arg_buffer(k, 0, out, 0) ||
      vt_rt_launch(k, &nd, &info) || vt_rt_read(rt, out, host, 4u * n)) {
    fprintf(stderr, "printf: %s\n", host ? vt_rt_error(rt) : "out of memory");
    goto done;
  }
  fputs(cap.text ? cap.text : "", stdout);
  unsigned bad = 0;
  char line[256];
  for (unsigned i = 0; i < n; i++) {
    unsigned sq = i * i;
    if ((unsigned)host[i] != sq && bad++ < 5) fprintf(stderr, "out[%u] = %d\n", i, host[i]);
    snprintf(line, sizeof line, "gid %u: square %u = 0x%x (%s), negated %d, warp %u\n", i, sq,
             sq, i % 2 ? "odd" : "even", -(int)i, (i % local) / threads);
    if (!cap.text || take_line(cap.text, line) != 0) {
      if (bad++ < 5) fprintf(stderr, "missing output line: %s", line);
    }
  }
  for (unsigned g = 0; g < n / local; g++) {
    snprintf(line, sizeof line, "[%c] workgroup %u: %u warp(s) x %u threads, 100%% ready\n",
             'A' + g, g, local / threads, threads);
    if (!cap.text || take_line(cap.text, line) != 0) {
      if (bad++ < 5) fprintf(stderr, "missing output line: %s", line);
    }
  }
  if (cap.text && cap.text[0]) {
    fprintf(stderr, "unexpected output: %s\n", cap.text);
    bad++;
  }
  printf("printf: %u work-items, %u bytes of output: %s\n", n, info.print_bytes,
         bad ? "WRONG" : "verified");
  status = bad ? 1 : 0;
done:
  free(host);
  free(cap.text);
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  vt_rt_destroy(rt);
  return status;
}
