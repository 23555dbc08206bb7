/* The growable text buffer of the compiler (cc_internal.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

void cc_buf_add(cc_buf *b, const char *text, size_t n) {
  if (b->oom) return;
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->n + n + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
      b->oom = true;
      return;
    }
    b->s = s;
    b->cap = cap;
  }
  memcpy(b->s + b->n, text, n);
  b->n += n;
  b->s[b->n] = 0;
}

void cc_buf_puts(cc_buf *b, const char *text) { cc_buf_add(b, text, strlen(text)); }

void cc_buf_vprintf(cc_buf *b, const char *fmt, va_list ap) {
  char small[512];
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(small, sizeof small, fmt, ap);
  if (n < 0) {
    va_end(ap2);
    return;
  }
  if ((size_t)n < sizeof small) {
    cc_buf_add(b, small, (size_t)n);
  } else {
    char *big = malloc((size_t)n + 1);
    if (big) {
      vsnprintf(big, (size_t)n + 1, fmt, ap2);
      cc_buf_add(b, big, (size_t)n);
      free(big);
    } else {
      b->oom = true;
    }
  }
  va_end(ap2);
}

void cc_buf_printf(cc_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  cc_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void cc_buf_free(cc_buf *b) {
  free(b->s);
  b->s = NULL;
  b->n = b->cap = 0;
  b->oom = false;
}

char *cc_buf_take(cc_buf *b) {
  char *s = b->s;
  if (!s) s = calloc(1, 1);
  b->s = NULL;
  b->n = b->cap = 0;
  b->oom = false;
  return s;
}
