/* Verification of a finished point (docs/sweep.md, "Verifying outputs"):
 * each 'expect' file must equal what the run produced byte for byte, then
 * the 'check' program (if any) must exit with 0; it runs in the point's
 * folder with its arguments as given (no shell), its output in check.out. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep_row.h"
#include "util/file.h"

static int compare(const sweep_expect *e, const char *dir, char *msg, size_t n) {
  char path[4300];
  uint8_t *got = NULL, *want = NULL;
  size_t glen, wlen;
  snprintf(path, sizeof path, "%s/%s", dir, e->produced);
  if (vt_read_file(path, VT_FILE_LIMIT_DATA, &got, &glen, NULL, 0)) {
    snprintf(msg, n, "%s: not written by the run", e->produced);
    return -1;
  }
  int rc = 0;
  if (vt_read_file(e->expected, VT_FILE_LIMIT_DATA, &want, &wlen, msg, n)) {
    rc = -1;
  } else {
    size_t i = 0;
    while (i < glen && i < wlen && got[i] == want[i]) i++;
    if (i < glen || i < wlen) {
      if (glen != wlen && i == (glen < wlen ? glen : wlen))
        snprintf(msg, n, "%s has %zu bytes, %s %zu", e->produced, glen, e->expected, wlen);
      else
        snprintf(msg, n, "%s differs from %s at byte %zu (0x%02x, expected 0x%02x)", e->produced,
                 e->expected, i, got[i], want[i]);
      rc = -1;
    }
  }
  free(got);
  free(want);
  return rc;
}

static int run_check(const sweep_point *pt, const char *dir, char *msg, size_t n) {
  char out[4300];
  snprintf(out, sizeof out, "%s/check.out", dir);
  int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    snprintf(msg, n, "%s: cannot be written", out);
    return -1;
  }
  pid_t pid = fork();
  if (pid == 0) {
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int in = open("/dev/null", O_RDONLY);
    if (in < 0 || dup2(in, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0 || chdir(dir) != 0) _exit(126);
    execvp(pt->check.v[0], pt->check.v);
    _exit(127);
  }
  close(fd);
  int ws = 0;
  while (pid > 0 && waitpid(pid, &ws, 0) < 0)
    if (errno != EINTR) {
      pid = -1;
      break;
    }
  if (pid > 0 && WIFEXITED(ws) && WEXITSTATUS(ws) == 0) return 0;
  if (pid < 0) snprintf(msg, n, "check %s could not start", pt->check.v[0]);
  else if (WIFEXITED(ws) && WEXITSTATUS(ws) == 127)
    snprintf(msg, n, "check %s: program not found", pt->check.v[0]);
  else if (WIFEXITED(ws))
    snprintf(msg, n, "check %s failed with exit status %d (check.out)", pt->check.v[0], WEXITSTATUS(ws));
  else
    snprintf(msg, n, "check %s ended by signal %d", pt->check.v[0], WTERMSIG(ws));
  return -1;
}

int sweep_verify(const sweep_point *pt, const char *dir, char *msg, size_t n) {
  for (size_t i = 0; i < pt->nexpect; i++)
    if (compare(&pt->expect[i], dir, msg, n)) return -1;
  return pt->check.n ? run_check(pt, dir, msg, n) : 0;
}
