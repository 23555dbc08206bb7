/* Reading whole files with a size limit, shared by the loaders and the vt
 * command. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* "16 MiB", "4 GiB" or "1000 bytes" */
static void format_size(char *buf, size_t n, uint64_t v) {
  static const char *const units[] = {"GiB", "MiB", "KiB"};
  for (int i = 0; i < 3; i++) {
    uint64_t u = 1ull << (30 - 10 * i);
    if (v >= u && v % u == 0) {
      snprintf(buf, n, "%llu %s", (unsigned long long)(v / u), units[i]);
      return;
    }
  }
  snprintf(buf, n, "%llu bytes", (unsigned long long)v);
}

static int failure(int e, const char *path, vt_file_limit lim, char *msg, size_t msgn) {
  if (!msgn) return e;
  if (e == EFBIG) {
    char size[32];
    format_size(size, sizeof size, lim.max_bytes);
    snprintf(msg, msgn, "%s: larger than %s, the size limit of %s", path, size, lim.what);
  } else if (e == ENOEXEC) {
    snprintf(msg, msgn, "%s: not %s (bad magic)", path, lim.what);
  } else {
    snprintf(msg, msgn, "%s: %s", path, strerror(e));
  }
  return e;
}

/* reads until EOF, until more than 'max' bytes arrived or until the start
 * differs from 'magic'; *buf has room for 'cap' bytes and grows as needed
 * (always one byte spare for the NUL) */
static int read_all(int fd, size_t max, const char *magic, size_t cap, uint8_t **buf,
                    size_t *len) {
  size_t n = 0, mlen = magic ? strlen(magic) : 0;
  for (;;) {
    if (mlen && n >= mlen) {
      if (memcmp(*buf, magic, mlen) != 0) return ENOEXEC;
      mlen = 0;
    }
    if (n + 1 >= cap) {
      if (cap >= max + 2) return EFBIG; /* holds max + 1 bytes: over the limit */
      size_t ncap = cap <= (max + 2) / 2 ? 2 * cap : max + 2;
      uint8_t *b = realloc(*buf, ncap);
      if (!b) return ENOMEM;
      *buf = b;
      cap = ncap;
    }
    ssize_t r = read(fd, *buf + n, cap - n - 1);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return errno ? errno : EIO;
    if (r == 0) break;
    n += (size_t)r;
  }
  if (n > max) return EFBIG;
  *len = n;
  return 0;
}

int vt_read_file(const char *path, vt_file_limit lim, uint8_t **data, size_t *len, char *msg,
                 size_t msgn) {
  *data = NULL;
  *len = 0;
  if (msgn) msg[0] = 0;
  size_t max = lim.max_bytes < SIZE_MAX - 2 ? (size_t)lim.max_bytes : SIZE_MAX - 2;
  int fd = open(path, O_RDONLY);
  if (fd < 0) return failure(errno ? errno : EIO, path, lim, msg, msgn);
  struct stat sb;
  if (fstat(fd, &sb) != 0) {
    int e = errno ? errno : EIO;
    close(fd);
    return failure(e, path, lim, msg, msgn);
  }
  size_t cap = 65536;
  if (S_ISREG(sb.st_mode)) {
    if ((uint64_t)sb.st_size > max) {
      close(fd);
      return failure(EFBIG, path, lim, msg, msgn);
    }
    cap = (size_t)sb.st_size + 2; /* + NUL, + 1 to see the end of file */
  }
  uint8_t *buf = malloc(cap);
  int e = buf ? read_all(fd, max, lim.magic, cap, &buf, len) : ENOMEM;
  close(fd);
  if (e) {
    free(buf);
    *len = 0;
    return failure(e, path, lim, msg, msgn);
  }
  buf[*len] = 0;
  *data = buf;
  return 0;
}

int vt_file_view_open(const char *path, vt_file_limit lim, vt_file_view *v, char *msg,
                      size_t msgn) {
  memset(v, 0, sizeof *v);
  if (msgn) msg[0] = 0;
  int fd = open(path, O_RDONLY);
  struct stat sb;
  if (fd >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
      (uint64_t)sb.st_size <= lim.max_bytes && (uint64_t)sb.st_size <= SIZE_MAX && !lim.magic) {
    void *m = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m != MAP_FAILED) {
      v->data = m;
      v->len = (size_t)sb.st_size;
      return 0;
    }
  } else if (fd >= 0) {
    close(fd);
  }
  /* not a regular file, empty, too large, or not mappable: read it, which
   * also gives the errors and messages of vt_read_file */
  int e = vt_read_file(path, lim, &v->owned, &v->len, msg, msgn);
  v->data = v->owned;
  return e;
}

void vt_file_view_close(vt_file_view *v) {
  if (v->owned) free(v->owned);
  else if (v->data) munmap((void *)(uintptr_t)v->data, v->len);
  memset(v, 0, sizeof *v);
}
