/* Set-associative tag arrays for the timing model: LRU by time stamp or
 * pseudo-random (16-bit LFSR) replacement; each line records when its fill
 * completes, so a line that is present but not yet valid is an outstanding
 * miss that later requests merge into. The line a fill replaces stays
 * readable until the fill writes the entry (old_tag). */
#include <stdlib.h>

#include "timing_internal.h"

int tm_cache_init(tm_cache *c, unsigned sets, unsigned ways, bool random) {
  size_t n = (size_t)sets * ways;
  c->sets = sets;
  c->ways = ways;
  c->random = random;
  c->lfsr = 0xace1u;
  c->tag = calloc(n, sizeof *c->tag);
  c->valid_at = calloc(n, sizeof *c->valid_at);
  c->stamp = calloc(n, sizeof *c->stamp);
  c->dirty = calloc(n, 1);
  c->old_tag = calloc(n, sizeof *c->old_tag);
  return c->tag && c->valid_at && c->stamp && c->dirty && c->old_tag ? 0 : -1;
}

void tm_cache_free(tm_cache *c) {
  free(c->tag);
  free(c->valid_at);
  free(c->stamp);
  free(c->dirty);
  free(c->old_tag);
  c->tag = c->old_tag = NULL;
  c->valid_at = c->stamp = NULL;
  c->dirty = NULL;
}

int tm_cache_find(const tm_cache *c, uint32_t line) {
  unsigned base = (line % c->sets) * c->ways;
  for (unsigned w = 0; w < c->ways; w++)
    if (c->tag[base + w] == line + 1) return (int)(base + w);
  return -1;
}

bool tm_cache_old_hit(const tm_cache *c, uint32_t line, uint64_t now) {
  unsigned base = (line % c->sets) * c->ways;
  for (unsigned w = 0; w < c->ways; w++)
    if (c->old_tag[base + w] == line + 1 && c->valid_at[base + w] > now) return true;
  return false;
}

void tm_cache_fill(tm_cache *c, int e, uint32_t line, uint64_t fill, uint64_t now) {
  c->old_tag[e] = c->valid_at[e] <= now ? c->tag[e] : 0;
  c->tag[e] = line + 1;
  c->valid_at[e] = fill;
}

int tm_cache_victim(tm_cache *c, uint32_t line, uint64_t now) {
  unsigned base = (line % c->sets) * c->ways;
  for (unsigned w = 0; w < c->ways; w++)
    if (c->tag[base + w] == 0) return (int)(base + w);
  if (c->random) {
    for (unsigned tries = 0; tries < 2 * c->ways; tries++) {
      unsigned bit = ((c->lfsr >> 0) ^ (c->lfsr >> 2) ^ (c->lfsr >> 3) ^ (c->lfsr >> 5)) & 1u;
      c->lfsr = (uint16_t)((c->lfsr >> 1) | (bit << 15));
      unsigned w = c->lfsr % c->ways;
      if (c->valid_at[base + w] <= now) return (int)(base + w);
    }
    return (int)(base + c->lfsr % c->ways);
  }
  int best = -1;
  for (unsigned w = 0; w < c->ways; w++) {
    unsigned e = base + w;
    if (c->valid_at[e] > now) continue; /* in flight */
    if (best < 0 || c->stamp[e] < c->stamp[best]) best = (int)e;
  }
  if (best < 0) {
    best = (int)base;
    for (unsigned w = 1; w < c->ways; w++)
      if (c->valid_at[base + w] < c->valid_at[best]) best = (int)(base + w);
  }
  return best;
}

void tm_cache_touch(tm_cache *c, int e, uint64_t now) { c->stamp[e] = now + 1; }
