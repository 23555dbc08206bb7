/* Axis values of a sweep file: a list ("1, 2, 4", "ventus-2025,
 * verilog-2024") or a numeric range ("1..8", "32..256 +32", "1..64 *2"). */
#include <stdlib.h>
#include <string.h>

#include "sweep.h"
#include "util/parse.h"

static char *trim(char *s) {
  while (*s == ' ' || *s == '\t') s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\t')) *--e = 0;
  return s;
}

/* "A..B [+S | *F]" -> 1 (a range, values pushed), 0 (not a range), -1 */
static int range(char *text, const char *where, sweep_strv *out, char *err, size_t errn) {
  char *dots = strstr(text, "..");
  if (!dots) return 0;
  *dots = 0;
  char *rest = dots + 2, *step = rest + strcspn(rest, "+*");
  char op = *step ? *step : '+';
  uint64_t a, b, s = 1;
  if (*step) *step++ = 0;
  if (vt_parse_u64(trim(text), &a) || vt_parse_u64(trim(rest), &b) ||
      (step > rest + strlen(rest) && vt_parse_u64(trim(step), &s))) {
    snprintf(err, errn, "%s: a range is FIRST..LAST, FIRST..LAST +STEP or FIRST..LAST *FACTOR "
             "with whole numbers", where);
    return -1;
  }
  if (a > b || s == 0 || (op == '*' && (s < 2 || a == 0))) {
    snprintf(err, errn, "%s: empty or endless range (FIRST <= LAST, STEP >= 1, FACTOR >= 2, "
             "FIRST >= 1 with a factor)", where);
    return -1;
  }
  for (uint64_t v = a;;) {
    char num[32];
    if (out->n >= SWEEP_MAX_VALUES) {
      snprintf(err, errn, "%s: more than %d values", where, SWEEP_MAX_VALUES);
      return -1;
    }
    snprintf(num, sizeof num, "%llu", (unsigned long long)v);
    if (sweep_strv_push(out, num)) goto oom;
    if (op == '+' ? v > b - s : v > b / s) break;
    v = op == '+' ? v + s : v * s;
    if (v > b) break;
  }
  return 1;
oom:
  snprintf(err, errn, "out of memory");
  return -1;
}

int sweep_axis_values(const char *text, const char *where, sweep_strv *out, char *err, size_t errn) {
  char *copy = strdup(text);
  if (!copy) {
    snprintf(err, errn, "out of memory");
    return -1;
  }
  int rc = range(copy, where, out, err, errn);
  if (rc == 0) {
    strcpy(copy, text);
    for (char *item = copy, *next; item; item = next) {
      next = strchr(item, ',');
      if (next) *next++ = 0;
      char *v = trim(item);
      if (!*v) {
        snprintf(err, errn, "%s: empty value in the list", where);
        rc = -1;
        break;
      }
      if (out->n >= SWEEP_MAX_VALUES || sweep_strv_push(out, v)) {
        snprintf(err, errn, "%s: too many values", where);
        rc = -1;
        break;
      }
    }
  }
  free(copy);
  return rc < 0 ? -1 : 0;
}
