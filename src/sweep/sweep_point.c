/* One point of a sweep as a child process: `vt launch ...` / `vt run ...`
 * started in the point's folder (DIR/points/N) with its argument vector
 * (no shell), standard output and error to files there; when it ends, its
 * status, verification, statistics, host time and peak RSS become
 * result.json (written atomically: a point is recorded whole or not). */
#define _DEFAULT_SOURCE /* prctl, and dirent types */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep_row.h"
#include "util/file.h"

/* remove a point folder's previous contents (no symlink is followed) */
static void clear_tree(const char *path, bool remove_self) {
  DIR *d = opendir(path);
  if (d) {
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
      char child[4400];
      struct stat sb;
      snprintf(child, sizeof child, "%s/%s", path, e->d_name);
      if (lstat(child, &sb) == 0 && S_ISDIR(sb.st_mode)) clear_tree(child, true);
      else unlink(child);
    }
    closedir(d);
  }
  if (remove_self) rmdir(path);
}

/* in the child: only async-signal-safe calls until exec */
static void exec_child(const char *dir, int out, int err, char *const argv[], pid_t parent) {
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  prctl(PR_SET_PDEATHSIG, SIGKILL); /* a killed sweep takes its points along */
  if (getppid() != parent) _exit(126);
  int in = open("/dev/null", O_RDONLY);
  if (in < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0 || chdir(dir) != 0) _exit(126);
  execv(argv[0], argv);
  static const char msg[] = "vt sweep: cannot execute the vt program\n";
  if (write(2, msg, sizeof msg - 1) < 0) _exit(127);
  _exit(127);
}

int sweep_point_start(const sweep_plan *p, unsigned index, sweep_child *c, char *err, size_t errn) {
  const sweep_point *pt = &p->points[index];
  char dir[4200], path[4300];
  sweep_point_dir(p, index, dir, sizeof dir);
  if (sweep_mkdirs(dir, err, errn)) return -1;
  clear_tree(dir, false);
  char **argv = calloc(pt->argv.n + 2, sizeof *argv);
  if (!argv) return snprintf(err, errn, "out of memory"), -1;
  argv[0] = p->vt;
  memcpy(argv + 1, pt->argv.v, pt->argv.n * sizeof *argv);
  snprintf(path, sizeof path, "%s/stdout", dir);
  int out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  snprintf(path, sizeof path, "%s/stderr", dir);
  int errfd = out < 0 ? -1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  pid_t parent = getpid(), pid = errfd < 0 ? -1 : fork();
  if (pid == 0) exec_child(dir, out, errfd, argv, parent);
  int e = errno;
  if (out >= 0) close(out);
  if (errfd >= 0) close(errfd);
  free(argv);
  if (pid < 0) {
    snprintf(err, errn, "%s: cannot start the point: %s", dir, strerror(e));
    return -1;
  }
  c->pid = pid;
  c->index = index;
  c->start = sweep_now();
  c->deadline = pt->timeout ? c->start + pt->timeout + 10 : 0; /* vt stops itself at timeout */
  c->killed = false;
  return pid;
}

/* the simulator's message: the first "vt ...: " line of its standard error */
static void error_message(const char *dir, char *msg, size_t n) {
  char path[4300];
  uint8_t *text;
  size_t len;
  snprintf(path, sizeof path, "%s/stderr", dir);
  if (vt_read_file(path, (vt_file_limit){64u << 20, "a point's stderr", NULL}, &text, &len, NULL, 0))
    return;
  char *s = (char *)text, *last = NULL;
  for (char *line = s; line && *line;) {
    char *nl = strchr(line, '\n');
    if (nl) *nl = 0;
    if (!strncmp(line, "vt ", 3) && strstr(line, ": ")) {
      snprintf(msg, n, "%s", line);
      free(text);
      return;
    }
    if (*line) last = line;
    line = nl ? nl + 1 : NULL;
  }
  if (last) snprintf(msg, n, "%s", last);
  free(text);
}

static sweep_status classify(const sweep_child *c, int ws, const char *dir, unsigned timeout,
                             sweep_row *r) {
  if (WIFSIGNALED(ws)) {
    int sig = WTERMSIG(ws);
    r->exit_status = -sig;
    if (c->killed) {
      snprintf(r->message, sizeof r->message, "killed %u s after its time limit of %u s", 10, timeout);
      return SWEEP_TIMEOUT;
    }
    if (sig == SIGINT || sig == SIGTERM || sig == SIGKILL || sig == SIGHUP) return SWEEP_INTERRUPTED;
    snprintf(r->message, sizeof r->message, "vt ended by signal %d (%s)", sig, strsignal(sig));
    return SWEEP_ERROR;
  }
  r->exit_status = WEXITSTATUS(ws);
  switch (r->exit_status) {
  case 0: return SWEEP_OK;
  case 130: return SWEEP_INTERRUPTED;
  case 124: snprintf(r->message, sizeof r->message, "time limit of %u s", timeout); return SWEEP_TIMEOUT;
  default:
    snprintf(r->message, sizeof r->message, "exit status %d", r->exit_status);
    error_message(dir, r->message, sizeof r->message);
    return SWEEP_ERROR;
  }
}

sweep_status sweep_point_finish(const sweep_plan *p, const sweep_child *c, int wstatus,
                                long maxrss_kb, double end, char *err, size_t errn) {
  const sweep_point *pt = &p->points[c->index];
  char dir[4200];
  sweep_point_dir(p, c->index, dir, sizeof dir);
  sweep_row r;
  sweep_row_init(&r, pt);
  r.host_time = end - c->start;
  r.peak_rss_kb = maxrss_kb;
  r.status = classify(c, wstatus, dir, pt->timeout, &r);
  if (r.status == SWEEP_INTERRUPTED) return r.status;
  if (r.status == SWEEP_OK && sweep_verify(pt, dir, r.message, sizeof r.message) != 0)
    r.status = SWEEP_VERIFY_FAILED;
  sweep_row_read_stats(&r, dir);
  int rc = sweep_row_write(&r, dir, err, errn);
  sweep_row_free(&r);
  return rc ? SWEEP_MISSING : r.status;
}
