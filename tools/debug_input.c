/* The command lines of vt debug: from a script (-x FILE) or a pipe, echoed
 * after the prompt so a transcript reads like a session; from a terminal
 * with line editing and history through libedit when vt was built with it
 * (Debian libedit-dev), else plainly. In a terminal an empty line repeats
 * the previous command, as in gdb. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "debug_input.h"

#define MAX_LINE 4096 /* longer command lines are cut */

#ifdef VT_HAVE_LIBEDIT
#include <histedit.h>
#endif

struct debug_input {
  FILE *in;
  bool own, interactive;
  FILE *echo;
  volatile sig_atomic_t *interrupt;
  char *line, *last;
  size_t cap;
#ifdef VT_HAVE_LIBEDIT
  EditLine *el;
  History *hist;
#endif
};

#ifdef VT_HAVE_LIBEDIT
static char *prompt(EditLine *el) {
  (void)el;
  return (char *)"(vt) ";
}
#endif

debug_input *debug_input_open(const char *script, FILE *echo, volatile sig_atomic_t *interrupt) {
  debug_input *d = calloc(1, sizeof *d);
  if (!d) return NULL;
  d->in = script ? fopen(script, "r") : stdin;
  if (!d->in) {
    free(d);
    return NULL;
  }
  d->own = script != NULL;
  d->interactive = !script && isatty(fileno(stdin));
  d->echo = echo;
  d->interrupt = interrupt;
#ifdef VT_HAVE_LIBEDIT
  if (d->interactive && (d->el = el_init("vt", stdin, stdout, stderr)) != NULL) {
    HistEvent ev;
    d->hist = history_init();
    if (d->hist) history(d->hist, &ev, H_SETSIZE, 1000);
    el_set(d->el, EL_PROMPT, prompt);
    el_set(d->el, EL_EDITOR, "emacs");
    if (d->hist) el_set(d->el, EL_HIST, history, d->hist);
  }
#endif
  return d;
}

void debug_input_close(debug_input *d) {
  if (!d) return;
#ifdef VT_HAVE_LIBEDIT
  if (d->el) el_end(d->el);
  if (d->hist) history_end(d->hist);
#endif
  if (d->own) fclose(d->in);
  free(d->line);
  free(d->last);
  free(d);
}

bool debug_input_interactive(const debug_input *d) { return d->interactive; }

/* the next raw line (without its newline), NULL at the end */
static const char *raw_line(debug_input *d) {
#ifdef VT_HAVE_LIBEDIT
  if (d->el) {
    int n = 0;
    const char *s = el_gets(d->el, &n);
    if (!s || n <= 0) return NULL;
    size_t len = strlen(s);
    if (len + 1 > d->cap) {
      char *p = realloc(d->line, len + 1);
      if (!p) return NULL;
      d->line = p;
      d->cap = len + 1;
    }
    memcpy(d->line, s, len + 1);
    if (len && d->line[len - 1] == '\n') d->line[len - 1] = 0;
    if (*d->line) {
      HistEvent ev;
      if (d->hist) history(d->hist, &ev, H_ENTER, d->line);
    }
    return d->line;
  }
#endif
  if (d->interactive) {
    fputs("(vt) ", stdout);
    fflush(stdout);
  }
  if (d->cap < MAX_LINE) {
    char *b = realloc(d->line, MAX_LINE);
    if (!b) return NULL;
    d->line = b;
    d->cap = MAX_LINE;
  }
  if (!fgets(d->line, MAX_LINE, d->in)) return NULL;
  size_t n = strlen(d->line);
  if (n && d->line[n - 1] == '\n') {
    d->line[n - 1] = 0;
  } else { /* a longer line: the rest is dropped, so input cannot grow memory */
    int c;
    while ((c = fgetc(d->in)) != EOF && c != '\n') {
    }
  }
  return d->line;
}

const char *debug_input_line(debug_input *d) {
  for (;;) {
    errno = 0;
    const char *s = raw_line(d);
    bool interrupted = d->interrupt && *d->interrupt;
    if (d->interrupt) *d->interrupt = 0;
    if (!s) {
      if (interrupted || errno == EINTR) { /* Ctrl-C at the prompt: a new line */
        clearerr(d->in);
        fputc('\n', stdout);
        continue;
      }
      return NULL;
    }
    if (!d->interactive) {
      fprintf(d->echo, "(vt) %s\n", s);
      return s;
    }
    if (!*s && d->last) return d->last; /* repeat */
    if (*s) {
      char *copy = strdup(s);
      if (copy) {
        free(d->last);
        d->last = copy;
      }
    }
    return s;
  }
}
