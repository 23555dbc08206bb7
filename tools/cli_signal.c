/* Ctrl-C during a run: the first SIGINT sets a flag that the session's run
 * loop polls, so the run stops cleanly with a warp dump and the statistics so
 * far (exit status 130); a second one ends the process as usual. The flag
 * is the command's (the library holds no global state). */
#include <string.h>

#include "cli.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig) {
  (void)sig;
  if (interrupted) {
    signal(SIGINT, SIG_DFL);
    raise(SIGINT);
  }
  interrupted = 1;
}

volatile sig_atomic_t *cli_catch_interrupt(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  return &interrupted;
}

int cli_exit_status(int vt_status) {
  if (vt_status == VT_ERR_INTERRUPTED) return 130;
  if (vt_status == VT_ERR_TIMEOUT) return 124;
  return 1;
}

void cli_report_failure(vt_session *s, const char *cmd, int vt_status) {
  const char *dump = vt_session_warp_dump(s);
  if (*dump) fprintf(stderr, "%s: live warps:\n%s", cmd, dump);
  if (vt_status == VT_ERR_INTERRUPTED || vt_status == VT_ERR_TIMEOUT) {
    fprintf(stderr, "%s: statistics so far:\n", cmd);
    vt_session_report(s, stderr);
  }
}
