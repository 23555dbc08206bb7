/* vt run: execute test-vector launches (NAME.metadata + NAME.data) in order
 * on one session whose memory persists, then dump memory and print the
 * statistics. Options: docs/run.md; settings: docs/settings.md. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tools.h"
#include "util/parse.h"
#include "vt/counters.h"

#define MAX_DUMPS 64
#define MAX_FILES 256
#define OWNERS (VT_OWNER_DEVICE | VT_OWNER_TIMING | VT_OWNER_OUTPUT)

typedef struct run_opts {
  vt_settings s;
  bool dump_config, quiet;
  cli_dump dumps[MAX_DUMPS];
  unsigned ndumps, nelfs, nfiles;
  const char *elfs[16], *files[MAX_FILES];
} run_opts;

static void usage(FILE *f) {
  fprintf(f,
          "usage: vt run [options] A.metadata [B.metadata ...]\n"
          "Runs the launches in order (each NAME.data beside its NAME.metadata) on one device;\n"
          "memory persists between launches. ELF programs run with `vt launch`.\n\n"
          "options:\n"
          "  --dump ADDR:LEN:FILE   write LEN bytes of device memory at ADDR to FILE after the\n"
          "                         last launch (repeatable; hex 0x.. or decimal)\n"
          "  --elf FILE             load the PT_LOAD segments of an ELF program before the first\n"
          "                         launch (e.g. its .data/.rodata; repeatable)\n"
          "  -q, --quiet            no summary, no progress line\n"
          "settings (docs/settings.md):\n");
  cli_settings_usage(f, OWNERS);
}

/* one option of vt run itself: 1 consumed, 0 not one, -1 error */
static int own_option(run_opts *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) return o->quiet = true, 1;
  if (!strcmp(a, "--dump-config")) return o->dump_config = true, 1;
  bool dump = !strcmp(a, "--dump"), elf = !strcmp(a, "--elf");
  if (!dump && !elf) return 0;
  if (*i + 1 >= argc) {
    fprintf(stderr, "vt run: %s needs a value\n", a);
    return -1;
  }
  const char *v = argv[++*i];
  if (dump) return cli_dump_parse(o->dumps, &o->ndumps, MAX_DUMPS, "vt run", v) == 0 ? 1 : -1;
  if (o->nelfs == 16) {
    fprintf(stderr, "vt run: too many --elf files\n");
    return -1;
  }
  o->elfs[o->nelfs++] = v;
  return 1;
}

/* the options; 0, 1 (--help printed) or -1 */
static int parse(run_opts *o, int argc, char **argv) {
  vt_settings_default(&o->s);
  if (cli_load_configs(&o->s, "vt run", argc, argv) != 0) return -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) return usage(stdout), 1;
    int rc = own_option(o, argc, argv, &i);
    if (rc == 0) rc = cli_setting_option(&o->s, OWNERS, "vt run", argc, argv, &i);
    if (rc < 0) return -1;
    if (rc > 0) continue;
    if (a[0] == '-' && a[1]) {
      fprintf(stderr, "vt run: unknown option %s (vt help run lists them)\n", a);
      return -1;
    }
    if (o->nfiles == MAX_FILES) {
      fprintf(stderr, "vt run: too many launches\n");
      return -1;
    }
    o->files[o->nfiles++] = a;
  }
  if (o->quiet) o->s.progress = false;
  /* a configuration is printed as given; a run refuses options without effect */
  return o->dump_config ? 0 : cli_check_settings(&o->s, "vt run");
}

/* load the ELF files, run every launch; the vt_status of the first failure */
static int run_all(const run_opts *o, vt_session *s) {
  vt_error err;
  for (unsigned i = 0; i < o->nelfs; i++)
    if (vt_session_load_elf(s, o->elfs[i], &err) != VT_OK) {
      fprintf(stderr, "vt run: %s\n", err.message);
      return err.status;
    }
  for (unsigned i = 0; i < o->nfiles; i++)
    if (vt_session_run_testvec(s, o->files[i], &err) != VT_OK) {
      fprintf(stderr, "vt run: %s: %s\n", o->files[i], err.message);
      cli_report_failure(s, "vt run", err.status);
      return err.status;
    }
  return VT_OK;
}

int vt_cmd_run(int argc, char **argv) {
  run_opts *o = calloc(1, sizeof *o);
  if (!o) return 1;
  int status = parse(o, argc, argv);
  if (status != 0) {
    free(o);
    return status > 0 ? 0 : 2;
  }
  if (o->dump_config) {
    vt_settings_print(stdout, &o->s, OWNERS);
    free(o);
    return 0;
  }
  if (o->nfiles == 0 || cli_is_elf(o->files[0])) {
    if (o->nfiles) fprintf(stderr, "vt run: %s is an ELF program: run its kernels with "
                           "`vt launch %s --kernel NAME --global N ...`\n", o->files[0], o->files[0]);
    else usage(stderr);
    free(o);
    return 2;
  }
  vt_session *s;
  char msg[800];
  if (vt_session_new(&o->s, &s, msg, sizeof msg) != 0) {
    fprintf(stderr, "vt run: %s\n", msg);
    free(o);
    return 1;
  }
  vt_session_set_interrupt(s, cli_catch_interrupt());
  int rc = run_all(o, s);
  status = rc == VT_OK ? 0 : cli_exit_status(rc);
  if (rc == VT_OK && cli_dump_write(o->dumps, o->ndumps, s, "vt run") != 0) status = 1;
  if (vt_session_finish(s, msg, sizeof msg) != 0) {
    fprintf(stderr, "vt run: %s\n", msg);
    status = status ? status : 1;
  }
  if (!o->quiet && o->s.timing && rc == VT_OK) vt_session_report(s, stdout);
  if (!o->quiet) vt_session_summary(s, "vt run", stderr);
  vt_session_free(s);
  free(o);
  return status;
}
