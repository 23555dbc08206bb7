/* vt launch: run one kernel of an ELF program through the runtime
 * (include/vt_runtime.h) with arguments from the command line, save the
 * buffers, print the summary (docs/launch.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools.h"
#include "vt/sim.h"
#include "ventus.h"
#include "vt_runtime.h"
#include "util/parse.h"
#include "util/file.h"

#define MAX_ARGS 64

typedef enum { SPEC_IN, SPEC_OUT, SPEC_IO, SPEC_I32, SPEC_U32, SPEC_F32, SPEC_LOCAL } spec_kind;

typedef struct launch_arg {
  spec_kind kind;
  const char *text; /* the whole SPEC, for messages */
  const char *file;
  uint64_t size;
  uint32_t word;
  uint32_t addr; /* buffers */
} launch_arg;

static void usage(FILE *f) {
  fprintf(f,
          "usage: vt launch KERNEL.elf --kernel NAME --global X[,Y[,Z]] [options] [--arg SPEC ...]\n"
          "Runs one kernel of an ELF program (official toolchain or `vt as`) on the simulator\n"
          "through the runtime; the kernel's printf output goes to standard output.\n\n"
          "options:\n"
          "  --kernel NAME         kernel to run (default: the program's only kernel)\n"
          "  --global X[,Y[,Z]]    NDRange size; the number of values is the work dimension\n"
          "  --local X[,Y[,Z]]     workgroup size (default: chosen by the runtime)\n"
          "  --offset X[,Y[,Z]]    global offset (default 0)\n"
          "  --arg SPEC            the next kernel argument, in parameter order:\n"
          "                          in:FILE    buffer initialised with the file's bytes\n"
          "                          out:SIZE   zero-filled buffer of SIZE bytes\n"
          "                          io:FILE    like in:FILE (saved like any buffer)\n"
          "                          i32:V u32:V f32:V   32-bit by-value scalars\n"
          "                          local:SIZE __local buffer of SIZE bytes\n"
          "  --save DIR            after the run write each buffer argument K to DIR/argK.bin\n"
          "  --print-buffer BYTES  size of the printf buffer (default 1 MiB; 0: none)\n"
          "  --sms N, --warp-slots N, --threads N, --lds-bytes N, --simt-depth N, --max-insns N,\n"
          "  --config FILE         device configuration, as for vt run\n"
          "  --timing              run on the cycle-approximate timing model and print its\n"
          "                        report (FIN line and counters; docs/timing.md)\n"
          "  --preset P            timing parameters: ventus-2025 (default) or verilog-2024\n"
          "  --tcfg KEY=VALUE      set one timing parameter (repeatable)\n"
          "  -q, --quiet           no summary\n");
}

/* "X[,Y[,Z]]" -> v[0..n) */
static int parse_dims(const char *opt, const char *s, uint32_t v[3], unsigned *n) {
  char buf[256];
  snprintf(buf, sizeof buf, "%s", s);
  *n = 0;
  char *save = NULL;
  for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    uint64_t x;
    if (*n == 3 || vt_parse_u64(tok, &x) != 0 || x > 0xffffffffu) {
      fprintf(stderr, "vt launch: bad %s '%s' (expected 1 to 3 numbers X[,Y[,Z]])\n", opt, s);
      return -1;
    }
    v[(*n)++] = (uint32_t)x;
  }
  if (*n == 0 || s[strlen(s) - 1] == ',') {
    fprintf(stderr, "vt launch: bad %s '%s' (expected 1 to 3 numbers X[,Y[,Z]])\n", opt, s);
    return -1;
  }
  return 0;
}

