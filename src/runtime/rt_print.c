/* printf output (docs/printf.md): the print buffer of KNL words 48/52 with
 * its record protocol, and the official device library's fixed window at
 * 0xa0024000. Both are drained after every launch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_internal.h"

#define HEADER 8u

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
    if (vt_buf_alloc(rt->dev, rt->opt.print_buffer_size, &a, READ_WRITE, 0, 0) != 0)
      return rt_fail_driver(rt, "cannot allocate the print buffer (%u bytes)",
                            rt->opt.print_buffer_size);
    rt->print_addr = (uint32_t)a;
    rt->print_size = rt->opt.print_buffer_size;
  }
  static const uint8_t zero[HEADER];
  return vt_rt_write(rt, rt->print_addr, zero, HEADER);
}

int rt_print_drain(vt_rt *rt, uint32_t *bytes, uint32_t *dropped_out) {
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
      uint32_t len = le32(buf + off);
      if (len == 0 || len > used - off - 4) {
        /* reserved but never completed (a trap in the middle of a print);
         * when the cursor ran past the end, the rest is the space failed
         * reservations skipped, already counted by the device */
        if (cursor <= area) dropped++;
        break;
      }
      rt_emit(rt, (const char *)buf + off + 4, len);
      *bytes += len;
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

/* The window is a real driver buffer at exactly 0xa0024000: the driver
 * allocates upward and never reuses addresses, so padding allocations up to
 * it (released again at once) place the window buffer there. */
int rt_window_map(vt_rt *rt) {
  if (rt->window_mapped) return 0;
  const uint32_t w = VT_RT_PRINT_WINDOW_ADDR;
  uint64_t probe = 0;
  if (vt_buf_alloc(rt->dev, 4096, &probe, READ_WRITE, 0, 0) != 0)
    return rt_fail_driver(rt, "cannot map the printf window at 0x%08x", w);
  uint64_t win = probe;
  if (probe != w) {
    vt_one_buf_free(rt->dev, 4096, &probe, 0, 0);
    if (probe > w)
      return rt_fail(rt,
                     "cannot map the printf window at 0x%08x: device buffers already reach "
                     "0x%08llx (load programs that use printf before allocating 256 MiB)",
                     w, (unsigned long long)probe);
    uint64_t next = probe + 4096, pad = 0;
    if (next < w) {
      if (vt_buf_alloc(rt->dev, w - next, &pad, READ_WRITE, 0, 0) != 0)
        return rt_fail_driver(rt, "cannot map the printf window at 0x%08x", w);
      vt_one_buf_free(rt->dev, w - next, &pad, 0, 0);
    }
    if (vt_buf_alloc(rt->dev, VT_RT_PRINT_WINDOW_SIZE, &win, READ_WRITE, 0, 0) != 0)
      return rt_fail_driver(rt, "cannot map the printf window at 0x%08x", w);
    if (win != w) {
      vt_one_buf_free(rt->dev, VT_RT_PRINT_WINDOW_SIZE, &win, 0, 0);
      return rt_fail(rt, "cannot map the printf window: the driver placed it at 0x%08llx",
                     (unsigned long long)win);
    }
  }
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
