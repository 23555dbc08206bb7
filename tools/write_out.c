/* Output files written whole (write_out.h). */
#include "write_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int write_out_file(const char *cmd, const char *path, const uint8_t *data, size_t size,
                   bool exec) {
  size_t n = strlen(path);
  char *tmp = malloc(n + 32);
  if (!tmp) return -1;
  snprintf(tmp, n + 32, "%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    fprintf(stderr, "%s: error: cannot create %s: %s\n", cmd, tmp, strerror(errno));
    free(tmp);
    return -1;
  }
  FILE *fp = fdopen(fd, "wb");
  bool ok = fp && fwrite(data, 1, size, fp) == size;
  if (fp) ok = (fclose(fp) == 0) && ok;
  else close(fd);
  mode_t mask = umask(0);
  umask(mask);
  if (ok && chmod(tmp, (exec ? 0777 : 0666) & ~mask) != 0) ok = false;
  if (ok && rename(tmp, path) != 0) ok = false;
  if (!ok) {
    fprintf(stderr, "%s: error: cannot write %s: %s\n", cmd, path, strerror(errno));
    remove(tmp);
  }
  free(tmp);
  return ok ? 0 : -1;
}
