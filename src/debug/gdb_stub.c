/* The GDB stub's sockets and its front end for the debugger: it listens
 * on one address (127.0.0.1 unless the user names another, with a warning
 * when that is not a loopback address), serves one client at a time
 * (further connections are closed at once), and at every stop answers the
 * client's requests until it continues, steps, detaches or kills. A client
 * that disconnects leaves the device stopped for the next one. */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gdb_internal.h"

struct vt_gdb {
  vt_dbg *d;
  gdb_session s;
  FILE *log;
  int listen_fd, fd;
  unsigned port;
  char where[128];   /* host:port for messages */
  gdb_rx rx;
  bool waiting;      /* the client waits for a stop reply */
  gdb_buf last;      /* the last packets sent (resent on '-') */
};

vt_dbg *vt_gdb_debugger(vt_gdb *g) { return g->d; }
unsigned vt_gdb_port(const vt_gdb *g) { return g->port; }

static bool send_all(vt_gdb *g, const char *p, size_t n) {
  while (n > 0 && g->fd >= 0) {
    ssize_t k = send(g->fd, p, n, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= (size_t)k;
  }
  return g->fd >= 0;
}

static void close_client(vt_gdb *g) {
  if (g->fd >= 0) close(g->fd);
  g->fd = -1;
  g->waiting = false;
  gdb_rx_init(&g->rx);
}

/* send framed packets, remembered for a resend */
static bool send_packets(vt_gdb *g, const gdb_buf *out) {
  g->last.len = 0;
  if (out->len) gdb_buf_put(&g->last, out->p, out->len);
  return !out->len || send_all(g, out->p, out->len);
}

static bool send_data(vt_gdb *g, const char *data, size_t n) {
  gdb_buf out = {0};
  gdb_frame(&out, data, n);
  bool ok = !out.oom && send_packets(g, &out);
  gdb_buf_free(&out);
  return ok;
}

static void send_stop(vt_gdb *g) {
  gdb_buf data = {0};
  gdb_stop_reply(&g->s, &data);
  send_data(g, data.p ? data.p : "", data.len);
  gdb_buf_free(&data);
}

/* refuse a second client while one is connected */
static void refuse_others(vt_gdb *g) {
  struct pollfd p = {g->listen_fd, POLLIN, 0};
  while (g->listen_fd >= 0 && poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
    int c = accept(g->listen_fd, NULL, NULL);
    if (c < 0) break;
    close(c);
    fprintf(g->log, "vt: gdb: refused a second connection (one client at a time)\n");
  }
}

static int wait_client(vt_gdb *g) {
  fprintf(g->log, "vt: gdb: waiting for a connection on %s (gdb-multiarch: set architecture "
                  "riscv:rv32, target remote %s)\n", g->where, g->where);
  fflush(g->log);
  for (;;) {
    int c = accept(g->listen_fd, NULL, NULL);
    if (c >= 0) {
      g->fd = c;
      gdb_rx_init(&g->rx);
      fprintf(g->log, "vt: gdb: connected\n");
      return 0;
    }
    if (errno != EINTR || (g->d->interrupt && *g->d->interrupt)) return -1;
  }
}

/* requests until one resumes: the action, or -1 when the client left */
static int serve(vt_gdb *g) {
  char in[4096];
  for (;;) {
    struct pollfd p[2] = {{g->fd, POLLIN, 0}, {g->listen_fd, POLLIN, 0}};
    if (poll(p, 2, -1) < 0) {
      if (errno != EINTR) return -1;
      if (g->d->interrupt && *g->d->interrupt) return GDB_KILL;
      continue;
    }
    if (p[1].revents & POLLIN) refuse_others(g);
    if (!(p[0].revents & (POLLIN | POLLHUP | POLLERR))) continue;
    ssize_t k = recv(g->fd, in, sizeof in, 0);
    if (k < 0 && errno == EINTR) {
      if (g->d->interrupt && *g->d->interrupt) return GDB_KILL;
      continue;
    }
    if (k <= 0) return -1;
    for (ssize_t i = 0; i < k; i++) {
      gdb_rx_event ev = gdb_rx_byte(&g->rx, (uint8_t)in[i]);
      if (ev == GDB_RX_NAK && g->last.len) send_all(g, g->last.p, g->last.len);
      if (ev == GDB_RX_BAD_CHECKSUM) send_all(g, "-", 1);
      if (ev == GDB_RX_TOO_LONG) send_all(g, "+", 1), send_data(g, "E02", 3);
      if (ev != GDB_RX_PACKET) continue;
      send_all(g, "+", 1);
      gdb_buf out = {0};
      gdb_action a = gdb_handle(&g->s, g->rx.data, g->rx.len, &out);
      bool ok = out.oom ? send_data(g, "E0c", 3) : send_packets(g, &out);
      gdb_buf_free(&out);
      if (!ok) return -1;
      if (a != GDB_REPLIED) return (int)a;
    }
  }
}

static int stopped(void *ctx, vt_dbg *d) {
  (void)d;
  vt_gdb *g = ctx;
  for (;;) {
    if (g->fd < 0 && wait_client(g) != 0) return -1;
    if (g->waiting) send_stop(g);
    g->waiting = false;
    int a = serve(g);
    if (a == GDB_RESUME) {
      g->waiting = true;
      return 0;
    }
    if (a == GDB_DETACH || a == GDB_KILL) {
      fprintf(g->log, "vt: gdb: %s\n", a == GDB_DETACH ? "detached; the program runs to its end"
                                                       : "killed");
      close_client(g);
      return a == GDB_DETACH ? 0 : -1;
    }
    fprintf(g->log, "vt: gdb: the client disconnected; the device stays stopped\n");
    close_client(g);
  }
}

/* while running: Ctrl-C from the client, other clients */
static int poll_client(void *ctx, vt_dbg *d) {
  (void)d;
  vt_gdb *g = ctx;
  refuse_others(g);
  struct pollfd p = {g->fd, POLLIN, 0};
  int interrupt = 0;
  while (g->fd >= 0 && poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP))) {
    char in[256];
    ssize_t k = recv(g->fd, in, sizeof in, 0);
    if (k <= 0) {
      close_client(g); /* the next stop waits for a new client */
      break;
    }
    for (ssize_t i = 0; i < k; i++) interrupt |= gdb_rx_byte(&g->rx, (uint8_t)in[i]) == GDB_RX_INTERRUPT;
  }
  return interrupt;
}

