/* A recycled warp starts with every vector register zero (issue 14, warp
 * pooling: warp_get clears only [0, vtop), vt_vwrite_span in exec.c). One
 * warp of 32 threads writes vector registers through each kind of write —
 * an LMUL 8 group, a widening instruction (an EEW 64 pair), a whole-
 * register load of 8 registers, an MMA fragment and SEW 64 pairs — and
 * then the next launch's workgroup, on the same device, recycles that warp
 * and ends at once: all its 256 registers must read zero. Both in the fast
 * run and with the setting reference. */
#include "check.h"
#include "diff_run.h"
#include "vt/asm.h"
#include "vt/elf.h"

#define VBUF 0x90000000u

/* One writer per kind, each the highest write of its kernel, so that the
 * clearing of a recycled warp depends on that kind's span alone. */
static const char src[] =
    "    .text\n"
    "w_whole:\n"
    "    vsetvli t0, zero, e32, m1, ta, ma\n"
    "    li a0, 0x90000000\n"
    "    vl8re32.v v8, (a0)\n"            /* whole registers: v8..v15 */
    "    endprg x0, x0, x0\n"
    "w_lmul8:\n"
    "    vsetvli t0, zero, e32, m8, ta, ma\n"
    "    vid.v v8\n"                      /* the group v8..v15 */
    "    vadd.vi v8, v8, 3\n"
    "    endprg x0, x0, x0\n"
    "w_widen:\n"
    "    vsetvli t0, zero, e32, m1, ta, ma\n"
    "    vid.v v2\n"
    "    vadd.vi v2, v2, 3\n"
    "    li t1, 0x80000000\n"
    "    vwmulu.vx v4, v2, t1\n"          /* EEW 64 pair v4, v5 */
    "    endprg x0, x0, x0\n"
    "w_sew64:\n"
    "    vsetvli t0, zero, e32, m1, ta, ma\n"
    "    vid.v v2\n"
    "    vadd.vi v2, v2, 3\n"
    "    li t1, 0x80000000\n"
    "    vwmulu.vx v4, v2, t1\n"
    "    vsetvli t0, zero, e64, m1, ta, ma\n"
    "    vadd.vv v6, v4, v4\n"            /* SEW 64 pair v6, v7 */
    "    endprg x0, x0, x0\n"
    "w_mma:\n"
    "    vsetvli t0, zero, e32, m1, ta, ma\n"
    "    li t4, 0x2000\n"
    "    csrrs t4, mstatus, t4\n"         /* mstatus.FS = Initial */
    "    li t1, 0x3c003c00\n"             /* two f16 1.0 */
    "    vmv.v.x v8, t1\n"
    "    vmv.v.x v9, t1\n"
    "    vmv.v.x v10, t1\n"
    "    vmv.v.x v11, t1\n"
    "    vmv.v.x v12, t1\n"
    "    vmv.v.x v13, t1\n"
    "    vmv.v.x v14, t1\n"
    "    vmv.v.x v15, t1\n"
    "    mma.m16n8k16.f16.f32 v16, v8, v12\n" /* D fragment v16..v19 */
    "    endprg x0, x0, x0\n"
    "reader:\n"
    "    endprg x0, x0, x0\n";

typedef struct vjob {
  vt_elf *elf;
  uint32_t writer, reader;
} vjob;

static int vtop_setup(void *arg, vt_device *dev, unsigned k, vt_launch *l, diff_run *r,
                      vt_error *err) {
  (void)r;
  const vjob *j = arg;
  int rc = VT_OK;
  if (k == 0) {
    rc = vt_device_load_elf(dev, j->elf, err);
    if (rc == VT_OK) rc = vt_mem_map(dev, VBUF, 4096, err);
    for (uint32_t i = 0; rc == VT_OK && i < 1024; i++) {
      uint32_t word = 0x1000u + i; /* every word non-zero */
      rc = vt_mem_write(dev, VBUF + 4 * i, &word, 4, err);
    }
  }
  *l = (vt_launch){.start_pc = k == 0 ? j->writer : j->reader, .num_wg = {1, 1, 1},
                   .threads_per_warp = 32, .warps_per_wg = 1, .knl_addr = VBUF,
                   .lds_size = 0x1000};
  return rc;
}

