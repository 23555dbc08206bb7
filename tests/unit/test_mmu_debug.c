/* The debugger's view of memory with the MMU on (vt/sim_debug.h): global
 * addresses are the launch's virtual addresses, read and written through
 * its page table at the frames the test picked (mmu_util.h); unmapped
 * addresses cannot be accessed. */
#include "check.h"
#include "mmu_util.h"
#include "vt/sim_debug.h"

/* KNL[1] = KNL[0] */
static const char kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a2, 0(t0)\n"
    "    sw a2, 4(t0)\n"
    "    endprg x0, x0, x0\n";

#define KNL 0x90000000u
#define FIRST_FRAME 0x00300000u

typedef struct seen {
  vt_device *dev;
  bool done;
  int rc_read, rc_write, rc_unmapped, rc_phys;
  uint32_t word;
} seen;

/* at the first instruction: read KNL[0], replace it, probe elsewhere */
static int before(void *ctx, vt_warp *w, vt_error *err) {
  (void)w;
  seen *s = ctx;
  if (s->done) return VT_OK;
  s->done = true;
  uint32_t v = 0x600d;
  s->rc_read = vt_debug_mem_read(s->dev, NULL, VT_SPACE_GLOBAL, 0, KNL, &s->word, 4, err);
  s->rc_write = vt_debug_mem_write(s->dev, NULL, VT_SPACE_GLOBAL, 0, KNL, &v, 4, err);
  s->rc_unmapped = vt_debug_mem_read(s->dev, NULL, VT_SPACE_GLOBAL, 0, KNL + 4096, &v, 4, err);
  /* the frame's physical address is not a virtual address of the launch */
  s->rc_phys = vt_debug_mem_read(s->dev, NULL, VT_SPACE_GLOBAL, 0, FIRST_FRAME, &v, 4, err);
  return VT_OK;
}

TEST(global_memory_through_the_page_table) {
  vt_device *dev = mmu_device(16u << 20);
  vt_elf *elf = mmu_asm(kernel);
  CHECK(st, dev && elf);
  if (!dev || !elf) return;
  ptb b;
  ptb_init(&b, dev, FIRST_FRAME);
  ptb_program(&b, elf, P_RX);
  uint64_t knl_pa = ptb_map(&b, KNL, 4096, P_RW, NULL);
  phys_put(dev, knl_pa, 0xbad);
  seen s = {.dev = dev};
  vt_sim_hooks h = {before, NULL, NULL, &s};
  vt_device_set_hooks(dev, &h);
  vt_launch l = mmu_launch(KNL, 1, 1, b.root, 5);
  vt_error e;
  int rc = vt_device_run(dev, &l, NULL, &e);
  if (rc) fprintf(stderr, "%s\n", e.message);
  CHECK_EQ_U32(st, rc, VT_OK);
  CHECK(st, s.done);
  CHECK_EQ_U32(st, s.rc_read, VT_OK);
  CHECK_EQ_U32(st, s.word, 0xbad);
  CHECK_EQ_U32(st, s.rc_write, VT_OK);
  CHECK_EQ_U32(st, s.rc_unmapped, VT_ERR_ACCESS);
  CHECK_EQ_U32(st, s.rc_phys, VT_ERR_ACCESS);
  CHECK_EQ_U32(st, phys_word(dev, knl_pa), 0x600d);
  CHECK_EQ_U32(st, phys_word(dev, knl_pa + 4), 0x600d); /* the kernel saw the write */
  vt_device_set_hooks(dev, NULL);
  vt_elf_free(elf);
  vt_device_free(dev);
}

RUN_TESTS(T(global_memory_through_the_page_table))
