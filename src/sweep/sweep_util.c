/* Small helpers of vt sweep: string vectors, word splitting, atomic file
 * writes, folders, time, absolute paths, hashing. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sweep.h"

int sweep_strv_push(sweep_strv *v, const char *s) {
  char *copy = strdup(s ? s : "");
  char **grown = copy ? realloc(v->v, (v->n + 2) * sizeof *grown) : NULL;
  if (!grown) {
    free(copy);
    return -1;
  }
  v->v = grown;
  v->v[v->n++] = copy;
  v->v[v->n] = NULL; /* usable as an argv */
  return 0;
}

void sweep_strv_free(sweep_strv *v) {
  for (size_t i = 0; i < v->n; i++) free(v->v[i]);
  free(v->v);
  v->v = NULL;
  v->n = 0;
}

int sweep_split_words(const char *s, sweep_strv *out) {
  while (*s) {
    while (*s == ' ' || *s == '\t') s++;
    if (!*s) break;
    const char *e = s;
    while (*e && *e != ' ' && *e != '\t') e++;
    char *w = strndup(s, (size_t)(e - s));
    int rc = w ? sweep_strv_push(out, w) : -1;
    free(w);
    if (rc) return -1;
    s = e;
  }
  return 0;
}

int sweep_write_atomic(const char *path, const char *data, size_t len, char *err, size_t errn) {
  size_t n = strlen(path) + 32;
  char *tmp = malloc(n);
  if (!tmp) {
    snprintf(err, errn, "out of memory");
    return -1;
  }
  snprintf(tmp, n, "%s.tmp.%ld", path, (long)getpid());
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int rc = fd < 0 ? -1 : 0;
  for (size_t done = 0; rc == 0 && done < len;) {
    ssize_t w = write(fd, data + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) rc = -1;
    else done += (size_t)w;
  }
  if (fd >= 0 && close(fd) != 0) rc = -1;
  if (rc == 0 && rename(tmp, path) != 0) rc = -1;
  if (rc != 0) {
    snprintf(err, errn, "%s: %s", path, strerror(errno));
    unlink(tmp);
  }
  free(tmp);
  return rc;
}

int sweep_mkdirs(const char *path, char *err, size_t errn) {
  char *p = strdup(path);
  if (!p) {
    snprintf(err, errn, "out of memory");
    return -1;
  }
  for (char *s = p + 1;; s++) {
    if (*s && *s != '/') continue;
    char c = *s;
    *s = 0;
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      snprintf(err, errn, "%s: %s", p, strerror(errno));
      free(p);
      return -1;
    }
    if (!c) break;
    *s = c;
  }
  struct stat sb;
  int rc = stat(p, &sb) == 0 && S_ISDIR(sb.st_mode) ? 0 : -1;
  if (rc) snprintf(err, errn, "%s: not a folder", p);
  free(p);
  return rc;
}

double sweep_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

char *sweep_abspath(const char *path) {
  if (path[0] == '/') return strdup(path);
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd)) return NULL;
  while (path[0] == '.' && path[1] == '/') path += 2;
  size_t n = strlen(cwd) + strlen(path) + 2;
  char *out = malloc(n);
  if (out) snprintf(out, n, "%s%s%s", cwd, strcmp(cwd, "/") ? "/" : "", strcmp(path, ".") ? path : "");
  if (out && !strcmp(path, ".") && strlen(out) > 1 && out[strlen(out) - 1] == '/') out[strlen(out) - 1] = 0;
  return out;
}

void sweep_hash_hex(const void *data, size_t n, char out[17]) {
  uint64_t h = 0xcbf29ce484222325ull;
  const unsigned char *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  snprintf(out, 17, "%016llx", (unsigned long long)h);
}
