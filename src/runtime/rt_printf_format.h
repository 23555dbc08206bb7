/* The host half of device printf (docs/printf.md): formats one formatted
 * record (a format and the argument bytes the device recorded) with the
 * OpenCL C printf rules (OpenCL C 1.2 section 6.12.13). Pure: device
 * strings (%s) come through a callback. */
#ifndef VT_RT_PRINTF_FORMAT_H
#define VT_RT_PRINTF_FORMAT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RT_PRINTF_MAX_FIELD 1024u  /* largest field width and precision */
#define RT_PRINTF_MAX_STRING 4096u /* longest %s string (and format) read */
#define RT_PRINTF_MAX_OUTPUT 65536u /* text one record may produce */

/* Growable text; past `limit` bytes the rest is dropped and `cut` set. */
typedef struct rt_text {
  char *p;
  size_t len, cap, limit;
  bool cut;
} rt_text;

void rt_text_init(rt_text *t, size_t limit);
void rt_text_put(rt_text *t, const char *s, size_t n);
void rt_text_free(rt_text *t);

/* Reads the NUL-terminated string at a device address into buf (up to max
 * bytes, max > 0). Returns its length when a NUL ends it within max bytes,
 * max when no NUL was found in max bytes, -1 when the address is not
 * readable. */
typedef long (*rt_devstr_fn)(void *user, uint32_t addr, char *buf, size_t max);

/* Appends the text of one record to out. fmt (fmt_len bytes, no NUL) is
 * the format; payload holds the record's argument bytes, word 0 being the
 * format address, so arguments start at offset 4 and an 8-byte argument
 * at a multiple of 8 (docs/printf.md). Never reads outside payload. */
void rt_printf_format(const char *fmt, size_t fmt_len, const uint8_t *payload, size_t payload_len,
                      rt_devstr_fn str, void *user, rt_text *out);
#endif
