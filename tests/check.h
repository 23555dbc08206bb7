/* Minimal test harness: CHECK macros, a test registry per file, and the
 * closing line "N passed, N failed" that CI reads. */
#ifndef VT_TEST_CHECK_H
#define VT_TEST_CHECK_H
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
} test_case;

#define TEST(name) static void name(check_state *st)

static inline int run_tests(const test_case *tests, size_t n) {
  int passed = 0, failed = 0;
  for (size_t i = 0; i < n; i++) {
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
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}

#define RUN_TESTS(...)                                                \
  int main(void) {                                                    \
    static const test_case tests_[] = {__VA_ARGS__};                  \
    return run_tests(tests_, sizeof tests_ / sizeof tests_[0]);       \
  }
#define T(fn) {#fn, fn}
#endif