/* the writer's highest registers, hand-computed from the spec */
static void check_writer(check_state *st, const char *kind, const diff_warp *w) {
  for (unsigned lane = 0; lane < 32; lane++) {
    if (!strcmp(kind, "w_whole")) { /* word k of the buffer is 0x1000 + k */
      CHECK_EQ_U32(st, w->v[8][lane], 0x1000u + lane);
      CHECK_EQ_U32(st, w->v[15][lane], 0x1000u + 7 * 32 + lane);
    } else if (!strcmp(kind, "w_lmul8")) { /* elements past numt are never processed */
      CHECK_EQ_U32(st, w->v[8][lane], lane + 3);
    } else if (!strcmp(kind, "w_widen")) { /* (lane + 3) * 2^31: low, high */
      CHECK_EQ_U32(st, w->v[4][lane], (lane + 3) & 1 ? 0x80000000u : 0);
      CHECK_EQ_U32(st, w->v[5][lane], (lane + 3) >> 1);
    } else if (!strcmp(kind, "w_sew64")) { /* doubled: (lane + 3) << 32 */
      CHECK_EQ_U32(st, w->v[6][lane], 0);
      CHECK_EQ_U32(st, w->v[7][lane], lane + 3);
    } else { /* every element of D: 16 x 1.0 x 1.0 = 16.0f */
      CHECK_EQ_U32(st, w->v[16][lane], 0x41800000u);
      CHECK_EQ_U32(st, w->v[19][lane], 0x41800000u);
    }
  }
}

static vt_elf *build(uint8_t **image, vjob *j) {
  vt_asm *as = vt_asm_new(NULL);
  size_t size = 0;
  int rc = as ? vt_asm_add_source(as, "vtop.s", src, sizeof src - 1) : -1;
  if (rc == 0) rc = vt_asm_link(as, image, &size);
  if (rc != 0 && as) fprintf(stderr, "assembly failed: %s\n", vt_asm_errors(as));
  vt_asm_free(as);
  char msg[256];
  vt_elf *elf = NULL;
  if (rc != 0 || vt_elf_open_mem(*image, size, &elf, msg, sizeof msg) != 0) return NULL;
  if (vt_elf_find_symbol(elf, "reader", &j->reader) != 0) {
    vt_elf_free(elf);
    return NULL;
  }
  return elf;
}

static void run_case(check_state *st, vjob *j, const char *kind, bool reference) {
  CHECK(st, vt_elf_find_symbol(j->elf, kind, &j->writer) == 0);
  diff_job job = {kind, 2, vtop_setup, j, 1, 0};
  diff_run *r = calloc(1, sizeof *r);
  char msg[512] = "";
  CHECK(st, r != NULL);
  if (!r) return;
  int rc = diff_run_job(&job, reference ? DIFF_REFERENCE : DIFF_FAST, r, msg, sizeof msg);
  if (rc != 0) fprintf(stderr, "vtop %s: %s\n", kind, msg);
  CHECK(st, rc == 0);
  CHECK_EQ_U32(st, r->nl, 2);
  CHECK_EQ_U32(st, r->l[0].rc, VT_OK);
  if (r->l[0].rc != VT_OK) fprintf(stderr, "vtop %s: %s\n", kind, r->l[0].err.message);
  CHECK_EQ_U32(st, r->l[1].rc, VT_OK);
  CHECK_EQ_U32(st, r->nw, 2);
  if (r->nw == 2) {
    check_writer(st, kind, r->w[0]);
    for (unsigned reg = 0; reg < VT_NUM_VREGS; reg++)
      for (unsigned lane = 0; lane < VT_MAX_LANES; lane++)
        if (r->w[1]->v[reg][lane] != 0) {
          fprintf(stderr, "vtop %s: recycled warp: v%u lane %u = 0x%x\n", kind, reg, lane,
                  r->w[1]->v[reg][lane]);
          CHECK(st, false);
          reg = VT_NUM_VREGS;
          break;
        }
  }
  diff_run_free(r);
  free(r);
}

TEST(recycled_warp_reads_zero) {
  (void)diff_check; /* diff_run.h's comparison is not needed here */
  static const char *const kinds[] = {"w_whole", "w_lmul8", "w_widen", "w_sew64", "w_mma"};
  uint8_t *image = NULL;
  vjob j = {0};
  j.elf = build(&image, &j);
  CHECK(st, j.elf != NULL);
  if (!j.elf) return;
  for (unsigned k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    run_case(st, &j, kinds[k], false);
    run_case(st, &j, kinds[k], true);
  }
  vt_elf_free(j.elf);
  free(image);
}

RUN_TESTS(T(recycled_warp_reads_zero))