static int parse_spec(const char *s, launch_arg *a) {
  memset(a, 0, sizeof *a);
  a->text = s;
  const char *colon = strchr(s, ':');
  if (!colon) goto bad;
  size_t kl = (size_t)(colon - s);
  const char *v = colon + 1;
  if (kl == 2 && !strncmp(s, "in", 2)) a->kind = SPEC_IN;
  else if (kl == 2 && !strncmp(s, "io", 2)) a->kind = SPEC_IO;
  else if (kl == 3 && !strncmp(s, "out", 3)) a->kind = SPEC_OUT;
  else if (kl == 3 && !strncmp(s, "i32", 3)) a->kind = SPEC_I32;
  else if (kl == 3 && !strncmp(s, "u32", 3)) a->kind = SPEC_U32;
  else if (kl == 3 && !strncmp(s, "f32", 3)) a->kind = SPEC_F32;
  else if (kl == 5 && !strncmp(s, "local", 5)) a->kind = SPEC_LOCAL;
  else goto bad;
  if (!*v) goto bad;
  char *end;
  switch (a->kind) {
  case SPEC_IN:
  case SPEC_IO:
    a->file = v;
    return 0;
  case SPEC_OUT:
  case SPEC_LOCAL:
    if (vt_parse_u64(v, &a->size) != 0 || a->size == 0 || a->size > 0x10000000u) {
      fprintf(stderr, "vt launch: --arg %s: size must be 1 to 268435456 bytes\n", s);
      return -1;
    }
    return 0;
  case SPEC_I32: {
    errno = 0;
    long long x = strtoll(v, &end, 0);
    if (errno || *end || x < INT32_MIN || x > INT32_MAX) {
      fprintf(stderr, "vt launch: --arg %s: not a 32-bit signed integer\n", s);
      return -1;
    }
    a->word = (uint32_t)(int32_t)x;
    return 0;
  }
  case SPEC_U32: {
    uint64_t x;
    if (vt_parse_u64(v, &x) != 0 || x > 0xffffffffu) {
      fprintf(stderr, "vt launch: --arg %s: not a 32-bit unsigned integer\n", s);
      return -1;
    }
    a->word = (uint32_t)x;
    return 0;
  }
  case SPEC_F32: {
    errno = 0;
    float f = strtof(v, &end);
    if (*end || end == v || (errno == ERANGE && isinf(f))) {
      fprintf(stderr, "vt launch: --arg %s: not a float\n", s);
      return -1;
    }
    memcpy(&a->word, &f, 4);
    return 0;
  }
  }
bad:
  fprintf(stderr,
          "vt launch: bad --arg '%s' (expected in:FILE, out:SIZE, io:FILE, i32:V, u32:V, f32:V "
          "or local:SIZE)\n",
          s);
  return -1;
}

static void *read_file(const char *path, uint64_t *size, char *msg, size_t msgn) {
  uint8_t *buf;
  size_t n;
  if (vt_read_file(path, VT_FILE_LIMIT_BUFFER, &buf, &n, msg, msgn)) return NULL;
  *size = n;
  return buf;
}

/* device options become the driver's environment variables (docs/driver.md),
 * checked here first so the message names the option */
static int device_option(const char *opt, const char *key, const char *env, const char *val) {
  vt_dev_config scratch;
  vt_dev_config_default(&scratch);
  char err[700];
  if (vt_dev_config_set(&scratch, key, val, opt, err, sizeof err) != 0) {
    fprintf(stderr, "vt launch: %s\n", err);
    return -1;
  }
  setenv(env, val, 1);
  return 0;
}

