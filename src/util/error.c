/* Filling a vt_error: the message, and text put in front of it. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void vt_err_set(vt_error *err, vt_status st, const char *fmt, ...) {
  if (!err) return;
  err->status = st;
  err->has_location = false;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  va_end(ap);
}

void vt_err_prefix(vt_error *err, const char *fmt, ...) {
  if (!err) return;
  char pre[256];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(pre, sizeof pre, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  size_t plen = (size_t)n < sizeof pre ? (size_t)n : sizeof pre - 1;
  size_t mlen = strnlen(err->message, sizeof err->message - 1);
  if (plen + mlen >= sizeof err->message) mlen = sizeof err->message - 1 - plen;
  memmove(err->message + plen, err->message, mlen);
  memcpy(err->message, pre, plen);
  err->message[plen + mlen] = 0;
}

