/* Warnings and the live-warp dump of a launch that stopped early: one line
 * per warp with SM, workgroup, warp, pc, the instruction there, SIMT depth
 * and state, so that a user who pressed Ctrl-C (or hit a time limit or a
 * deadlock) sees where every warp was. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exec_util.h"

#define DUMP_MAX (256u * 1024u) /* bytes of dump kept; the rest is summarised */

void vt_sim_warn(vt_device *dev, const char *fmt, ...) {
  if (!dev->warn) return;
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  dev->warn(dev->warn_ctx, msg);
}

void vt_device_set_warn(vt_device *dev, vt_warn_fn fn, void *ctx) {
  dev->warn = fn;
  dev->warn_ctx = ctx;
}

void vt_device_set_poll(vt_device *dev, vt_poll_fn fn, void *ctx) {
  dev->poll = fn;
  dev->poll_ctx = ctx;
}

const char *vt_device_warp_dump(const vt_device *dev) { return dev->dump ? dev->dump : ""; }

void vt_sim_dump_clear(vt_device *dev) {
  free(dev->dump);
  dev->dump = NULL;
  dev->dump_len = 0;
}

static void append(vt_device *dev, const char *line) {
  size_t n = strlen(line);
  if (dev->dump_len + n + 1 > DUMP_MAX) {
    if (dev->dump_len + 5 <= DUMP_MAX) line = "...\n", n = 4;
    else return;
  }
  char *d = realloc(dev->dump, dev->dump_len + n + 1);
  if (!d) return;
  memcpy(d + dev->dump_len, line, n + 1);
  dev->dump = d;
  dev->dump_len += n;
}

static const char *state_name(const vt_warp *w) {
  switch (w->state) {
  case WARP_BARRIER: return "waiting at a barrier";
  case WARP_ENDED: return "ended";
  default: return "running";
  }
}

void vt_sim_dump_wg(vt_device *dev, const vt_wg *wg, unsigned sm) {
  for (unsigned i = 0; i < wg->nwarps; i++) {
    const vt_warp *w = wg->warps[i];
    if (!w) continue;
    char dis[96] = "?", line[256];
    uint32_t word = 0;
    const uint8_t *p = w->pc - VT_LDS_BASE < VT_ADDR_LDS_SIZE ? vt_pages_peek(&wg->lds, w->pc)
                                                         : vt_pages_peek(&dev->mem.global, w->pc);
    if (p && (w->pc & 3) == 0) {
      word = load_le(p, 4);
      vt_disasm(word, w->pc, NULL, dis, sizeof dis);
      for (char *c = dis; *c; c++)
        if (*c == '\t') *c = ' ';
    }
    snprintf(line, sizeof line,
             "SM %u, workgroup %u, warp %u: pc 0x%08x (0x%08x %s), mask 0x%08x, SIMT depth %u, %s\n",
             sm, wg->id, w->wid, w->pc, word, dis, w->mask, w->depth, state_name(w));
    append(dev, line);
  }
}