static int save_buffers(vt_rt *rt, const launch_arg *args, unsigned nargs, const char *dir) {
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

int vt_cmd_launch(int argc, char **argv) {
  const char *elf = NULL, *kernel = NULL, *save = NULL;
  uint32_t global[3] = {0, 0, 0}, local[3] = {0, 0, 0}, offset[3] = {0, 0, 0};
  unsigned nglobal = 0, nlocal = 0, noffset = 0, nargs = 0;
  launch_arg args[MAX_ARGS];
  bool quiet = false, timing = false;
  const char *preset = "ventus-2025";
  char tcfg[2048] = "";
  uint64_t print_size = VT_RT_DEFAULT_PRINT_SIZE;
  static const struct {
    const char *opt, *key, *env;
  } devopts[] = {{"--sms", "sms", "VT_SMS"},
                 {"--warp-slots", "warp_slots", "VT_WARP_SLOTS"},
                 {"--threads", "threads", "VT_THREADS"},
                 {"--lds-bytes", "lds_bytes", "VT_LDS_BYTES"},
                 {"--simt-depth", "simt_depth", "VT_SIMT_DEPTH"},
                 {"--max-insns", "max_insns", "VT_MAX_INSNS"}};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "--timing")) {
      timing = true;
      continue;
    }
    if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
      quiet = true;
      continue;
    }
    if (a[0] != '-' || !a[1]) {
      if (elf) {
        fprintf(stderr, "vt launch: more than one program ('%s' and '%s')\n", elf, a);
        return 2;
      }
      elf = a;
      continue;
    }
    if (!v) {
      fprintf(stderr, "vt launch: %s needs a value\n", a);
      return 2;
    }
    i++;
    int rc = 0;
    bool dev = false;
    for (size_t d = 0; d < sizeof devopts / sizeof devopts[0]; d++)
      if (!strcmp(a, devopts[d].opt)) {
        rc = device_option(a, devopts[d].key, devopts[d].env, v);
        dev = true;
      }
    if (dev) {
    } else if (!strcmp(a, "--kernel")) {
      kernel = v;
    } else if (!strcmp(a, "--global")) {
      rc = parse_dims(a, v, global, &nglobal);
    } else if (!strcmp(a, "--local")) {
      rc = parse_dims(a, v, local, &nlocal);
    } else if (!strcmp(a, "--offset")) {
      rc = parse_dims(a, v, offset, &noffset);
    } else if (!strcmp(a, "--arg")) {
      if (nargs == MAX_ARGS) {
        fprintf(stderr, "vt launch: more than %d arguments\n", MAX_ARGS);
        return 2;
      }
      rc = parse_spec(v, &args[nargs++]);
    } else if (!strcmp(a, "--save")) {
      save = v;
    } else if (!strcmp(a, "--print-buffer")) {
      if (vt_parse_u64(v, &print_size) != 0 || (print_size && print_size < 16) ||
          print_size > 0x10000000u) {
        fprintf(stderr, "vt launch: --print-buffer %s: 0, or 16 to 268435456 bytes\n", v);
        return 2;
      }
    } else if (!strcmp(a, "--preset")) {
      preset = v;
    } else if (!strcmp(a, "--tcfg")) {
      size_t used = strlen(tcfg);
      if (!strchr(v, '=') || strchr(v, ',') || used + strlen(v) + 2 > sizeof tcfg) {
        fprintf(stderr, "vt launch: bad --tcfg '%s' (expected KEY=VALUE)\n", v);
        return 2;
      }
      snprintf(tcfg + used, sizeof tcfg - used, "%s%s", used ? "," : "", v);
    } else if (!strcmp(a, "--config")) {
      struct stat sb;
      vt_dev_config scratch;
      char err[700];
      vt_dev_config_default(&scratch);
      if (stat(v, &sb) != 0 || vt_dev_config_load(&scratch, v, err, sizeof err) != 0) {
        if (stat(v, &sb) != 0) snprintf(err, sizeof err, "%s: %s", v, strerror(errno));
        fprintf(stderr, "vt launch: %s\n", err);
        return 2;
      }
      setenv("VT_CONFIG", v, 1);
    } else {
      fprintf(stderr, "vt launch: unknown option %s\n", a);
      return 2;
    }
    if (rc) return 2;
  }
  if (!elf) {
    usage(stderr);
    return 2;
  }
  if (!nglobal) {
    fprintf(stderr, "vt launch: --global is required\n");
    return 2;
  }
  if ((nlocal && nlocal != nglobal) || (noffset && noffset != nglobal)) {
    fprintf(stderr, "vt launch: --local and --offset need as many values as --global (%u)\n",
            nglobal);
    return 2;
  }

  if (timing) { /* the driver reads these (docs/driver.md) */
    setenv("VT_TIMING", preset, 1);
    if (tcfg[0]) setenv("VT_TCFG", tcfg, 1);
  } else if (tcfg[0] || strcmp(preset, "ventus-2025") != 0) {
    fprintf(stderr, "vt launch: --preset and --tcfg need --timing\n");
    return 2;
  }
  vt_rt_options opt;
  vt_rt_options_default(&opt);
  if (print_size == 0)
    opt.no_print_buffer = 1;
  else
    opt.print_buffer_size = (uint32_t)print_size;
  char msg[1024];
  vt_rt *rt;
  if (vt_rt_create(&opt, &rt, msg, sizeof msg) != 0) {
    fprintf(stderr, "vt launch: %s\n", msg);
    return 1;
  }
  int status = 1;
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  if (vt_rt_program_load_file(rt, elf, &p) != 0) goto rt_error;
  if (!kernel) {
    if (vt_rt_program_kernel_count(p) != 1) {
      fprintf(stderr, "vt launch: %s has %zu kernels; choose one with --kernel", elf,
              vt_rt_program_kernel_count(p));
      for (size_t i = 0; i < vt_rt_program_kernel_count(p); i++)
        fprintf(stderr, "%s%s", i ? ", " : " (", vt_rt_program_kernel_name(p, i));
      fprintf(stderr, "%s\n", vt_rt_program_kernel_count(p) ? ")" : "");
      status = 2;
      goto out;
    }
    kernel = vt_rt_program_kernel_name(p, 0);
  }
  if (vt_rt_kernel_create(p, kernel, &k) != 0) goto rt_error;
  if (vt_rt_kernel_set_num_args(k, nargs) != 0) goto rt_error;
  for (unsigned i = 0; i < nargs; i++) {
    launch_arg *a = &args[i];
    int rc = 0;
    if (a->kind == SPEC_IN || a->kind == SPEC_IO) {
      char msg[600];
      void *data = read_file(a->file, &a->size, msg, sizeof msg);
      if (!data) {
        fprintf(stderr, "vt launch: %s\n", msg);
        goto out;
      }
      if (a->size == 0) {
        fprintf(stderr, "vt launch: --arg %s: empty file\n", a->text);
        free(data);
        goto out;
      }
      rc = vt_rt_alloc(rt, a->size, &a->addr) || vt_rt_write(rt, a->addr, data, a->size) ||
           vt_rt_set_arg_buffer(k, i, a->addr, 0);
      free(data);
    } else if (a->kind == SPEC_OUT) {
      void *zero = calloc(1, a->size);
      if (!zero) {
        fprintf(stderr, "vt launch: out of memory\n");
        goto out;
      }
      rc = vt_rt_alloc(rt, a->size, &a->addr) || vt_rt_write(rt, a->addr, zero, a->size) ||
           vt_rt_set_arg_buffer(k, i, a->addr, 0);
      free(zero);
    } else if (a->kind == SPEC_LOCAL) {
      rc = vt_rt_set_arg_local(k, i, (uint32_t)a->size);
    } else {
      rc = vt_rt_set_arg_scalar(k, i, &a->word, 4);
    }
    if (rc) goto rt_error;
  }
  vt_rt_ndrange nd;
  memset(&nd, 0, sizeof nd);
  nd.dims = nglobal;
  memcpy(nd.global, global, sizeof global);
  memcpy(nd.local, local, sizeof local);
  memcpy(nd.offset, offset, sizeof offset);
  vt_rt_launch_info info;
  if (vt_rt_launch(k, &nd, &info) != 0) goto rt_error;
  if (save && save_buffers(rt, args, nargs, save) != 0) goto out;
  if (timing && vt_dump_perf(vt_rt_device(rt), stdout) != 0) {
    fprintf(stderr, "vt launch: %s\n", vt_last_error());
    goto out;
  }
  status = 0;
  goto out;
rt_error:
  fprintf(stderr, "vt launch: %s\n", vt_rt_error(rt));
out:
  if (!quiet && p && status != 2) {
    vt_rt_stats s;
    if (vt_rt_stats_get(rt, &s) == 0)
      fprintf(stderr,
              "vt launch: %llu launch(es), %llu workgroup(s), %llu warp-instructions, %llu "
              "thread-instructions, %.3f s host, %.2f M warp-insn/s\n",
              (unsigned long long)s.launches, (unsigned long long)s.workgroups,
              (unsigned long long)s.warp_insns, (unsigned long long)s.thread_insns,
              s.host_seconds,
              s.host_seconds > 0 ? (double)s.warp_insns / s.host_seconds / 1e6 : 0.0);
  }
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  vt_rt_destroy(rt);
  return status;
}
