/* printf output (docs/printf.md): the print buffer of KNL words 48/52 with
 * its record protocol (text records and formatted records), and the
 * official device library's fixed window at 0xa0024000. Both are drained
 * after every launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"
#include "vt/driver_ext.h"
#include "rt_printf_format.h"

#define HEADER 8u
#define FORMATTED 0x80000000u /* length-word bit of a formatted record */

void rt_emit(vt_rt *rt, const char *text, size_t n) {
  if (n == 0) return;
  if (rt->opt.print_fn) {
    rt->opt.print_fn(rt->opt.print_user, text, n);
  } else {
    fwrite(text, 1, n, stdout);
    fflush(stdout);
  }
}

static uint32_t le32(const uint8_t *p) {
  return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Allocated once per context; the header (write cursor, dropped count) is
 * zeroed before every launch. */
int rt_print_prepare(vt_rt *rt) {
  if (rt->opt.no_print_buffer) return 0;
  if (!rt->print_addr) {
    uint64_t a = 0;
    if (vt_buf_alloc(rt->dev, rt->opt.print_buffer_size, &a, READ_WRITE, rt->task, 0) != 0)
      return rt_fail_driver(rt, "cannot allocate the print buffer (%u bytes)",
                            rt->opt.print_buffer_size);
    rt->print_addr = (uint32_t)a;
    rt->print_size = rt->opt.print_buffer_size;
  }
  static const uint8_t zero[HEADER];
  return vt_rt_write(rt, rt->print_addr, zero, HEADER);
}

typedef struct devmem {
  vt_rt *rt;
  const vt_rt_program *prog;
} devmem;

static long devstr(void *user, uint32_t addr, char *buf, size_t max) {
  const devmem *m = user;
  return rt_read_device_string(m->rt, m->prog, addr, buf, max);
}

/* A formatted record: payload word 0 is the format's device address, the
 * arguments follow (docs/printf.md). Returns the bytes printed. */
static size_t print_formatted(vt_rt *rt, const vt_rt_program *prog, const uint8_t *payload,
                              uint32_t len) {
  devmem m = {rt, prog};
  rt_text t;
  rt_text_init(&t, RT_PRINTF_MAX_OUTPUT);
  char fmt[RT_PRINTF_MAX_STRING], note[128];
  uint32_t addr = len >= 4 ? le32(payload) : 0;
  long n = len >= 4 ? devstr(&m, addr, fmt, sizeof fmt) : -1;
  if (len < 4)
    snprintf(note, sizeof note, "[vt: printf record without a format]\n");
  else if (n < 0)
    snprintf(note, sizeof note, "[vt: the printf format at 0x%08x is not readable by the host]\n",
             addr);
  else if ((size_t)n == sizeof fmt)
    snprintf(note, sizeof note, "[vt: the printf format at 0x%08x has no NUL within %u bytes]\n",
             addr, RT_PRINTF_MAX_STRING);
  else
    note[0] = 0;
  if (note[0])
    rt_text_put(&t, note, strlen(note));
  else
    rt_printf_format(fmt, (size_t)n, payload, len, devstr, &m, &t);
  if (t.cut) {
    t.limit += sizeof note;
    n = snprintf(note, sizeof note, "[vt: printf output cut at %u bytes]\n", RT_PRINTF_MAX_OUTPUT);
    rt_text_put(&t, note, (size_t)n);
  }
  rt_emit(rt, t.p, t.len);
  size_t printed = t.len;
  rt_text_free(&t);
  return printed;
}

int rt_print_drain(vt_rt *rt, const vt_rt_program *prog, uint32_t *bytes,
                   uint32_t *dropped_out) {
  *bytes = 0;
  *dropped_out = 0;
  if (!rt->print_addr) return 0;
  uint8_t hdr[HEADER];
  if (vt_rt_read(rt, rt->print_addr, hdr, HEADER) != 0) return -1;
  uint32_t cursor = le32(hdr), dropped = le32(hdr + 4);
  uint32_t area = rt->print_size - HEADER;
  uint32_t used = cursor < area ? cursor : area;
  int rc = 0;
  if (used) {
    uint8_t *buf = malloc(used);
    if (!buf) return rt_fail(rt, "out of memory");
    if (vt_rt_read(rt, rt->print_addr + HEADER, buf, used) != 0) {
      free(buf);
      return -1;
    }
    uint32_t off = 0;
    while (off + 4 <= used) {
      uint32_t word = le32(buf + off), len = word & ~FORMATTED;
      if (len == 0 || len > used - off - 4) {
        /* reserved but never completed (a trap in the middle of a print);
         * when the cursor ran past the end, the rest is the space failed
         * reservations skipped, already counted by the device */
        if (cursor <= area) dropped++;
        break;
      }
      if (word & FORMATTED) {
        *bytes += (uint32_t)print_formatted(rt, prog, buf + off + 4, len);
      } else {
        rt_emit(rt, (const char *)buf + off + 4, len);
        *bytes += len;
      }
      off += 4 + ((len + 3) & ~3u);
    }
    free(buf);
  }
  if (dropped) {
    char note[160];
    int n = snprintf(note, sizeof note,
                     "[vt: %u printf record(s) lost: the print buffer (%u bytes) is full]\n",
                     dropped, rt->print_size);
    rt_emit(rt, note, (size_t)n);
  }
  *dropped_out = dropped;
  static const uint8_t zero[HEADER];
  if (vt_rt_write(rt, rt->print_addr, zero, HEADER) != 0) rc = -1;
  return rc;
}

/* The window is a real driver buffer at exactly 0xa0024000
 * (vt_dev_buf_alloc_at_task, in the runtime's context); it fails if a
 * buffer already covers it. */
int rt_window_map(vt_rt *rt) {
  if (rt->window_mapped) return 0;
  if (vt_dev_buf_alloc_at_task(rt->dev, VT_RT_PRINT_WINDOW_ADDR, VT_RT_PRINT_WINDOW_SIZE,
                               rt->task) != 0)
    return rt_fail_driver(rt, "cannot map the printf window at 0x%08x", VT_RT_PRINT_WINDOW_ADDR);
  rt->window_mapped = true;
  return 0;
}

/* libclc's printf writes characters at window[pos++] with pos a device
 * global; the non-zero bytes, in address order, are the text. */
int rt_window_drain(vt_rt *rt, uint32_t *bytes) {
  *bytes = 0;
  if (!rt->window_mapped) return 0;
  uint8_t win[VT_RT_PRINT_WINDOW_SIZE];
  if (vt_rt_read(rt, VT_RT_PRINT_WINDOW_ADDR, win, sizeof win) != 0) return -1;
  char text[VT_RT_PRINT_WINDOW_SIZE];
  size_t n = 0;
  for (size_t i = 0; i < sizeof win; i++)
    if (win[i]) text[n++] = (char)win[i];
  if (n == 0) return 0;
  rt_emit(rt, text, n);
  *bytes = (uint32_t)n;
  memset(win, 0, sizeof win);
  return vt_rt_write(rt, VT_RT_PRINT_WINDOW_ADDR, win, sizeof win);
}
