/* vt launch: run one kernel of an ELF program through the runtime
 * (include/vt_runtime.h) with arguments from the command line, save the
 * buffers, print the geometry and the statistics (docs/launch.md). The
 * settings (docs/settings.md) reach the device through the runtime. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "launch.h"
#include "tools.h"
#include "util/parse.h"

#define MAX_ARGS 64

typedef struct launch_opts {
  vt_settings s;
  const char *elf, *kernel, *save;
  vt_rt_ndrange nd;
  unsigned nglobal, nlocal, noffset, nargs;
  launch_arg args[MAX_ARGS];
  bool quiet, dump_config;
} launch_opts;

static void usage(FILE *f) {
  fprintf(f,
          "usage: vt launch KERNEL.elf --kernel NAME --global X[,Y[,Z]] [options] [--arg SPEC ...]\n"
          "Runs one kernel of an ELF program (official toolchain or `vt as`) on the simulator\n"
          "through the runtime; the kernel's printf output goes to standard output.\n\n"
          "options:\n"
          "  --kernel NAME          kernel to run (default: the program's only kernel)\n"
          "  --global X[,Y[,Z]]     NDRange size; the number of values is the work dimension\n"
          "  --local X[,Y[,Z]]      workgroup size (default: chosen by the runtime, docs/runtime.md)\n"
          "  --offset X[,Y[,Z]]     global offset (default 0)\n"
          "  --arg SPEC             the next kernel argument, in parameter order:\n"
          "                           in:FILE    buffer initialised with the file's bytes\n"
          "                           out:SIZE   zero-filled buffer of SIZE bytes\n"
          "                           io:FILE    like in:FILE (saved like any buffer)\n"
          "                           i32:V u32:V f32:V   32-bit by-value scalars\n"
          "                           i64:V u64:V f64:V   64-bit by-value scalars\n"
          "                           local:SIZE __local buffer of SIZE bytes\n"
          "  --save DIR             after the run write each buffer argument K to DIR/argK.bin\n"
          "  -q, --quiet            no summary, no progress line\n"
          "settings (docs/settings.md):\n");
  cli_settings_usage(f, VT_OWNER_ALL);
}

/* one option of vt launch itself: 1 consumed, 0 not one, -1 error */
static int own_option(launch_opts *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) return o->quiet = true, 1;
  if (!strcmp(a, "--dump-config")) return o->dump_config = true, 1;
  static const char *const valued[] = {"--kernel", "--global", "--local", "--offset", "--arg", "--save"};
  int k = -1;
  for (int j = 0; j < 6; j++)
    if (!strcmp(a, valued[j])) k = j;
  if (k < 0) return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "vt launch: %s needs a value\n", a);
    return -1;
  }
  const char *v = argv[++*i];
  switch (k) {
  case 0: o->kernel = v; return 1;
  case 1: return launch_parse_dims(a, v, o->nd.global, &o->nglobal) == 0 ? 1 : -1;
  case 2: return launch_parse_dims(a, v, o->nd.local, &o->nlocal) == 0 ? 1 : -1;
  case 3: return launch_parse_dims(a, v, o->nd.offset, &o->noffset) == 0 ? 1 : -1;
  case 4:
    if (o->nargs == MAX_ARGS) {
      fprintf(stderr, "vt launch: more than %d arguments\n", MAX_ARGS);
      return -1;
    }
    return launch_parse_arg(v, &o->args[o->nargs++]) == 0 ? 1 : -1;
  default: o->save = v; return 1;
  }
}

static int check_shape(launch_opts *o) {
  if (!o->elf) {
    usage(stderr);
    return -1;
  }
  if (!o->nglobal) {
    fprintf(stderr, "vt launch: --global is required\n");
    return -1;
  }
  if ((o->nlocal && o->nlocal != o->nglobal) || (o->noffset && o->noffset != o->nglobal)) {
    fprintf(stderr, "vt launch: --local and --offset need as many values as --global (%u)\n",
            o->nglobal);
    return -1;
  }
  o->nd.dims = o->nglobal;
  return 0;
}

