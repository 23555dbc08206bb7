/* Parsing helpers shared by the library and the vt command. */
#include "parse.h"

#include <errno.h>
#include <stdlib.h>

int vt_parse_u64(const char *s, uint64_t *out) {
  if (!s || !*s || s[0] == '-' || s[0] == '+' || s[0] == ' ') return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}