static void notice(void *ctx, vt_dbg *d, const char *text) {
  (void)d;
  vt_gdb *g = ctx;
  if (g->fd < 0 || !g->waiting) return;
  gdb_buf data = {0};
  gdb_buf_puts(&data, "O");
  gdb_buf_hex(&data, text, strlen(text));
  gdb_buf_hex(&data, "\n", 1);
  send_data(g, data.p, data.len);
  gdb_buf_free(&data);
}

static void ended(void *ctx, vt_dbg *d, int status) {
  (void)d;
  (void)status;
  vt_gdb *g = ctx;
  if (g->fd >= 0 && g->waiting) send_stop(g); /* W00 or W01 */
  close_client(g);
}

/* "[HOST:]PORT" -> host and port text; false when malformed */
static bool split_address(const char *a, char *host, size_t hn, char *port, size_t pn) {
  const char *colon = strrchr(a, ':');
  const char *p = colon ? colon + 1 : a;
  size_t hl = colon ? (size_t)(colon - a) : 0;
  if (hl >= 2 && a[0] == '[' && a[hl - 1] == ']') a++, hl -= 2; /* [::1]:1234 */
  if (!*p || strlen(p) >= pn || hl >= hn || strspn(p, "0123456789") != strlen(p) ||
      strtoul(p, NULL, 10) > 65535)
    return false;
  memcpy(host, a, hl);
  host[hl] = 0;
  if (!hl) snprintf(host, hn, "127.0.0.1");
  snprintf(port, pn, "%s", p);
  return true;
}

static bool loopback(const struct sockaddr *sa) {
  if (sa->sa_family == AF_INET)
    return (ntohl(((const struct sockaddr_in *)sa)->sin_addr.s_addr) >> 24) == 127;
  if (sa->sa_family == AF_INET6) {
    const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
    return IN6_IS_ADDR_LOOPBACK(a) ||
           (IN6_IS_ADDR_V4MAPPED(a) && a->s6_addr[12] == 127);
  }
  return false;
}

static int open_listener(vt_gdb *g, const char *address, char *err, size_t errn) {
  char host[96], port[16];
  if (!split_address(address, host, sizeof host, port, sizeof port)) {
    snprintf(err, errn, "expected [HOST:]PORT with a port from 0 to 65535");
    return -1;
  }
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  int rc = getaddrinfo(host, port, &hints, &res);
  if (rc != 0 || !res) {
    snprintf(err, errn, "%s: %s", host, gai_strerror(rc));
    return -1;
  }
  int fd = socket(res->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || bind(fd, res->ai_addr, res->ai_addrlen) != 0 || listen(fd, 1) != 0) {
    snprintf(err, errn, "cannot listen on %s:%s: %s", host, port, strerror(errno));
    if (fd >= 0) close(fd);
    freeaddrinfo(res);
    return -1;
  }
  if (!loopback(res->ai_addr))
    fprintf(g->log, "vt: warning: gdb: %s is not a loopback address: anyone who can reach it "
                    "can read and write the simulated machine\n", host);
  freeaddrinfo(res);
  struct sockaddr_storage ss;
  socklen_t sl = sizeof ss;
  getsockname(fd, (struct sockaddr *)&ss, &sl);
  g->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                           : ((struct sockaddr_in *)&ss)->sin_port);
  snprintf(g->where, sizeof g->where, "%s%s%s:%u", strchr(host, ':') ? "[" : "", host,
           strchr(host, ':') ? "]" : "", g->port);
  g->listen_fd = fd;
  fprintf(g->log, "vt: gdb: listening on %s\n", g->where);
  fflush(g->log);
  return 0;
}

vt_gdb *vt_gdb_new(vt_device *dev, const char *address, FILE *log, char *err, size_t errn) {
  vt_gdb *g = calloc(1, sizeof *g);
  if (!g) {
    snprintf(err, errn, "out of memory");
    return NULL;
  }
  g->listen_fd = g->fd = -1;
  g->log = log ? log : stderr;
  gdb_rx_init(&g->rx);
  vt_dbg_frontend fe = {stopped, poll_client, notice, ended, g};
  if (open_listener(g, address, err, errn) != 0 || !(g->d = vt_dbg_new(dev, &fe)) ||
      gdb_session_init(&g->s, g->d) != 0) {
    if (!*err) snprintf(err, errn, "out of memory");
    vt_gdb_free(g);
    return NULL;
  }
  return g;
}

void vt_gdb_free(vt_gdb *g) {
  if (!g) return;
  close_client(g);
  if (g->listen_fd >= 0) close(g->listen_fd);
  gdb_session_free(&g->s);
  gdb_buf_free(&g->last);
  vt_dbg_free(g->d);
  free(g);
}