/* the options; 0, 1 (--help or --dump-config done) or -1 */
static int parse(launch_opts *o, int argc, char **argv) {
  vt_settings_default(&o->s);
  /* memory checking costs about 5 % (docs/run.md, Memory checking): on
   * unless a configuration file or --no-memcheck says otherwise */
  o->s.memcheck = true;
  if (cli_load_configs(&o->s, "vt launch", argc, argv) != 0) return -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout), 1;
    int rc = own_option(o, argc, argv, &i);
    if (rc == 0) rc = cli_setting_option(&o->s, VT_OWNER_ALL, "vt launch", argc, argv, &i);
    if (rc < 0) return -1;
    if (rc > 0) continue;
    if (a[0] == '-' && a[1]) {
      fprintf(stderr, "vt launch: unknown option %s (vt help launch lists them)\n", a);
      return -1;
    }
    if (o->elf) {
      fprintf(stderr, "vt launch: more than one program ('%s' and '%s')\n", o->elf, a);
      return -1;
    }
    o->elf = a;
  }
  if (o->quiet) o->s.progress = false;
  if (!o->dump_config && cli_check_settings(&o->s, "vt launch") != 0) return -1;
  if (o->dump_config) {
    vt_settings_print(stdout, &o->s, VT_OWNER_ALL);
    return 1;
  }
  return check_shape(o);
}

/* the kernel to run: --kernel, or the program's only one */
static const char *choose_kernel(const launch_opts *o, vt_rt_program *p) {
  if (o->kernel) return o->kernel;
  size_t n = vt_rt_program_kernel_count(p);
  if (n == 1) return vt_rt_program_kernel_name(p, 0);
  fprintf(stderr, "vt launch: %s has %zu kernels; choose one with --kernel", o->elf, n);
  for (size_t i = 0; i < n; i++) fprintf(stderr, "%s%s", i ? ", " : " (", vt_rt_program_kernel_name(p, i));
  fprintf(stderr, "%s\n", n ? ")" : "");
  return NULL;
}

/* load, set the arguments, launch, save; 0, 2 (usage) or a failure status */
static int run(launch_opts *o, vt_rt *rt) {
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  int status = 1;
  const char *name = NULL;
  vt_rt_launch_info info;
  if (vt_rt_program_load_file(rt, o->elf, &p) != 0) {
    fprintf(stderr, "vt launch: %s\n", vt_rt_error(rt));
  } else if (!(name = choose_kernel(o, p))) {
    status = 2;
  } else if (vt_rt_kernel_create(p, name, &k) != 0) {
    fprintf(stderr, "vt launch: %s\n", vt_rt_error(rt));
  } else if (launch_set_args(rt, k, o->args, o->nargs) == 0) {
    if (vt_rt_launch(k, &o->nd, &info) != 0) {
      int st = vt_session_last_status(vt_rt_session(rt));
      fprintf(stderr, "vt launch: %s\n", vt_rt_error(rt));
      cli_report_failure(vt_rt_session(rt), "vt launch", st);
      status = st ? cli_exit_status(st) : 1;
    } else {
      char geometry[256];
      if (!o->quiet && vt_rt_geometry_format(&info, geometry, sizeof geometry) > 0)
        fprintf(stderr, "vt launch: %s\n", geometry);
      status = o->save && launch_save(rt, o->args, o->nargs, o->save) != 0 ? 1 : 0;
    }
  }
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  return status;
}

int vt_cmd_launch(int argc, char **argv) {
  launch_opts *o = calloc(1, sizeof *o);
  if (!o) return 1;
  int status = parse(o, argc, argv);
  if (status != 0) {
    free(o);
    return status > 0 ? 0 : 2;
  }
  vt_rt_options opt;
  vt_rt_options_default(&opt);
  opt.settings = &o->s;
  char msg[1024];
  vt_rt *rt;
  if (vt_rt_create(&opt, &rt, msg, sizeof msg) != 0) {
    fprintf(stderr, "vt launch: %s\n", msg);
    free(o);
    return 1;
  }
  vt_session *s = vt_rt_session(rt);
  vt_session_set_interrupt(s, cli_catch_interrupt());
  status = run(o, rt);
  if (vt_session_finish(s, msg, sizeof msg) != 0) {
    fprintf(stderr, "vt launch: %s\n", msg);
    status = status ? status : 1;
  }
  if (status != 2 && !o->quiet) {
    if (o->s.timing && status == 0) vt_session_report(s, stdout);
    vt_session_summary(s, "vt launch", stderr);
  }
  vt_rt_destroy(rt);
  free(o);
  return status;
}
