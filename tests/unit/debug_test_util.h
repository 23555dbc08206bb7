/* Helpers for the vt debug tests: the example kernel examples/kernels/
 * divergent.s assembled with -g in the test's directory (relative names,
 * so transcripts show "divergent.s:26"), running vt debug with a script,
 * symbol addresses from GNU nm (the oracle for addresses), and checking
 * that a transcript holds expected lines in order. */
#ifndef VT_DEBUG_TEST_UTIL_H
#define VT_DEBUG_TEST_UTIL_H
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

#include "check.h"

#define NM "riscv64-unknown-elf-nm"

static inline char *dt_slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  fclose(f);
  if (b) b[n] = 0;
  return b;
}

static inline void dt_sleep_ms(long ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static inline void dt_spit(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static inline int dt_sh(const char *cmd) {
  int rc = system(cmd);
  return rc == -1 || !WIFEXITED(rc) ? -1 : WEXITSTATUS(rc);
}

static inline int dt_copy(const char *from, const char *to) {
  char *t = dt_slurp(from);
  if (!t) return -1;
  dt_spit(to, t);
  free(t);
  return 0;
}

static inline void dt_words(const char *path, const int32_t *w, size_t n) {
  FILE *f = fopen(path, "wb");
  for (size_t i = 0; f && i < n; i++) {
    uint8_t b[4] = {(uint8_t)w[i], (uint8_t)(w[i] >> 8), (uint8_t)(w[i] >> 16),
                    (uint8_t)(w[i] >> 24)};
    fwrite(b, 1, 4, f);
  }
  if (f) fclose(f);
}

/* assemble crt0.s and NAME.s (copied or written here) into NAME.elf with -g */
static inline int dt_assemble(const char *name) {
  char cmd[2048];
  snprintf(cmd, sizeof cmd, "'%s' as -g crt0.s %s.s -o %s.elf 2>as.err", VT_BINARY, name, name);
  return dt_sh(cmd);
}

/* divergent.elf and in.bin = {1, 2, ..., 8} in the current directory */
static inline int dt_setup_divergent(void) {
  static const int32_t in[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  if (dt_copy(VT_SOURCE_DIR "/examples/kernels/crt0.s", "crt0.s") != 0 ||
      dt_copy(VT_SOURCE_DIR "/examples/kernels/divergent.s", "divergent.s") != 0)
    return -1;
  dt_words("in.bin", in, 8);
  return dt_assemble("divergent");
}

/* the address of a symbol from GNU nm; 0 when absent */
static inline uint32_t dt_nm(const char *elf, const char *sym) {
  char cmd[1024], line[512];
  snprintf(cmd, sizeof cmd, NM " %s 2>/dev/null", elf);
  FILE *p = popen(cmd, "r");
  uint32_t v = 0;
  while (p && fgets(line, sizeof line, p)) {
    char name[256], type;
    unsigned long a;
    if (sscanf(line, "%lx %c %255s", &a, &type, name) == 3 && !strcmp(name, sym)) v = (uint32_t)a;
  }
  if (p) pclose(p);
  return v;
}

static inline bool dt_have_nm(void) { return dt_sh(NM " --version >/dev/null 2>&1") == 0; }

/* run vt debug ARGS -x script.txt with the script; stdout and stderr into
 * *out / *err (caller frees); the exit status */
static inline int dt_debug(const char *args, const char *script, char **out, char **err) {
  char cmd[4096];
  dt_spit("script.txt", script);
  snprintf(cmd, sizeof cmd, "'%s' debug %s -x script.txt >dbg.out 2>dbg.err", VT_BINARY, args);
  int rc = dt_sh(cmd);
  if (out) *out = dt_slurp("dbg.out");
  if (err) *err = dt_slurp("dbg.err");
  return rc;
}

#define DT_DIVERGENT "-q divergent.elf --global 8 --local 8 --threads 4 --arg in:in.bin --arg out:32"

/* Does line[0..len) match pattern, where "..." stands for any text? */
static inline bool dt_match(const char *line, size_t len, const char *pat) {
  const char *dots = strstr(pat, "...");
  if (!dots) return strlen(pat) == len && !strncmp(line, pat, len);
  size_t head = (size_t)(dots - pat);
  if (head > len || strncmp(line, pat, head)) return false;
  for (size_t at = head; at <= len; at++) /* the rest matches some suffix */
    if (dt_match(line + at, len - at, dots + 3)) return true;
  return false;
}

/* Does text hold each line of 'lines' (a NULL-terminated list of
 * dt_match patterns) as a whole line, in this order? Reports the first one
 * missing. */
static inline void dt_expect_lines(check_state *st, const char *text, const char *const *lines) {
  const char *at = text ? text : "";
  for (size_t i = 0; lines[i]; i++) {
    const char *p = at;
    for (;;) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p);
      if (dt_match(p, len, lines[i])) {
        at = nl ? nl + 1 : p + len;
        break;
      }
      if (!nl) {
        st->failed_checks++;
        fprintf(stderr, "expected line %zu \"%s\" not found (in order) in:\n%s\n", i, lines[i],
                text ? text : "(null)");
        return;
      }
      p = nl + 1;
    }
  }
}

/* printf into a static ring of buffers, for building expected lines */
static inline const char *dt_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline const char *dt_fmt(const char *fmt, ...) {
  static char ring[64][256];
  static unsigned next;
  char *b = ring[next++ % 64];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(b, 256, fmt, ap);
  va_end(ap);
  return b;
}
#endif
