/* Command lines for vt debug (debug_input.c). */
#ifndef VT_TOOLS_DEBUG_INPUT_H
#define VT_TOOLS_DEBUG_INPUT_H
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

typedef struct debug_input debug_input;
/* script NULL: standard input. Script and piped lines are echoed to echo
 * after "(vt) ". Ctrl-C at the prompt (the flag) starts a new line. */
debug_input *debug_input_open(const char *script, FILE *echo, volatile sig_atomic_t *interrupt);
void debug_input_close(debug_input *d);
bool debug_input_interactive(const debug_input *d);
/* The next command line, NULL at the end of the input; valid until the
 * next call. */
const char *debug_input_line(debug_input *d);
#endif
