/* GDB remote protocol framing: '$' data '#' two hex checksum digits; '+'
 * and '-' acknowledge, 0x03 interrupts. Packets longer than
 * GDB_MAX_PACKET are read to their end and reported as too long (the
 * caller sends an error reply), so no input can grow memory. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gdb_internal.h"

enum { RX_IDLE, RX_DATA, RX_SUM1, RX_SUM2 };

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

void gdb_rx_init(gdb_rx *rx) {
  rx->state = RX_IDLE;
  rx->len = 0;
  rx->too_long = false;
}

gdb_rx_event gdb_rx_byte(gdb_rx *rx, uint8_t c) {
  switch (rx->state) {
  case RX_IDLE:
    if (c == '$') {
      rx->state = RX_DATA;
      rx->len = 0;
      rx->sum = 0;
      rx->too_long = false;
    }
    return c == 0x03 ? GDB_RX_INTERRUPT : c == '+' ? GDB_RX_ACK : c == '-' ? GDB_RX_NAK : GDB_RX_MORE;
  case RX_DATA:
    if (c == '#') {
      rx->state = RX_SUM1;
      return GDB_RX_MORE;
    }
    if (c == '$') { /* a new packet: the old one was cut off */
      rx->len = 0;
      rx->sum = 0;
      rx->too_long = false;
      return GDB_RX_MORE;
    }
    rx->sum = (uint8_t)(rx->sum + c);
    if (rx->len < GDB_MAX_PACKET) rx->data[rx->len++] = (char)c;
    else rx->too_long = true;
    return GDB_RX_MORE;
  case RX_SUM1: {
    int h = hexval(c);
    rx->state = h < 0 ? RX_IDLE : RX_SUM2;
    if (h < 0) return GDB_RX_BAD_CHECKSUM;
    rx->want = (uint8_t)(h << 4);
    return GDB_RX_MORE;
  }
  default: /* RX_SUM2 */
    rx->state = RX_IDLE;
    if (hexval(c) < 0 || (uint8_t)(rx->want | hexval(c)) != rx->sum) return GDB_RX_BAD_CHECKSUM;
    if (rx->too_long) return GDB_RX_TOO_LONG;
    rx->data[rx->len] = 0;
    return GDB_RX_PACKET;
  }
}

void gdb_buf_put(gdb_buf *b, const void *s, size_t n) {
  if (b->oom) return;
  if (b->len + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
      b->oom = true;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  b->p[b->len] = 0;
}

void gdb_buf_puts(gdb_buf *b, const char *s) { gdb_buf_put(b, s, strlen(s)); }

void gdb_buf_printf(gdb_buf *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  if (n > 0) gdb_buf_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

void gdb_buf_hex(gdb_buf *b, const void *bytes, size_t n) {
  static const char digits[] = "0123456789abcdef";
  const uint8_t *p = bytes;
  for (size_t i = 0; i < n; i++) {
    char two[2] = {digits[p[i] >> 4], digits[p[i] & 15]};
    gdb_buf_put(b, two, 2);
  }
}

void gdb_buf_reg(gdb_buf *b, uint32_t v) {
  uint8_t le[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
  gdb_buf_hex(b, le, 4);
}

void gdb_buf_free(gdb_buf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

void gdb_frame(gdb_buf *out, const char *data, size_t n) {
  uint8_t sum = 0;
  gdb_buf_put(out, "$", 1);
  for (size_t i = 0; i < n; i++) {
    char c = data[i];
    if (c == '$' || c == '#' || c == '}' || c == '*') {
      char esc[2] = {'}', (char)(c ^ 0x20)};
      gdb_buf_put(out, esc, 2);
      sum = (uint8_t)(sum + esc[0] + esc[1]);
    } else {
      gdb_buf_put(out, &c, 1);
      sum = (uint8_t)(sum + (uint8_t)c);
    }
  }
  gdb_buf_printf(out, "#%02x", sum);
}

bool gdb_hex_number(const char **s, const char *end, unsigned max_digits, uint64_t *v) {
  const char *p = *s;
  uint64_t x = 0;
  unsigned n = 0;
  while (p < end && hexval((unsigned char)*p) >= 0) {
    if (++n > max_digits) return false;
    x = x << 4 | (uint64_t)hexval((unsigned char)*p++);
  }
  if (n == 0) return false;
  *s = p;
  *v = x;
  return true;
}

bool gdb_hex_bytes(const char *s, size_t n, uint8_t *out) {
  for (size_t i = 0; i < n; i++) {
    int hi = hexval((unsigned char)s[2 * i]), lo = hexval((unsigned char)s[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = (uint8_t)(hi << 4 | lo);
  }
  return true;
}
