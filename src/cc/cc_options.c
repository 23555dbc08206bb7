/* Option parsing of vt cc and vt_cc_compile (docs/cc.md "Options"): the
 * clBuildProgram options of OpenCL 1.2 section 5.6.4 plus -O, -g, -S-free
 * subset shared with the command line. */
#include <stdio.h>
#include <string.h>

#include "cc_internal.h"

/* OpenCL build options that only allow optimisations (accepted, no effect
 * on the back end beyond what is noted in docs/cc.md). */
static const char *const ignored[] = {
    "-cl-opt-disable-fake", "-cl-strict-aliasing", "-cl-no-signed-zeros-fake",
    "-cl-kernel-arg-info", "-cl-uniform-work-group-size", "-cl-no-subgroup-ifp",
};

static bool is_ignored(const char *a) {
  for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
    if (!strcmp(a, ignored[i])) return true;
  return false;
}

/* -X VALUE or -XVALUE */
static const char *take_value(const char *const *argv, int argc, int *i, const char *flag) {
  size_t n = strlen(flag);
  if (argv[*i][n]) return argv[*i] + n;
  if (*i + 1 >= argc) return NULL;
  return argv[++*i];
}

static int flag_option(cc_opts *o, const char *a) {
  if (!strcmp(a, "-g")) o->debug = true;
  else if (!strcmp(a, "-w")) o->no_warnings = true;
  else if (!strcmp(a, "-Werror")) o->werror = true;
  else if (!strcmp(a, "-cl-opt-disable")) o->opt_level = 0;
  else if (!strcmp(a, "-cl-fast-relaxed-math") || !strcmp(a, "-cl-unsafe-math-optimizations"))
    o->fast_math = o->finite_math = o->no_signed_zeros = o->mad_enable = true;
  else if (!strcmp(a, "-cl-finite-math-only")) o->finite_math = true;
  else if (!strcmp(a, "-cl-no-signed-zeros")) o->no_signed_zeros = true;
  else if (!strcmp(a, "-cl-mad-enable")) o->mad_enable = true;
  else if (!strcmp(a, "-cl-denorms-are-zero")) o->denorms_are_zero = true;
  else if (!strcmp(a, "-cl-single-precision-constant") ||
           !strcmp(a, "-cl-fp32-correctly-rounded-divide-sqrt") || is_ignored(a))
    ; /* division and sqrt are always correctly rounded; constants are float */
  else return -1;
  return 0;
}

int cc_parse_options(const char *const *argv, int argc, cc_opts *o, cc_buf *err) {
  memset(o, 0, sizeof *o);
  o->opt_level = 2;
  o->cl_std = "CL1.2";
  for (int i = 0; i < argc; i++) {
    const char *a = argv[i];
    if (!a || !*a) continue;
    if (a[0] == '-' && a[1] == 'O' && (a[2] == 0 || (a[2] >= '0' && a[2] <= '3' && !a[3]) ||
                                       !strcmp(a + 2, "s") || !strcmp(a + 2, "z"))) {
      o->opt_level = (a[2] >= '0' && a[2] <= '3') ? a[2] - '0' : 2;
    } else if (!strncmp(a, "-D", 2) || !strncmp(a, "-I", 2)) {
      const char *v = take_value(argv, argc, &i, a[1] == 'D' ? "-D" : "-I");
      if (!v || !*v) {
        cc_buf_printf(err, "error: option %.2s needs an argument\n", a);
        return -1;
      }
      bool def = a[1] == 'D';
      if ((def ? o->ndefines : o->nincludes) >= CC_MAX_WORDS) {
        cc_buf_printf(err, "error: too many %.2s options\n", a);
        return -1;
      }
      if (def) o->defines[o->ndefines++] = v;
      else o->includes[o->nincludes++] = v;
    } else if (!strncmp(a, "-cl-std=", 8)) {
      const char *v = a + 8;
      if (strcmp(v, "CL1.0") && strcmp(v, "CL1.1") && strcmp(v, "CL1.2")) {
        cc_buf_printf(err,
                      "error: -cl-std=%s is not supported (vt cc compiles OpenCL C 1.0, 1.1 "
                      "and 1.2)\n",
                      v);
        return -1;
      }
      o->cl_std = v;
    } else if (flag_option(o, a) != 0) {
      cc_buf_printf(err, "error: unknown option '%s'\n", a);
      return -1;
    }
  }
  return 0;
}

int cc_split_words(const char *s, char *storage, const char **words, int max) {
  int n = 0;
  char *w = storage;
  while (*s) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (!*s) break;
    if (n == max) return -1;
    words[n++] = w;
    char quote = 0;
    for (; *s; s++) {
      if (quote) {
        if (*s == quote) quote = 0;
        else if (*s == '\\' && quote == '"' && s[1]) *w++ = *++s;
        else *w++ = *s;
      } else if (*s == '"' || *s == '\'') {
        quote = *s;
      } else if (*s == '\\' && s[1]) {
        *w++ = *++s;
      } else if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
        break;
      } else {
        *w++ = *s;
      }
    }
    if (quote) return -1;
    *w++ = 0;
  }
  return n;
}
