/* vt debug: run test vectors (as vt run) or one kernel of an ELF program
 * (as vt launch) under the debugger (include/vt/debug.h): an interactive
 * command line (docs/debug.md), a script (-x FILE or commands on standard
 * input), or the GDB remote protocol (--gdb [HOST:]PORT). The run stops
 * before its first instruction; faults, deadlocks and budget errors stop
 * at the faulting instruction. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "debug_input.h"
#include "launch.h"
#include "tools.h"
#include "vt/debug.h"

#define MAX_DUMPS 64
#define MAX_FILES 256
#define MAX_ARGS 64
#define CMD "vt debug"

typedef struct debug_opts {
  vt_settings s;
  const char *script;
  bool quiet, dump_config;
  /* test vectors, as vt run */
  const char *files[MAX_FILES], *elfs[16];
  unsigned nfiles, nelfs, ndumps;
  cli_dump dumps[MAX_DUMPS];
  /* an ELF program, as vt launch */
  const char *kernel, *save;
  vt_rt_ndrange nd;
  unsigned nglobal, nlocal, noffset, nargs;
  launch_arg args[MAX_ARGS];
} debug_opts;

/* the command-line front end */
typedef struct cli_frontend {
  debug_input *in;
  FILE *out;
  bool quit;
} cli_frontend;

/* a launch the user ended in the debugger (not a fault the user quit at):
 * no error, exit status 0 */
static bool user_quit(vt_session *s, int status) {
  vt_dbg *d = vt_session_debugger(s);
  return d && vt_dbg_quit_requested(d) && status == VT_ERR_INTERRUPTED;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: vt debug [options] A.metadata [B.metadata ...]\n"
          "       vt debug [options] KERNEL.elf --kernel NAME --global X[,Y[,Z]] [--arg SPEC ...]\n"
          "Runs test vectors (as vt run) or a kernel of an ELF program (as vt launch) under the\n"
          "debugger, stopped before the first instruction (docs/debug.md).\n\n"
          "options:\n"
          "  -x FILE                read the debugger's commands from FILE (standard input when\n"
          "                         it is not a terminal); the end of the commands quits\n"
          "  --gdb [HOST:]PORT      serve the GDB remote protocol instead (127.0.0.1 unless a\n"
          "                         host is given; port 0: any free port)\n"
          "  -q, --quiet            no summary line\n"
          "test vectors (vt help run): --dump ADDR:LEN:FILE, --elf FILE (its symbols and lines\n"
          "                         are the debugger's too)\n"
          "an ELF program (vt help launch): --kernel NAME, --global/--local/--offset X[,Y[,Z]],\n"
          "                         --arg SPEC, --save DIR\n"
          "settings (docs/settings.md):\n");
  cli_settings_usage(f, VT_OWNER_ALL);
}

static int valued_option(debug_opts *o, const char *a, const char *v) {
  if (!strcmp(a, "-x")) return o->script = v, 1;
  if (!strcmp(a, "--dump"))
    return cli_dump_parse(o->dumps, &o->ndumps, MAX_DUMPS, CMD, v) == 0 ? 1 : -1;
  if (!strcmp(a, "--elf")) {
    if (o->nelfs == 16) {
      fprintf(stderr, CMD ": too many --elf files\n");
      return -1;
    }
    return o->elfs[o->nelfs++] = v, 1;
  }
  if (!strcmp(a, "--kernel")) return o->kernel = v, 1;
  if (!strcmp(a, "--save")) return o->save = v, 1;
  if (!strcmp(a, "--global")) return launch_parse_dims(a, v, o->nd.global, &o->nglobal) ? -1 : 1;
  if (!strcmp(a, "--local")) return launch_parse_dims(a, v, o->nd.local, &o->nlocal) ? -1 : 1;
  if (!strcmp(a, "--offset")) return launch_parse_dims(a, v, o->nd.offset, &o->noffset) ? -1 : 1;
  if (!strcmp(a, "--arg")) {
    if (o->nargs == MAX_ARGS) {
      fprintf(stderr, CMD ": more than %d arguments\n", MAX_ARGS);
      return -1;
    }
    return launch_parse_arg(v, &o->args[o->nargs++]) == 0 ? 1 : -1;
  }
  return 0;
}

/* one option of vt debug itself: 1 consumed, 0 not one, -1 error */
static int own_option(debug_opts *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) return o->quiet = true, 1;
  if (!strcmp(a, "--dump-config")) return o->dump_config = true, 1;
  static const char *const valued[] = {"-x", "--dump", "--elf", "--kernel", "--save",
                                       "--global", "--local", "--offset", "--arg"};
  for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
    if (!strcmp(a, valued[k])) {
      if (*i + 1 >= argc) {
        fprintf(stderr, CMD ": %s needs a value\n", a);
        return -1;
      }
      return valued_option(o, a, argv[++*i]);
    }
  return 0;
}

