/* The sparse page store (src/sim/mem.h) over its chunked host memory
 * (src/sim/page_alloc.c): pages read zero when first touched, keep their
 * bytes, are distinct, and read zero again after being released (by
 * vt_pages_zero) and touched anew; more than one 2 MiB chunk's worth of
 * pages; freeing and reusing a store. */
#include "check.h"
#include "sim/mem.h"

#define NPAGES 1100u /* > 2 MiB of pages: every chunk size up to 2 MiB, then two more */

static uint32_t addr_of(unsigned i) { return 0x90000000u + i * 3u * VT_PAGE_SIZE; }

static bool all_zero(const uint8_t *p) {
  for (unsigned k = 0; k < VT_PAGE_SIZE; k++)
    if (p[k]) return false;
  return true;
}

TEST(pages_zero_distinct_and_reused) {
  vt_pages ps = {0};
  for (int round = 0; round < 2; round++) {
    for (unsigned i = 0; i < NPAGES; i++) {
      uint8_t *p = vt_pages_get(&ps, addr_of(i));
      CHECK(st, p != NULL && all_zero(p));
      if (p) memset(p, (int)(i % 251) + 1, VT_PAGE_SIZE);
    }
    CHECK(st, ps.npages == NPAGES);
    unsigned bad = 0;
    for (unsigned i = 0; i < NPAGES; i++) {
      const uint8_t *p = vt_pages_peek(&ps, addr_of(i));
      if (!p || p[0] != (uint8_t)(i % 251 + 1) || p[VT_PAGE_SIZE - 1] != (uint8_t)(i % 251 + 1))
        bad++;
    }
    CHECK_EQ_U32(st, bad, 0);
    /* release every other page, then touch them again: zero */
    for (unsigned i = 0; i < NPAGES; i += 2) vt_pages_zero(&ps, addr_of(i), VT_PAGE_SIZE);
    CHECK(st, ps.npages == NPAGES / 2);
    for (unsigned i = 0; i < NPAGES; i += 2) {
      CHECK(st, vt_pages_peek(&ps, addr_of(i)) == NULL);
      uint8_t *p = vt_pages_get(&ps, addr_of(i));
      CHECK(st, p != NULL && all_zero(p));
    }
    for (unsigned i = 1; i < NPAGES; i += 2) {
      const uint8_t *p = vt_pages_peek(&ps, addr_of(i));
      CHECK(st, p && p[100] == (uint8_t)(i % 251 + 1));
    }
    vt_pages_free(&ps); /* the second round starts from an empty store again */
    CHECK(st, ps.npages == 0 && vt_pages_peek(&ps, addr_of(0)) == NULL);
  }
}

/* a partial vt_pages_zero clears bytes without releasing the page */
TEST(partial_zero) {
  vt_pages ps = {0};
  uint8_t *p = vt_pages_get(&ps, 0x90001000u);
  CHECK(st, p != NULL);
  if (p) {
    memset(p, 0x5a, VT_PAGE_SIZE);
    vt_pages_zero(&ps, 0x90001010u, 16);
    CHECK(st, vt_pages_peek(&ps, 0x90001000u) == p);
    CHECK(st, p[15] == 0x5a && p[16] == 0 && p[31] == 0 && p[32] == 0x5a);
  }
  vt_pages_free(&ps);
}

RUN_TESTS(T(pages_zero_distinct_and_reused), T(partial_zero))
