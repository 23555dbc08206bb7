/* Minimal test harness: CHECK macros, a test registry per file, a private
 * temporary directory per test program, and the closing line
 * "N passed, N failed" that CI reads.
 *
 * Tests registered with T_CASES read the official Ventus cases
 * (VT_SHARED_DIR/cases). They run only when the program is started with
 * --cases (CTest test NAME_cases); without that folder the program says so
 * and exits with 77, which CTest reports as "Skipped" (SKIP_RETURN_CODE). */
#ifndef VT_TEST_CHECK_H
#define VT_TEST_CHECK_H
#include <dirent.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The test program's own temporary directory. run_tests creates it with
 * mkdtemp under VT_TEST_TMP_ROOT (the build's tests/tmp), makes it the
 * working directory and removes it after the run, so VT_TEST_TMP is ".". */
#define VT_TEST_TMP "."
/* exit status for "skipped" (the test's SKIP_RETURN_CODE) */
#define VT_TEST_SKIPPED 77

typedef struct check_state {
  int failed_checks;
} check_state;

#define CHECK(st, cond)                                                        \
  do {                                                                         \
    if (!(cond)) {                                                             \
      (st)->failed_checks++;                                                   \
      fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    }                                                                          \
  } while (0)

#define CHECK_EQ_U32(st, a, b)                                                          \
  do {                                                                                  \
    uint32_t a_ = (uint32_t)(a), b_ = (uint32_t)(b);                                    \
    if (a_ != b_) {                                                                     \
      (st)->failed_checks++;                                                            \
      fprintf(stderr, "%s:%d: %s = 0x%08" PRIx32 ", expected 0x%08" PRIx32 "\n", __FILE__, \
              __LINE__, #a, a_, b_);                                                    \
    }                                                                                   \
  } while (0)

#define CHECK_STR(st, a, b)                                                              \
  do {                                                                                   \
    const char *a_ = (a), *b_ = (b);                                                     \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                             \
      (st)->failed_checks++;                                                             \
      fprintf(stderr, "%s:%d: %s = \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a,    \
              a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                   \
    }                                                                                    \
  } while (0)

typedef void (*test_fn)(check_state *);
typedef struct test_case {
  const char *name;
  test_fn fn;
  bool needs_cases; /* reads VT_SHARED_DIR/cases: runs only with --cases */
} test_case;

#define TEST(name) static void name(check_state *st)

/* Removes a directory tree (no symlinks are followed). */
/* A file's whole contents, NUL-terminated (also pipes and other
 * unseekable files); *len (if not NULL) its length. NULL if unreadable. */
static inline char *test_slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t n = 0, cap = 4096;
  char *b = malloc(cap);
  for (size_t k; b && (k = fread(b + n, 1, cap - n - 1, f)) > 0;) {
    n += k;
    if (cap - n - 1 == 0) {
      char *nb = realloc(b, 2 * cap);
      if (!nb) free(b);
      b = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (!b) return NULL;
  b[n] = 0;
  if (len) *len = n;
  return b;
}

static inline int test_remove_tree(const char *path) {
  struct stat sb;
  if (lstat(path, &sb) != 0) return -1;
  if (!S_ISDIR(sb.st_mode)) return remove(path);
  DIR *d = opendir(path);
  if (!d) return -1;
  int rc = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    size_t n = strlen(path) + strlen(e->d_name) + 2;
    char *child = malloc(n);
    if (!child) {
      rc = -1;
      break;
    }
    snprintf(child, n, "%s/%s", path, e->d_name);
    if (test_remove_tree(child) != 0) rc = -1;
    free(child);
  }
  closedir(d);
  return rmdir(path) == 0 ? rc : -1;
}

/* Creates VT_TEST_TMP_ROOT/NAME.XXXXXX and makes it the working directory;
 * its absolute path goes to dir. */
static inline int test_enter_tmpdir(const char *name, char *dir, size_t size) {
#ifdef VT_TEST_TMP_ROOT
  const char *root = VT_TEST_TMP_ROOT;
#else
  const char *root = "/tmp";
#endif
  mkdir(root, 0777); /* normally made by CMake; fine if it exists */
  if ((size_t)snprintf(dir, size, "%s/%s.XXXXXX", root, name) >= size || !mkdtemp(dir) ||
      chdir(dir) != 0) {
    perror("test temporary directory");
    return -1;
  }
  return 0;
}

/* A directory of this program's own under VT_TEST_TMP, made on first use
 * (prefix names it: PREFIX-XXXXXX), and "DIR/name" in it: one string per
 * distinct name, up to 32 names. */
static inline const char *test_tmp_dir(const char *prefix) {
  static char dir[512];
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "%s/%s-XXXXXX", VT_TEST_TMP, prefix);
    if (!mkdtemp(dir)) {
      perror(dir);
      exit(1);
    }
  }
  return dir;
}

static inline const char *test_tmp_path(const char *prefix, const char *name) {
  static char names[32][64], paths[32][700];
  static unsigned n;
  const char *dir = test_tmp_dir(prefix);
  for (unsigned i = 0; i < n; i++)
    if (!strcmp(names[i], name)) return paths[i];
  if (n == 32 || strlen(name) >= sizeof names[0]) abort();
  snprintf(names[n], sizeof names[0], "%s", name);
  snprintf(paths[n], sizeof paths[0], "%s/%s", dir, name);
  return paths[n++];
}

static inline bool test_cases_present(void) {
#ifdef VT_SHARED_DIR
  struct stat sb;
  if (stat(VT_SHARED_DIR "/cases", &sb) == 0 && S_ISDIR(sb.st_mode)) return true;
  printf("SKIP: %s not found (the official Ventus cases are absent)\n", VT_SHARED_DIR "/cases");
#else
  printf("SKIP: VT_SHARED_DIR is not defined\n");
#endif
  return false;
}

/* argv[1] == "--cases": run the T_CASES tests (77 when the cases are
 * absent); otherwise the others. Each run gets its own temporary directory,
 * removed at the end unless a test failed (then its path is printed). */
static inline int run_tests(const test_case *tests, size_t n, int argc, char **argv) {
  bool cases = argc > 1 && !strcmp(argv[1], "--cases");
  if (argc > 2 || (argc == 2 && !cases)) {
    fprintf(stderr, "usage: %s [--cases]\n", argv[0]);
    return 2;
  }
  if (cases && !test_cases_present()) return VT_TEST_SKIPPED;
#ifdef VT_TEST_NAME
  const char *name = VT_TEST_NAME;
#else
  const char *name = "test";
#endif
  char tag[256], dir[4096];
  snprintf(tag, sizeof tag, "%s%s", name, cases ? "_cases" : "");
  if (test_enter_tmpdir(tag, dir, sizeof dir) != 0) return 1;
  int passed = 0, failed = 0;
  for (size_t i = 0; i < n; i++) {
    if (tests[i].needs_cases != cases) continue;
    check_state st = {0};
    tests[i].fn(&st);
    if (st.failed_checks) {
      failed++;
      fprintf(stderr, "FAIL %s (%d failed checks)\n", tests[i].name, st.failed_checks);
    } else {
      passed++;
      printf("ok   %s\n", tests[i].name);
    }
  }
  if (chdir("/") != 0) perror("chdir /");
  if (failed)
    fprintf(stderr, "temporary files kept in %s\n", dir);
  else if (test_remove_tree(dir) != 0)
    fprintf(stderr, "warning: could not remove %s\n", dir);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

#define RUN_TESTS(...)                                                      \
  int main(int argc, char **argv) {                                         \
    static const test_case tests_[] = {__VA_ARGS__};                        \
    return run_tests(tests_, sizeof tests_ / sizeof tests_[0], argc, argv); \
  }
#define T(fn) {#fn, fn, false}
#define T_CASES(fn) {#fn, fn, true}
#endif