/* the options; 0, 1 (--help or --dump-config done) or -1 */
static int parse(debug_opts *o, int argc, char **argv) {
  vt_settings_default(&o->s);
  if (cli_load_configs(&o->s, CMD, argc, argv) != 0) return -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout), 1;
    int rc = own_option(o, argc, argv, &i);
    if (rc == 0) rc = cli_setting_option(&o->s, VT_OWNER_ALL, CMD, argc, argv, &i);
    if (rc < 0) return -1;
    if (rc > 0) continue;
    if (a[0] == '-' && a[1]) {
      fprintf(stderr, CMD ": unknown option %s (vt help debug lists them)\n", a);
      return -1;
    }
    if (o->nfiles == MAX_FILES) {
      fprintf(stderr, CMD ": too many files\n");
      return -1;
    }
    o->files[o->nfiles++] = a;
  }
  if (o->dump_config) {
    vt_settings_print(stdout, &o->s, VT_OWNER_ALL);
    return 1;
  }
  if (o->s.timing) {
    fprintf(stderr, CMD ": the debugger runs the functional model (no --timing)\n");
    return -1;
  }
  o->s.progress = false;
  if (cli_check_settings(&o->s, CMD) != 0) return -1;
  if (o->nfiles == 0) {
    usage(stderr);
    return -1;
  }
  return 0;
}

/* ---- the command-line front end ---- */

/* commands until one resumes (0) or quits (-1) */
static int cli_commands(cli_frontend *c, vt_dbg *d) {
  for (;;) {
    fflush(c->out);
    const char *line = debug_input_line(c->in);
    if (!line) {
      c->quit = true;
      return -1;
    }
    vt_dbg_cmd_result r = vt_dbg_command(d, line, c->out);
    if (r == VT_DBG_RESUME) return 0;
    if (r == VT_DBG_QUIT) {
      c->quit = true;
      return -1;
    }
  }
}

static int cli_stopped(void *ctx, vt_dbg *d) {
  cli_frontend *c = ctx;
  vt_dbg_print_stop(d, c->out);
  return cli_commands(c, d);
}

static void cli_notice(void *ctx, vt_dbg *d, const char *text) {
  (void)d;
  cli_frontend *c = ctx;
  fprintf(c->out, "[%s]\n", text);
}

static void cli_ended(void *ctx, vt_dbg *d, int status) {
  (void)status;
  cli_frontend *c = ctx;
  if (c->quit) return;
  vt_dbg_print_stop(d, c->out);
  cli_commands(c, d);
}

/* ---- running ---- */

/* test vectors on a session; the vt_status of the first failure */
static int run_vectors(const debug_opts *o, vt_session *s) {
  vt_dbg *d = vt_session_debugger(s);
  vt_error err;
  char msg[600];
  for (unsigned i = 0; i < o->nelfs; i++) {
    if (vt_session_load_elf(s, o->elfs[i], &err) != VT_OK) {
      fprintf(stderr, CMD ": %s\n", err.message);
      return err.status;
    }
    if (d && vt_dbg_load_program(d, o->elfs[i], msg, sizeof msg) != 0)
      fprintf(stderr, CMD ": warning: %s\n", msg);
  }
  for (unsigned i = 0; i < o->nfiles; i++)
    if (vt_session_run_testvec(s, o->files[i], &err) != VT_OK) {
      if (!user_quit(s, err.status)) fprintf(stderr, CMD ": %s: %s\n", o->files[i], err.message);
      return err.status;
    }
  return VT_OK;
}

/* the kernel to run: --kernel, or the program's only one */
static const char *choose_kernel(const debug_opts *o, vt_rt_program *p) {
  if (o->kernel) return o->kernel;
  if (vt_rt_program_kernel_count(p) == 1) return vt_rt_program_kernel_name(p, 0);
  fprintf(stderr, CMD ": %s has %zu kernels; choose one with --kernel\n", o->files[0],
          vt_rt_program_kernel_count(p));
  return NULL;
}

/* one kernel through the runtime; a vt_status (VT_ERR_ARG: set-up failed) */
static int run_kernel(debug_opts *o, vt_rt *rt) {
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  const char *name = NULL;
  vt_rt_launch_info info;
  int rc = VT_ERR_ARG;
  if (vt_rt_program_load_file(rt, o->files[0], &p) != 0) {
    fprintf(stderr, CMD ": %s\n", vt_rt_error(rt));
  } else if ((name = choose_kernel(o, p)) && vt_rt_kernel_create(p, name, &k) != 0) {
    fprintf(stderr, CMD ": %s\n", vt_rt_error(rt));
  } else if (k && launch_set_args(rt, k, o->args, o->nargs) == 0) {
    if (vt_rt_launch(k, &o->nd, &info) != 0) {
      rc = vt_session_last_status(vt_rt_session(rt));
      if (!user_quit(vt_rt_session(rt), rc)) fprintf(stderr, CMD ": %s\n", vt_rt_error(rt));
      if (rc == VT_OK) rc = VT_ERR_ARG;
    } else {
      rc = o->save && launch_save(rt, o->args, o->nargs, o->save) != 0 ? VT_ERR_ARG : VT_OK;
    }
  }
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  return rc;
}

