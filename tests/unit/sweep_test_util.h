/* Helpers of the vt sweep tests: running programs by argument vector,
 * files, result tables (CSV split by hand, statistics JSON read line by
 * line, independently of vt's JSON reader). */
#ifndef VT_SWEEP_TEST_UTIL_H
#define VT_SWEEP_TEST_UTIL_H
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>

#include "check.h"

#define EXAMPLES_DIR_LEN 4096

/* the build's examples folder: beside the vt program */
static inline void examples_dir(char *buf, size_t n) {
  snprintf(buf, n, "%s", VT_BINARY);
  char *slash = strrchr(buf, '/');
  if (slash) snprintf(slash, n - (size_t)(slash - buf), "/examples");
}

static inline void spit(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static inline char *slurp(const char *path) {
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

/* start argv (PATH searched) with stdout+stderr to 'out' (NULL: inherited) */
static inline pid_t start(char *const argv[], const char *out) {
  pid_t pid = fork();
  if (pid == 0) {
    if (out) {
      int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0) _exit(126);
    }
    execvp(argv[0], argv);
    _exit(127);
  }
  return pid;
}

static inline int finish(pid_t pid) {
  int ws;
  if (pid < 0 || waitpid(pid, &ws, 0) != pid) return -1;
  return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

static inline int run(char *const argv[], const char *out) { return finish(start(argv, out)); }

static inline bool contains(check_state *st, const char *hay, const char *needle) {
  if (hay && strstr(hay, needle)) return true;
  st->failed_checks++;
  fprintf(stderr, "\"%s\" lacks \"%s\"\n", hay ? hay : "(null)", needle);
  return false;
}

/* ---- CSV: rows of fields (quotes handled) ---- */
typedef struct csv_table {
  char ***rows;
  size_t *nfields, nrows;
} csv_table;

static inline void csv_free(csv_table *t) {
  for (size_t r = 0; r < t->nrows; r++) {
    for (size_t f = 0; f < t->nfields[r]; f++) free(t->rows[r][f]);
    free(t->rows[r]);
  }
  free(t->rows);
  free(t->nfields);
  memset(t, 0, sizeof *t);
}

static inline int csv_read(const char *path, csv_table *t) {
  memset(t, 0, sizeof *t);
  char *text = slurp(path);
  if (!text) return -1;
  for (char *s = text; *s;) {
    t->rows = realloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
    t->nfields = realloc(t->nfields, (t->nrows + 1) * sizeof *t->nfields);
    char **row = NULL;
    size_t n = 0;
    for (;;) {
      char field[2048];
      size_t len = 0;
      if (*s == '"') {
        for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
          if (*s == '"') s++;
          if (len < sizeof field - 1) field[len++] = *s;
        }
        if (*s == '"') s++;
      } else {
        while (*s && *s != ',' && *s != '\n')
          if (len < sizeof field - 1) field[len++] = *s++;
          else s++;
      }
      field[len] = 0;
      row = realloc(row, (n + 1) * sizeof *row);
      row[n++] = strdup(field);
      if (*s == ',') {
        s++;
        continue;
      }
      if (*s == '\n') s++;
      break;
    }
    t->rows[t->nrows] = row;
    t->nfields[t->nrows++] = n;
  }
  free(text);
  return 0;
}

static inline int csv_column(const csv_table *t, const char *name) {
  for (size_t f = 0; t->nrows && f < t->nfields[0]; f++)
    if (!strcmp(t->rows[0][f], name)) return (int)f;
  return -1;
}

/* the text of counter 'name' in the "total" object of a statistics JSON
 * (docs/counters.md: one "name": value per line), or NULL */
static inline char *stats_total(const char *json, const char *name, char *buf, size_t n) {
  const char *t = json ? strstr(json, "\"total\": {") : NULL;
  const char *end = t ? strchr(t, '}') : NULL;
  char key[96];
  snprintf(key, sizeof key, "\"%s\": ", name);
  const char *k = t ? strstr(t, key) : NULL;
  if (!k || k > end) return NULL;
  k += strlen(key);
  size_t len = strcspn(k, ",\n");
  snprintf(buf, n, "%.*s", (int)len, k);
  return buf;
}
#endif
