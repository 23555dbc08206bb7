/* Running other programs (sbatch, squeue, sacct, launchers) with their
 * arguments as an argument vector, never through a shell. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sweep_exec.h"

#define CAPTURE_MAX (1u << 20)

int sweep_spawn(char *const argv[], const char *cwd, int out_fd, int err_fd) {
  pid_t pid = fork();
  if (pid != 0) return pid;
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  int in = open("/dev/null", O_RDONLY);
  if (in < 0 || dup2(in, 0) < 0 || (out_fd >= 0 && dup2(out_fd, 1) < 0) ||
      (err_fd >= 0 && dup2(err_fd, 2) < 0) || (cwd && chdir(cwd) != 0))
    _exit(126);
  execvp(argv[0], argv);
  _exit(127);
}

int sweep_wait(int pid) {
  int ws;
  while (waitpid(pid, &ws, 0) < 0)
    if (errno != EINTR) return -1;
  if (WIFEXITED(ws)) return WEXITSTATUS(ws);
  return 128 + WTERMSIG(ws);
}

int sweep_capture(char *const argv[], const char *cwd, char **out) {
  int fds[2];
  *out = NULL;
  if (pipe(fds) != 0) return -1;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  pid_t pid = sweep_spawn(argv, cwd, fds[1], fds[1]);
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    return -1;
  }
  size_t n = 0, cap = 4096;
  char *buf = malloc(cap);
  for (ssize_t r = 1; buf && r != 0;) {
    if (n + 1 >= cap && cap < CAPTURE_MAX) {
      char *b = realloc(buf, cap * 2);
      if (!b) break;
      buf = b;
      cap *= 2;
    }
    size_t room = cap - n - 1;
    char sink[4096];
    r = read(fds[0], room ? buf + n : sink, room ? room : sizeof sink);
    if (r < 0 && errno == EINTR) r = 1;
    else if (r < 0) break;
    else if (room) n += (size_t)r;
  }
  close(fds[0]);
  if (buf) buf[n] = 0;
  *out = buf;
  return sweep_wait(pid);
}
