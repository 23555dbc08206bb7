/* Program build options (OpenCL 1.2 section 5.6.4): splitting an option
 * string into words and checking them against what clBuildProgram,
 * clCompileProgram and clLinkProgram accept, so that an unknown option
 * gives CL_INVALID_BUILD_OPTIONS (or ..._COMPILER_/_LINKER_OPTIONS) rather
 * than a failed build. The compiler (vt cc, docs/cc.md "Options") takes
 * the same words. */
#include <stdlib.h>
#include <string.h>

#include "ocl_internal.h"

/* Words separated by white space; "..." and '...' quote, a backslash
 * escapes the next character (as vt_cc_compile splits them). */
int vtcl_words_split(const char *s, vtcl_words *w) {
  memset(w, 0, sizeof *w);
  if (!s) return 0;
  w->storage = malloc(strlen(s) + 1);
  if (!w->storage) return -1;
  char *o = w->storage;
  const char *p = s;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (!*p) return 0;
    if (w->n == VTCL_MAX_WORDS) return -1;
    w->word[w->n++] = o;
    char quote = 0;
    for (; *p && (quote || !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')); p++) {
      if (!quote && (*p == '"' || *p == '\'')) quote = *p;
      else if (quote && *p == quote) quote = 0;
      else if (*p == '\\' && p[1] && quote != '\'') *o++ = *++p;
      else *o++ = *p;
    }
    if (quote) return -1;
    *o++ = 0;
  }
}

void vtcl_words_free(vtcl_words *w) {
  free(w->storage);
  memset(w, 0, sizeof *w);
}

static bool in(const char *a, const char *const *list) {
  for (; *list; list++)
    if (!strcmp(a, *list)) return true;
  return false;
}

/* Options of both compiling and linking (OpenCL 1.2 5.6.5.2 lists the
 * math options for clLinkProgram). */
static const char *const math[] = {
    "-cl-denorms-are-zero", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only", "-cl-fast-relaxed-math", NULL};
static const char *const compile_only[] = {
    "-cl-single-precision-constant", "-cl-opt-disable", "-cl-mad-enable", "-cl-kernel-arg-info",
    "-cl-strict-aliasing", "-cl-uniform-work-group-size", "-w", "-Werror", "-g",
    "-O0", "-O1", "-O2", "-O3", "-Os", "-Oz", "-cl-fp32-correctly-rounded-divide-sqrt", NULL};

const char *vtcl_options_check(const vtcl_words *w, int stage) {
  for (int i = 0; i < w->n; i++) {
    const char *a = w->word[i];
    if (in(a, math)) continue;
    if (stage == VTCL_LINK) {
      if (!strcmp(a, "-create-library") || !strcmp(a, "-enable-link-options")) continue;
      return a;
    }
    if (in(a, compile_only) || !strncmp(a, "-cl-std=", 8)) continue;
    if (!strcmp(a, "-D") || !strcmp(a, "-I")) {
      if (++i == w->n) return a; /* the value is missing */
      continue;
    }
    if ((!strncmp(a, "-D", 2) || !strncmp(a, "-I", 2)) && a[2]) continue;
    return a;
  }
  return NULL;
}

/* -cl-denorms-are-zero only allows flushing denormals (vt computes them
 * exactly, docs/fp.md), and clang 14 does not take it as vt cc passes it:
 * it is dropped, as are -create-library and -enable-link-options, which
 * clLinkProgram itself handles. */
char *vtcl_words_for_compiler(const vtcl_words *w) {
  size_t n = 1;
  for (int i = 0; i < w->n; i++) n += 2 * strlen(w->word[i]) + 3;
  char *s = malloc(n), *o = s;
  if (!s) return NULL;
  for (int i = 0; i < w->n; i++) {
    if (!strcmp(w->word[i], "-cl-denorms-are-zero") || !strcmp(w->word[i], "-create-library") ||
        !strcmp(w->word[i], "-enable-link-options"))
      continue;
    if (o != s) *o++ = ' ';
    *o++ = '\'';
    for (const char *c = w->word[i]; *c; c++) {
      if (*c == '\'') { /* 'it'\''s' */
        memcpy(o, "'\\''", 4);
        o += 4;
      } else {
        *o++ = *c;
      }
    }
    *o++ = '\'';
  }
  *o = 0;
  return s;
}
