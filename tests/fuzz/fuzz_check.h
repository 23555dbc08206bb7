/* Shared helper for the fuzz targets: a check that stays active with NDEBUG
 * (assert() would vanish in release builds) and aborts so that libFuzzer and
 * the standalone corpus runner both report the input as a failure. */
#ifndef VT_FUZZ_CHECK_H
#define VT_FUZZ_CHECK_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_CHECK(cond, ...)                                               \
  do {                                                                      \
    if (!(cond)) {                                                          \
      fprintf(stderr, "%s:%d: fuzz check failed: %s: ", __FILE__, __LINE__, \
              #cond);                                                       \
      fprintf(stderr, __VA_ARGS__);                                         \
      fputc('\n', stderr);                                                  \
      abort();                                                              \
    }                                                                       \
  } while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
