/* The kernel arguments of vt launch: --arg SPEC parsing, setting them on the
 * kernel (buffers allocated and filled through the runtime) and saving the
 * buffers after the run (docs/launch.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "launch.h"
#include "launch_scalar.h"
#include "util/file.h"
#include "util/parse.h"

/* "X[,Y[,Z]]" -> v[0..n): 1 to 3 numbers, no empty field, none zero */
int launch_parse_dims(const char *opt, const char *s, uint32_t v[3], unsigned *n) {
  *n = 0;
  const char *p = s;
  for (;;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    char tok[32];
    uint64_t x;
    if (*n == 3 || len == 0 || len >= sizeof tok) goto bad;
    memcpy(tok, p, len);
    tok[len] = 0;
    if (vt_parse_u64(tok, &x) != 0 || x == 0 || x > 0xffffffffu) goto bad;
    v[(*n)++] = (uint32_t)x;
    if (!e) return 0;
    p = e + 1;
  }
bad:
  fprintf(stderr, "vt launch: bad %s '%s' (expected 1 to 3 numbers X[,Y[,Z]], each at least 1)\n",
          opt, s);
  return -1;
}

int launch_parse_arg(const char *s, launch_arg *a) {
  memset(a, 0, sizeof *a);
  a->text = s;
  const char *colon = strchr(s, ':');
  if (!colon || !colon[1]) goto bad;
  size_t kl = (size_t)(colon - s);
  const char *v = colon + 1;
  if (kl == 2 && !strncmp(s, "in", 2)) a->kind = SPEC_IN;
  else if (kl == 2 && !strncmp(s, "io", 2)) a->kind = SPEC_IO;
  else if (kl == 3 && !strncmp(s, "out", 3)) a->kind = SPEC_OUT;
  else if (vt_launch_scalar_size(s, kl)) a->kind = SPEC_SCALAR;
  else if (kl == 5 && !strncmp(s, "local", 5)) a->kind = SPEC_LOCAL;
  else goto bad;
  if (a->kind == SPEC_IN || a->kind == SPEC_IO) {
    a->file = v;
    return 0;
  }
  if (a->kind == SPEC_SCALAR) {
    const char *what = "";
    a->size = vt_launch_scalar_size(s, kl);
    if (vt_launch_parse_scalar(s, kl, v, a->value, &what) == 0) return 0;
    fprintf(stderr, "vt launch: --arg %s: not %s\n", s, what);
    return -1;
  }
  if (vt_parse_u64(v, &a->size) != 0 || a->size == 0 || a->size > 0x10000000u) {
    fprintf(stderr, "vt launch: --arg %s: size must be 1 to 268435456 bytes\n", s);
    return -1;
  }
  return 0;
bad:
  fprintf(stderr,
          "vt launch: bad --arg '%s' (expected in:FILE, out:SIZE, io:FILE, i32:V, u32:V, f32:V, "
          "i64:V, u64:V, f64:V or local:SIZE)\n",
          s);
  return -1;
}

/* a buffer argument: allocated, filled with the file's bytes or zeros */
static int set_buffer(vt_rt *rt, vt_rt_kernel *k, unsigned i, launch_arg *a) {
  vt_file_view in = {0};
  uint8_t *zero = NULL;
  const uint8_t *data;
  if (a->kind == SPEC_OUT) {
    data = zero = calloc(1, a->size);
  } else {
    char msg[600];
    if (vt_file_view_open(a->file, VT_FILE_LIMIT_BUFFER, &in, msg, sizeof msg)) {
      fprintf(stderr, "vt launch: --arg %s: %s\n", a->text, msg);
      return -1;
    }
    if (in.len == 0) {
      fprintf(stderr, "vt launch: --arg %s: empty file\n", a->text);
      vt_file_view_close(&in);
      return -1;
    }
    data = in.data;
    a->size = in.len;
  }
  if (!data) {
    fprintf(stderr, "vt launch: out of memory\n");
    return -1;
  }
  int rc = vt_rt_alloc(rt, a->size, &a->addr) || vt_rt_write(rt, a->addr, data, a->size) ||
           vt_rt_set_arg_buffer(k, i, a->addr, 0);
  free(zero);
  vt_file_view_close(&in);
  if (rc) fprintf(stderr, "vt launch: %s\n", vt_rt_error(rt));
  return rc ? -1 : 0;
}

int launch_set_args(vt_rt *rt, vt_rt_kernel *k, launch_arg *args, unsigned nargs) {
  if (vt_rt_kernel_set_num_args(k, nargs) != 0) {
    fprintf(stderr, "vt launch: %s\n", vt_rt_error(rt));
    return -1;
  }
  for (unsigned i = 0; i < nargs; i++) {
    launch_arg *a = &args[i];
    int rc = 0;
    if (a->kind == SPEC_IN || a->kind == SPEC_IO || a->kind == SPEC_OUT) {
      if (set_buffer(rt, k, i, a) != 0) return -1;
      continue;
    }
    if (a->kind == SPEC_LOCAL) rc = vt_rt_set_arg_local(k, i, (uint32_t)a->size);
    else rc = vt_rt_set_arg_scalar(k, i, a->value, a->size);
    if (rc) {
      fprintf(stderr, "vt launch: %s\n", vt_rt_error(rt));
      return -1;
    }
  }
  return 0;
}

int launch_save(vt_rt *rt, const launch_arg *args, unsigned nargs, const char *dir) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "vt launch: --save %s: %s\n", dir, strerror(errno));
    return -1;
  }
  for (unsigned i = 0; i < nargs; i++) {
    const launch_arg *a = &args[i];
    if (a->kind != SPEC_IN && a->kind != SPEC_OUT && a->kind != SPEC_IO) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/arg%u.bin", dir, i);
    void *buf = malloc(a->size);
    if (!buf) {
      fprintf(stderr, "vt launch: out of memory\n");
      return -1;
    }
    if (vt_rt_read(rt, a->addr, buf, a->size) != 0) {
      fprintf(stderr, "vt launch: %s\n", vt_rt_error(rt));
      free(buf);
      return -1;
    }
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(buf, 1, a->size, f) == a->size;
    if (f && fclose(f) != 0) ok = 0;
    free(buf);
    if (!ok) {
      fprintf(stderr, "vt launch: %s: cannot write\n", path);
      return -1;
    }
  }
  return 0;
}