static bool launch_mode(const debug_opts *o) {
  return o->kernel || o->nglobal || o->nargs || (o->nfiles == 1 && cli_is_elf(o->files[0]));
}

/* the session (own, or the runtime's in launch mode) and its debugger */
typedef struct debug_run {
  vt_session *s;
  vt_rt *rt;
  vt_dbg *d; /* the command line's; NULL with --gdb (the session has its own) */
} debug_run;

static int open_run(debug_opts *o, debug_run *r, const vt_dbg_frontend *fe) {
  char msg[1024];
  if (launch_mode(o)) {
    if (!o->nglobal || o->nfiles != 1 || (o->nlocal && o->nlocal != o->nglobal) ||
        (o->noffset && o->noffset != o->nglobal)) {
      fprintf(stderr, CMD ": an ELF program needs one file, --global, and --local/--offset "
                      "with as many values\n");
      return -1;
    }
    o->nd.dims = o->nglobal;
    vt_rt_options opt;
    vt_rt_options_default(&opt);
    opt.settings = &o->s;
    if (vt_rt_create(&opt, &r->rt, msg, sizeof msg) != 0) {
      fprintf(stderr, CMD ": %s\n", msg);
      return -1;
    }
    r->s = vt_rt_session(r->rt);
  } else if (vt_session_new(&o->s, &r->s, msg, sizeof msg) != 0) {
    fprintf(stderr, CMD ": %s\n", msg);
    return -1;
  }
  if (!o->s.gdb[0]) { /* with --gdb the session has made its own (the setting gdb) */
    r->d = vt_dbg_new(vt_session_device(r->s), fe);
    if (!r->d || vt_session_set_debugger(r->s, r->d) != 0) {
      fprintf(stderr, CMD ": out of memory\n");
      return -1;
    }
  }
  vt_dbg *d = vt_session_debugger(r->s);
  if (d && launch_mode(o) && cli_is_elf(o->files[0]) &&
      vt_dbg_load_program(d, o->files[0], msg, sizeof msg) != 0)
    fprintf(stderr, CMD ": warning: %s\n", msg);
  return 0;
}

static void close_run(debug_run *r) {
  if (r->s && r->d) vt_session_set_debugger(r->s, NULL);
  vt_dbg_free(r->d);
  if (r->rt) vt_rt_destroy(r->rt);
  else vt_session_free(r->s);
}

static int debug(debug_opts *o, cli_frontend *c) {
  vt_dbg_frontend fe = {cli_stopped, NULL, cli_notice, cli_ended, c};
  debug_run r = {0};
  volatile sig_atomic_t *intr = cli_catch_interrupt();
  if (open_run(o, &r, &fe) != 0) {
    close_run(&r);
    return 2;
  }
  if (r.d) vt_dbg_set_interrupt(r.d, intr);
  else vt_session_set_interrupt(r.s, intr);
  int rc = r.rt ? run_kernel(o, r.rt) : run_vectors(o, r.s);
  bool quit = user_quit(r.s, rc);
  int status = rc == VT_OK || quit ? 0 : rc == VT_ERR_ARG && r.rt ? 1 : cli_exit_status(rc);
  if (rc == VT_OK && !r.rt && cli_dump_write(o->dumps, o->ndumps, r.s, CMD) != 0) status = 1;
  char msg[800];
  if (vt_session_finish(r.s, msg, sizeof msg) != 0) {
    fprintf(stderr, CMD ": %s\n", msg);
    status = status ? status : 1;
  }
  if (r.d && !o->quiet) vt_dbg_summary(r.d, c->out);
  if (!o->quiet) vt_session_summary(r.s, CMD, stderr);
  close_run(&r);
  return status;
}

int vt_cmd_debug(int argc, char **argv) {
  debug_opts *o = calloc(1, sizeof *o);
  if (!o) return 1;
  int status = parse(o, argc, argv);
  if (status != 0) {
    free(o);
    return status > 0 ? 0 : 2;
  }
  cli_frontend c = {NULL, stdout, false};
  if (!o->s.gdb[0] && !(c.in = debug_input_open(o->script, stdout, cli_catch_interrupt()))) {
    fprintf(stderr, CMD ": %s: cannot read\n", o->script ? o->script : "standard input");
    free(o);
    return 2;
  }
  if (c.in && !debug_input_interactive(c.in)) setvbuf(stdout, NULL, _IOLBF, 0);
  status = debug(o, &c);
  debug_input_close(c.in);
  free(o);
  return status;
}
