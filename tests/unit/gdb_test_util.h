/* Helpers for the GDB stub tests: start `vt debug --gdb ADDRESS` in the
 * background with stderr in a file, read the port it chose from its
 * "listening on" line (port 0: the kernel picks a free one, so parallel
 * tests cannot collide), and speak the remote serial protocol over a
 * socket. */
#ifndef VT_GDB_TEST_UTIL_H
#define VT_GDB_TEST_UTIL_H
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include "debug_test_util.h"

typedef struct gt_server {
  pid_t pid;
  unsigned port;
  char err_file[64];
} gt_server;

/* vt CMD ARGS (a NULL-terminated list) with stdout/stderr in NAME.out and
 * NAME.err; waits up to 10 s for the port */
static inline bool gt_start_cmd(gt_server *s, const char *name, const char *cmd,
                                const char *const *args) {
  char out[64];
  snprintf(out, sizeof out, "%s.out", name);
  snprintf(s->err_file, sizeof s->err_file, "%s.err", name);
  fflush(stdout);
  fflush(stderr);
  s->pid = fork();
  if (s->pid == 0) {
    if (!freopen(out, "w", stdout) || !freopen(s->err_file, "w", stderr)) _exit(126);
    const char *argv[40] = {"vt", cmd};
    size_t n = 2;
    for (size_t i = 0; args[i] && n < 39; i++) argv[n++] = args[i];
    argv[n] = NULL;
    execv(VT_BINARY, (char *const *)argv);
    _exit(127);
  }
  s->port = 0;
  for (int i = 0; i < 200 && s->port == 0; i++) {
    dt_sleep_ms(50);
    char *e = dt_slurp(s->err_file);
    const char *p = e ? strstr(e, "listening on ") : NULL;
    const char *colon = p ? strchr(p + 13, '\n') : NULL;
    if (colon) {
      while (colon > p && colon[-1] != ':') colon--;
      s->port = (unsigned)strtoul(colon, NULL, 10);
    }
    free(e);
    int status;
    if (waitpid(s->pid, &status, WNOHANG) == s->pid) return false;
  }
  return s->port != 0;
}

/* vt debug ARGS */
static inline bool gt_start(gt_server *s, const char *name, const char *const *args) {
  return gt_start_cmd(s, name, "debug", args);
}

/* the exit status of the server (waits up to 20 s, then kills it) */
static inline int gt_wait(gt_server *s) {
  int status = 0;
  for (int i = 0; i < 400; i++) {
    if (waitpid(s->pid, &status, WNOHANG) == s->pid)
      return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    dt_sleep_ms(50);
  }
  kill(s->pid, SIGKILL);
  waitpid(s->pid, &status, 0);
  return -2;
}

static inline int gt_connect(unsigned port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons((uint16_t)port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd >= 0 && connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

static inline void gt_send_raw(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
    if (k <= 0) return;
    p += k;
    n -= (size_t)k;
  }
}

/* "$data#cs" */
static inline void gt_send(int fd, const char *data) {
  unsigned sum = 0;
  size_t n = strlen(data);
  for (size_t i = 0; i < n; i++) sum += (unsigned char)data[i];
  char *b = malloc(n + 8);
  if (!b) return;
  int len = snprintf(b, n + 8, "$%s#%02x", data, sum & 0xff);
  gt_send_raw(fd, b, (size_t)len);
  free(b);
}

/* the next byte within timeout ms, -1 on timeout, -2 at the end */
static inline int gt_byte(int fd, int timeout) {
  struct pollfd p = {fd, POLLIN, 0};
  if (poll(&p, 1, timeout) <= 0) return -1;
  unsigned char c;
  ssize_t k = recv(fd, &c, 1, 0);
  return k == 1 ? c : -2;
}

/* the next reply packet's data (acks skipped; '-' returned as "-") into
 * buf; false on timeout or the end of the connection */
static inline bool gt_reply(int fd, char *buf, size_t size, int timeout) {
  int c;
  do {
    c = gt_byte(fd, timeout);
    if (c == '-') {
      snprintf(buf, size, "-");
      return true;
    }
  } while (c >= 0 && c != '$');
  if (c != '$') return false;
  size_t n = 0;
  while ((c = gt_byte(fd, timeout)) >= 0 && c != '#')
    if (n + 1 < size) buf[n++] = (char)c;
  buf[n] = 0;
  if (c != '#' || gt_byte(fd, timeout) < 0 || gt_byte(fd, timeout) < 0) return false;
  gt_send_raw(fd, "+", 1);
  return true;
}

/* send a packet, return its reply (a static buffer per call site is the
 * caller's) */
static inline bool gt_ask(int fd, const char *data, char *buf, size_t size) {
  gt_send(fd, data);
  return gt_reply(fd, buf, size, 10000);
}

static inline void gt_hex(const char *text, char *out, size_t size) {
  size_t k = 0;
  for (const unsigned char *p = (const unsigned char *)text; *p && k + 3 <= size; p++)
    k += (size_t)snprintf(out + k, size - k, "%02x", *p);
}

static inline void gt_unhex(const char *hex, char *out, size_t size) {
  size_t k = 0;
  for (; hex[0] && hex[1] && k + 1 < size; hex += 2) {
    unsigned v;
    if (sscanf(hex, "%2x", &v) != 1) break;
    out[k++] = (char)v;
  }
  out[k] = 0;
}

/* a little-endian register value as GDB sends it */
static inline const char *gt_le(uint32_t v) {
  return dt_fmt("%02x%02x%02x%02x", v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, v >> 24);
}
#endif
