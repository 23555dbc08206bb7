/* Runs a libFuzzer target without libFuzzer: calls LLVMFuzzerTestOneInput
 * on every file named on the command line, and on every regular file of
 * every directory named there (in name order). Used by CTest so that each
 * fuzz target replays its seed corpus in the normal gcc build, and handy to
 * reproduce a crash file without clang.
 *
 *   fuzz_x_standalone [-m N] [--no-fork] PATH...
 *
 * Each input runs in a forked child so that a crash is reported against its
 * file and the run goes on; -m N also runs N deterministic mutations of each
 * input (truncations and bit flips). Prints "N passed, N failed" last and
 * exits non-zero if anything failed or no input was found. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct path_list {
  char **v;
  size_t n, cap;
} path_list;

static void add_path(path_list *l, const char *p) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 64;
    char **nv = realloc(l->v, l->cap * sizeof *nv);
    if (!nv) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    l->v = nv;
  }
  l->v[l->n] = strdup(p);
  if (!l->v[l->n]) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  l->n++;
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds 'arg' (a file) or the regular files in it (a directory). */
static int collect(path_list *l, const char *arg) {
  struct stat st;
  if (stat(arg, &st) != 0) {
    fprintf(stderr, "%s: %s\n", arg, strerror(errno));
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    add_path(l, arg);
    return 0;
  }
  DIR *d = opendir(arg);
  if (!d) {
    fprintf(stderr, "%s: %s\n", arg, strerror(errno));
    return -1;
  }
  size_t first = l->n;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue; /* ., .., hidden files */
    size_t len = strlen(arg) + strlen(e->d_name) + 2;
    char *p = malloc(len);
    if (!p) {
      fprintf(stderr, "out of memory\n");
      exit(2);
    }
    snprintf(p, len, "%s/%s", arg, e->d_name);
    if (stat(p, &st) == 0 && S_ISREG(st.st_mode)) add_path(l, p);
    free(p);
  }
  closedir(d);
  qsort(l->v + first, l->n - first, sizeof *l->v, cmp_str);
  return 0;
}

static int read_file(const char *path, uint8_t **data, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return -1;
  size_t cap = 4096, n = 0;
  uint8_t *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    uint8_t *nb = realloc(buf, cap *= 2);
    if (!nb) free(buf);
    buf = nb;
  }
  int bad = ferror(f);
  fclose(f);
  if (!buf || bad) {
    free(buf);
    return -1;
  }
  *data = buf;
  *size = n;
  return 0;
}

/* Calls the target on an exact-size heap copy, so that sanitizer builds
 * (VT_SANITIZE=ON) catch reads past the end. */
static void run_one(const uint8_t *data, size_t size) {
  uint8_t *copy = malloc(size ? size : 1);
  if (!copy) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  if (size) memcpy(copy, data, size);
  LLVMFuzzerTestOneInput(copy, size);
  free(copy);
}

static uint32_t xorshift(uint32_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static void run_input(const uint8_t *data, size_t size, unsigned mutations) {
  run_one(data, size);
  if (!mutations || !size) return;
  uint8_t *m = malloc(size);
  if (!m) exit(2);
  uint32_t seed = 0x9e3779b9u ^ (uint32_t)size;
  for (unsigned k = 0; k < mutations; k++) {
    uint32_t r = xorshift(&seed);
    memcpy(m, data, size);
    switch (k % 3) {
    case 0: /* truncation */
      run_one(m, r % size);
      break;
    case 1: /* a few bit flips */
      for (unsigned j = 0; j <= r % 4; j++) {
        size_t at = xorshift(&seed) % size;
        m[at] ^= (uint8_t)(1u << (xorshift(&seed) % 8));
      }
      run_one(m, size);
      break;
    default: /* an interesting byte value */
    {
      static const uint8_t vals[] = {0x00, 0xff, 0x7f, 0x80, 0x0a, 0x22, 0x3a, 0x2c};
      m[r % size] = vals[xorshift(&seed) % sizeof vals];
      run_one(m, size);
      break;
    }
    }
  }
  free(m);
}

int main(int argc, char **argv) {
  unsigned mutations = 0;
  int use_fork = 1;
  path_list inputs = {0};
  int errors = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-m") && i + 1 < argc) {
      mutations = (unsigned)strtoul(argv[++i], NULL, 10);
    } else if (!strcmp(argv[i], "--no-fork")) {
      use_fork = 0;
    } else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      printf("usage: %s [-m MUTATIONS] [--no-fork] FILE|DIR...\n", argv[0]);
      return 0;
    } else if (collect(&inputs, argv[i]) != 0) {
      errors++;
    }
  }
  if (errors) return 2;
  if (inputs.n == 0) {
    fprintf(stderr, "%s: no inputs (give corpus files or directories)\n", argv[0]);
    printf("0 passed, 0 failed\n");
    return 2;
  }
  int passed = 0, failed = 0;
  for (size_t i = 0; i < inputs.n; i++) {
    uint8_t *data = NULL;
    size_t size = 0;
    if (read_file(inputs.v[i], &data, &size) != 0) {
      fprintf(stderr, "FAIL %s: cannot read: %s\n", inputs.v[i], strerror(errno));
      failed++;
      free(inputs.v[i]);
      continue;
    }
    int ok = 1;
    if (use_fork) {
      fflush(stdout);
      fflush(stderr);
      pid_t pid = fork();
      if (pid < 0) {
        perror("fork");
        return 2;
      }
      if (pid == 0) {
        run_input(data, size, mutations);
        _exit(0);
      }
      int status = 0;
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      if (WIFSIGNALED(status)) {
        fprintf(stderr, "FAIL %s: killed by signal %d\n", inputs.v[i], WTERMSIG(status));
        ok = 0;
      } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "FAIL %s: exit status %d\n", inputs.v[i], WEXITSTATUS(status));
        ok = 0;
      }
    } else {
      run_input(data, size, mutations);
    }
    free(data);
    if (ok) {
      passed++;
      printf("ok   %s (%zu bytes)\n", inputs.v[i], size);
    } else {
      failed++;
    }
    free(inputs.v[i]);
  }
  free(inputs.v);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
