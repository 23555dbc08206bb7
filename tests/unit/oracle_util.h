/* Helpers for tests that use external tools (GNU binutils, LLVM) as
 * oracles: tool detection, a private temporary directory per test, and
 * reading the instruction words of a raw binary. */
#ifndef VT_TEST_ORACLE_UTIL_H
#define VT_TEST_ORACLE_UTIL_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline bool have_tool(const char *name) {
  char cmd[256];
  snprintf(cmd, sizeof cmd, "command -v %s >/dev/null 2>&1", name);
  return system(cmd) == 0;
}

/* mkdtemp under the build's tmp dir; 'dir' receives the path. */
static inline bool tmpdir_new(const char *tag, char *dir, size_t n) {
  snprintf(dir, n, "%s/%s_XXXXXX", VT_TEST_TMP, tag);
  return mkdtemp(dir) != NULL;
}

static inline void tmpdir_remove(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
}

/* Little-endian 32-bit words of a raw binary; returns the count (at most max). */
static inline size_t read_words(const char *path, uint32_t *w, size_t max) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = 0;
  uint8_t b[4];
  while (n < max && fread(b, 1, 4, f) == 4)
    w[n++] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  fclose(f);
  return n;
}
#endif
