/* Shared pieces of the vt sub-commands: settings options (cli_settings.c)
 * and Ctrl-C handling (cli_signal.c). */
#ifndef VT_TOOLS_CLI_H
#define VT_TOOLS_CLI_H
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "vt/session.h"
#include "vt/settings.h"

/* Load every '--config FILE' of argv first, so options override files. */
int cli_load_configs(vt_settings *s, const char *cmd, int argc, char **argv);
/* argv[*i] as a settings option of the owners: 1 consumed (*i advanced past
 * its value), 0 not one, -1 error (printed with the cmd prefix). */
int cli_setting_option(vt_settings *s, unsigned owners, const char *cmd, int argc, char **argv,
                       int *i);
/* After parsing: an option without effect in the chosen mode is an error. */
int cli_check_settings(const vt_settings *s, const char *cmd);
void cli_settings_usage(FILE *f, unsigned owners);

/* --dump ADDR:LEN:FILE of vt run and vt debug (cli_run.c) */
typedef struct cli_dump {
  uint32_t addr, len;
  const char *file;
} cli_dump;
/* Append one --dump value to d[*n] (at most max); 0 or -1 (printed). */
int cli_dump_parse(cli_dump *d, unsigned *n, unsigned max, const char *cmd, const char *arg);
/* Write every dump from the session's device memory; 0 or -1 (printed). */
int cli_dump_write(const cli_dump *d, unsigned n, vt_session *s, const char *cmd);
/* Is the file an ELF program (not a test vector)? */
bool cli_is_elf(const char *path);

/* Ctrl-C sets the returned flag instead of killing the process (give it to
 * vt_session_set_interrupt); a second Ctrl-C kills as usual. */
volatile sig_atomic_t *cli_catch_interrupt(void);
/* The exit status for a failed run: 130 interrupted, 124 time limit, else 1. */
int cli_exit_status(int vt_status);
/* After a failed launch: the warp dump and the statistics so far. */
void cli_report_failure(vt_session *s, const char *cmd, int vt_status);
#endif
