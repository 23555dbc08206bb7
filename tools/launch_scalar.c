/* By-value argument specs of vt launch (launch_scalar.h). Integers are
 * decimal, 0x hex or 0 octal and range-checked; floats use strtof/strtod
 * syntax and must not overflow. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "launch_scalar.h"
#include "util/parse.h"

static const struct {
  const char *name;
  unsigned size;
  const char *what;
} types[] = {
    {"i32", 4, "a 32-bit signed integer"},   {"u32", 4, "a 32-bit unsigned integer"},
    {"f32", 4, "a float"},                   {"i64", 8, "a 64-bit signed integer"},
    {"u64", 8, "a 64-bit unsigned integer"}, {"f64", 8, "a double"},
};

static int find(const char *type, size_t len) {
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (len == 3 && !strncmp(type, types[i].name, 3)) return (int)i;
  return -1;
}

unsigned vt_launch_scalar_size(const char *type, size_t len) {
  int i = find(type, len);
  return i < 0 ? 0 : types[i].size;
}

static void put_le(uint8_t *out, uint64_t v, unsigned size) {
  for (unsigned i = 0; i < size; i++) out[i] = (uint8_t)(v >> (8 * i));
}

/* the bits of the value as an unsigned 64-bit number */
static int parse_bits(char kind, unsigned size, const char *s, uint64_t *bits) {
  char *end;
  errno = 0;
  if (kind == 'i') {
    long long x = strtoll(s, &end, 0);
    if (errno || *end || end == s || (size == 4 && (x < INT32_MIN || x > INT32_MAX))) return -1;
    *bits = (uint64_t)x;
  } else if (kind == 'u') {
    if (vt_parse_u64(s, bits) != 0 || (size == 4 && *bits > 0xffffffffu)) return -1;
  } else if (size == 4) {
    float f = strtof(s, &end);
    uint32_t w;
    if (*end || end == s || (errno == ERANGE && isinf(f))) return -1;
    memcpy(&w, &f, 4);
    *bits = w;
  } else {
    double d = strtod(s, &end);
    if (*end || end == s || (errno == ERANGE && isinf(d))) return -1;
    memcpy(bits, &d, 8);
  }
  return 0;
}

int vt_launch_parse_scalar(const char *type, size_t len, const char *text, uint8_t out[8],
                           const char **what) {
  int i = find(type, len);
  if (i < 0) return -1;
  *what = types[i].what;
  uint64_t bits;
  if (parse_bits(types[i].name[0], types[i].size, text, &bits) != 0) return -1;
  put_le(out, bits, types[i].size);
  return 0;
}
