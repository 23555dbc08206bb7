/* Pieces of vt run that vt debug shares: --dump ADDR:LEN:FILE (parsed, then
 * written after the last launch) and telling an ELF program from a test
 * vector. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "util/parse.h"

int cli_dump_parse(cli_dump *d, unsigned *n, unsigned max, const char *cmd, const char *arg) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%s", arg);
  char *c1 = strchr(buf, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  uint64_t a, l;
  if (!c1 || !c2 || *n >= max) goto bad;
  *c1 = *c2 = 0;
  if (vt_parse_u64(buf, &a) || vt_parse_u64(c1 + 1, &l) || a > 0xffffffffu || l == 0 ||
      l > 0xffffffffu || l > 0x100000000ull - a || !c2[1])
    goto bad;
  d[(*n)++] = (cli_dump){(uint32_t)a, (uint32_t)l, arg + (c2 + 1 - buf)};
  return 0;
bad:
  fprintf(stderr, "%s: bad --dump '%s' (expected ADDR:LEN:FILE with 1 <= LEN < 2^32 and "
          "ADDR+LEN <= 2^32)\n", cmd, arg);
  return -1;
}

int cli_dump_write(const cli_dump *d, unsigned n, vt_session *s, const char *cmd) {
  for (unsigned i = 0; i < n; i++) {
    uint8_t *buf = malloc(d[i].len);
    vt_error err;
    if (!buf) {
      fprintf(stderr, "%s: out of memory for --dump\n", cmd);
      return -1;
    }
    int rc = vt_mem_read(vt_session_device(s), d[i].addr, buf, d[i].len, &err);
    if (rc != VT_OK) {
      fprintf(stderr, "%s: --dump: %s\n", cmd, err.message);
    } else {
      FILE *f = fopen(d[i].file, "wb");
      if (!f || fwrite(buf, 1, d[i].len, f) != d[i].len || fclose(f) != 0) {
        fprintf(stderr, "%s: %s: cannot write\n", cmd, d[i].file);
        rc = -1;
      }
    }
    free(buf);
    if (rc != VT_OK) return -1;
  }
  return 0;
}

/* Only a regular file is peeked at: reading a FIFO's first bytes would lose
 * them. */
bool cli_is_elf(const char *path) {
  struct stat sb;
  if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) return false;
  FILE *f = fopen(path, "rb");
  unsigned char m[4] = {0};
  if (!f) return false;
  size_t n = fread(m, 1, 4, f);
  fclose(f);
  return n == 4 && m[0] == 0x7f && m[1] == 'E' && m[2] == 'L' && m[3] == 'F';
}
