/* A small JSON reader and writer for the files of vt sweep and vt report:
 * sweep plans and results, statistics (docs/counters.md) and timelines
 * (docs/timing.md). The reader builds a tree (json_parse) or walks a large
 * document value by value (json_cursor), with a nesting limit, so bad input
 * gives an error message with the byte offset, never a crash. Numbers keep
 * their text, so values are copied exactly. */
#ifndef VT_SWEEP_JSON_H
#define VT_SWEEP_JSON_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value {
  json_type type;
  bool boolean;
  double number;
  char *text;               /* STRING: the string (NUL-terminated); NUMBER: its text */
  size_t n;                 /* ARRAY/OBJECT: number of items */
  struct json_value *items; /* ARRAY/OBJECT items */
  char **keys;              /* OBJECT: the key of each item */
} json_value;

typedef struct json_cursor {
  const char *s, *end, *start;
  int depth;
  bool first; /* just entered a non-empty object or array */
  char err[256];
} json_cursor;

void json_cursor_init(json_cursor *c, const char *text, size_t len);
/* One whole value at the cursor into *v (free with json_free). 0 or -1 (c->err). */
int json_read(json_cursor *c, json_value *v);
/* Step into an object or array: 0, or -1 when the next value is not one. */
int json_enter(json_cursor *c, char open);
/* Next member of the object entered: 1 with its key (malloc'd) and the
 * cursor at the value, 0 at its end ('}' consumed), -1 on error. */
int json_next_key(json_cursor *c, char **key);
/* Next element of the array entered: 1 at a value, 0 at its end, -1 error. */
int json_next_item(json_cursor *c);
/* Skip one value. 0 or -1. */
int json_skip(json_cursor *c);
/* After the top-level value only white space may follow: 0 or -1. */
int json_finish(json_cursor *c);

/* A whole document: 0, or -1 with a message in err. */
int json_parse(const char *text, size_t len, json_value *v, char *err, size_t errn);
void json_free(json_value *v);

/* Member 'key' of an object (NULL if absent or not an object). */
const json_value *json_get(const json_value *obj, const char *key);
/* The string of a STRING value, or NULL. */
const char *json_str(const json_value *v);

/* Writing: a string with JSON escapes; in HTML <script> blocks '<' is also
 * escaped (html_safe) so the text cannot close the element. */
void json_write_string(FILE *f, const char *s, bool html_safe);
#endif
