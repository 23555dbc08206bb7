/* Reading whole files, shared by the loaders and the vt command. */
#include "file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

int vt_read_file(const char *path, uint8_t **data, size_t *len) {
  *data = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return errno ? errno : EIO;
  uint8_t *buf = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 1 >= cap) {
      size_t ncap = cap ? 2 * cap : 65536;
      uint8_t *b = ncap > cap ? realloc(buf, ncap) : NULL;
      if (!b) {
        free(buf);
        fclose(f);
        return ENOMEM;
      }
      buf = b;
      cap = ncap;
    }
    size_t r = fread(buf + n, 1, cap - n - 1, f);
    n += r;
    if (r == 0) break;
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return EIO;
  }
  buf[n] = 0;
  *data = buf;
  *len = n;
  return 0;
}
