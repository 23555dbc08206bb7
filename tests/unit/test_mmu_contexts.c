/* Contexts with the MMU on (docs/memory.md, docs/driver.md): two contexts
 * of one driver device whose kernels try to read and write each other's
 * buffers by address (they fault, and the other context's memory does not
 * change), copies through the wrong context, use after free, freed
 * addresses not handed out again at once, contexts freed with their
 * buffers; two runtimes on one device with an address space each. */
#include "check.h"
#include "mmu_util.h"
#include "vt_runtime.h"
#include "vt/driver_ext.h"

/* B[i] = A[i] + 1 for 32 lanes; KNL = {A, B} */
static const char lanes_kernel[] =
    "    .text\n"
    "    .globl _start\n"
    "_start:\n"
    "    li t4, 32\n"
    "    vsetvli t4, t4, e32, m1, ta, ma\n"
    "    csrr t0, CSR_KNL\n"
    "    lw a1, 0(t0)\n"
    "    lw a2, 4(t0)\n"
    "    vid.v v1\n"
    "    vsll.vi v1, v1, 2\n"
    "    vadd.vx v2, v1, a1\n"
    "    vlw12.v v3, 0(v2)\n"
    "    vadd.vi v3, v3, 1\n"
    "    vadd.vx v4, v1, a2\n"
    "    vsw12.v v3, 0(v4)\n"
    "    endprg x0, x0, x0\n";

static bool has(const char *msg, const char *part) { return strstr(msg, part) != NULL; }

static vt_device_h open_mmu(void) {
  vt_settings s;
  vt_settings_default(&s);
  s.mmu = true;
  vt_device_h d = NULL;
  if (vt_dev_open_settings(&d, &s) != 0) fprintf(stderr, "open: %s\n", vt_last_error());
  return d;
}

typedef struct ctx {
  int task;
  uint64_t knl, a, b;
} ctx;

static int ctx_setup(vt_device_h d, const vt_elf *elf, ctx *c, int task) {
  c->task = task;
  uint32_t words[32];
  for (unsigned i = 0; i < 32; i++) words[i] = 1000u * (unsigned)task + i;
  if ((task && vt_root_mem_alloc(d, task) != 0) || vt_dev_load_elf_task(d, elf, task) != 0 ||
      vt_buf_alloc(d, 4096, &c->knl, READ_WRITE, (uint64_t)task, 0) != 0 ||
      vt_buf_alloc(d, 128, &c->a, READ_WRITE, (uint64_t)task, 0) != 0 ||
      vt_buf_alloc(d, 128, &c->b, READ_WRITE, (uint64_t)task, 0) != 0 ||
      vt_copy_to_dev(d, c->a, words, sizeof words, (uint64_t)task, 0) != 0)
    return -1;
  return 0;
}

/* launch in context c with KNL = {a, b}; 0 or -1 (vt_last_error) */
static int run(vt_device_h d, const ctx *c, uint64_t a, uint64_t b) {
  uint32_t knl[2] = {(uint32_t)a, (uint32_t)b};
  if (vt_copy_to_dev(d, c->knl, knl, sizeof knl, (uint64_t)c->task, 0) != 0) return -1;
  vt_launch_meta m;
  memset(&m, 0, sizeof m);
  m.kernel_size[0] = m.kernel_size[1] = m.kernel_size[2] = 1;
  m.wf_size = 32;
  m.wg_size = 1;
  m.metaDataBaseAddr = c->knl;
  if (vt_start(d, &m, (uint64_t)c->task) != 0) return -1;
  return vt_ready_wait(d, MAX_TIMEOUT);
}

static void read_b(vt_device_h d, const ctx *c, uint32_t *out) {
  memset(out, 0, 128);
  vt_copy_from_dev(d, c->b, out, 128, (uint64_t)c->task, 0);
}

TEST(contexts_cannot_reach_each_other) {
  vt_device_h d = open_mmu();
  vt_elf *elf = mmu_asm(lanes_kernel);
  ctx c1, c2;
  CHECK(st, d && elf && ctx_setup(d, elf, &c1, 1) == 0 && ctx_setup(d, elf, &c2, 2) == 0);
  /* buffer addresses are unique on the device */
  CHECK(st, c1.a != c2.a && c1.b != c2.b && c1.knl != c2.knl);
  /* each context's own launch works */
  uint32_t out[32];
  CHECK_EQ_U32(st, run(d, &c1, c1.a, c1.b), 0);
  CHECK_EQ_U32(st, run(d, &c2, c2.a, c2.b), 0);
  read_b(d, &c2, out);
  CHECK_EQ_U32(st, out[7], 2008);
  /* context 1 writes context 2's B: a page fault, B unchanged */
  CHECK(st, run(d, &c1, c1.a, c2.b) != 0);
  char want[160];
  snprintf(want, sizeof want, "page fault: 4-byte store at virtual address 0x%08llx (lane 0) (ASID 1)",
           (unsigned long long)c2.b);
  CHECK(st, has(vt_last_error(), want));
  read_b(d, &c2, out);
  CHECK_EQ_U32(st, out[0], 2001);
  CHECK_EQ_U32(st, out[31], 2032);
  /* ... and reads context 2's A */
  CHECK(st, run(d, &c1, c2.a, c1.b) != 0);
  snprintf(want, sizeof want, "page fault: 4-byte load at virtual address 0x%08llx (lane 0) (ASID 1)",
           (unsigned long long)c2.a);
  CHECK(st, has(vt_last_error(), want));
  /* context 2 the other way round */
  CHECK(st, run(d, &c2, c1.a, c2.b) != 0);
  CHECK(st, has(vt_last_error(), "(ASID 2)"));
  /* a host copy must name the buffer's own context */
  uint32_t v = 0;
  CHECK(st, vt_copy_to_dev(d, c2.b, &v, 4, 1, 0) != 0);
  snprintf(want, sizeof want, "the buffer at 0x%llx belongs to context 2, not to context 1",
           (unsigned long long)c2.b);
  CHECK(st, has(vt_last_error(), want));
  CHECK(st, vt_copy_from_dev(d, c1.a, &v, 4, 2, 0) != 0);
  read_b(d, &c2, out);
  CHECK_EQ_U32(st, out[0], 2001);
  /* an unknown context */
  uint64_t x;
  CHECK(st, vt_buf_alloc(d, 64, &x, READ_WRITE, 9, 0) != 0);
  CHECK(st, has(vt_last_error(), "no context 9 (vt_root_mem_alloc)"));
  vt_elf_free(elf);
  vt_dev_close(d);
}

TEST(use_after_free) {
  vt_device_h d = open_mmu();
  vt_elf *elf = mmu_asm(lanes_kernel);
  ctx c;
  CHECK(st, d && elf && ctx_setup(d, elf, &c, 0) == 0);
  uint64_t old_b = c.b;
  CHECK_EQ_U32(st, vt_one_buf_free(d, 128, &c.b, 0, 0), 0);
  /* the freed range is not handed out again at once */
  uint64_t nb;
  CHECK_EQ_U32(st, vt_buf_alloc(d, 128, &nb, READ_WRITE, 0, 0), 0);
  CHECK(st, nb != old_b && nb > old_b);
  /* a kernel still using the freed address faults */
  CHECK(st, run(d, &c, c.a, old_b) != 0);
  char want[120];
  snprintf(want, sizeof want, "store at virtual address 0x%08llx (lane 0) (ASID 0): invalid entry",
           (unsigned long long)old_b);
  CHECK(st, has(vt_last_error(), want));
  CHECK_EQ_U32(st, run(d, &c, c.a, nb), 0);
  vt_elf_free(elf);
  vt_dev_close(d);
}

/* the next-fit order: the window's start comes back only after the
 * allocations reached its end */
TEST(freed_addresses_come_back_last) {
  vt_device_h d = open_mmu();
  uint64_t first, big, again;
  CHECK_EQ_U32(st, vt_buf_alloc(d, 4096, &first, READ_WRITE, 0, 0), 0);
  CHECK_EQ_U32(st, first, VT_BUFFER_BASE);
  CHECK_EQ_U32(st, vt_one_buf_free(d, 4096, &first, 0, 0), 0);
  CHECK_EQ_U32(st, vt_buf_alloc(d, 4096, &again, READ_WRITE, 0, 0), 0);
  CHECK_EQ_U32(st, again, VT_BUFFER_BASE + 4096);
  /* up to the end of the 32-bit space: the next allocation wraps round */
  uint64_t rest = 0x100000000ull - (again + 4096);
  CHECK_EQ_U32(st, vt_buf_alloc(d, rest, &big, READ_WRITE, 0, 0), 0);
  CHECK_EQ_U32(st, big, again + 4096);
  uint64_t wrapped;
  CHECK_EQ_U32(st, vt_buf_alloc(d, 4096, &wrapped, READ_WRITE, 0, 0), 0);
  CHECK_EQ_U32(st, wrapped, VT_BUFFER_BASE);
  uint64_t none;
  CHECK(st, vt_buf_alloc(d, 8192, &none, READ_WRITE, 0, 0) != 0);
  CHECK(st, has(vt_last_error(), "out of device address space"));
  vt_dev_close(d);
}

TEST(context_freed_with_its_buffers) {
  vt_device_h d = open_mmu();
  vt_elf *elf = mmu_asm(lanes_kernel);
  ctx c1, c2;
  CHECK(st, d && elf && ctx_setup(d, elf, &c1, 1) == 0 && ctx_setup(d, elf, &c2, 2) == 0);
  CHECK_EQ_U32(st, vt_root_mem_free(d, 2), 0);
  uint32_t v = 0;
  CHECK(st, vt_copy_from_dev(d, c2.b, &v, 4, 2, 0) != 0);
  CHECK(st, has(vt_last_error(), "is not inside an allocated buffer"));
  CHECK(st, vt_one_buf_free(d, 128, &c2.a, 2, 0) != 0);
  vt_launch_meta m;
  memset(&m, 0, sizeof m);
  m.kernel_size[0] = m.kernel_size[1] = m.kernel_size[2] = 1;
  m.wf_size = 32;
  m.wg_size = 1;
  m.metaDataBaseAddr = c2.knl;
  CHECK_EQ_U32(st, vt_start(d, &m, 2), 0); /* queued; fails when it runs */
  CHECK(st, vt_ready_wait(d, MAX_TIMEOUT) != 0);
  CHECK(st, has(vt_last_error(), "no context 2"));
  CHECK_EQ_U32(st, run(d, &c1, c1.a, c1.b), 0); /* context 1 is intact */
  CHECK_EQ_U32(st, vt_root_mem_alloc(d, 2), 0); /* the ID can be used again */
  vt_elf_free(elf);
  vt_dev_close(d);
}

/* addone(buf): buf[gid] += 1, with crt0 (no printf: the libclc printf
 * window at 0xa0024000 exists once per device) */
static const char addone_kernel[] =
    "    .text\n"
    "    .globl addone\n"
    "    .type addone, @function\n"
    "addone:\n"
    "    lw      s1, 0(a0)\n"
    "    csrr    t0, CSR_KNL\n"
    "    lw      t1, 24(t0)\n"
    "    csrr    t2, CSR_GIDX\n"
    "    mul     t2, t2, t1\n"
    "    csrr    t3, CSR_TID\n"
    "    add     t2, t2, t3\n"
    "    vid.v   v1\n"
    "    vadd.vx v1, v1, t2\n"
    "    vsll.vi v1, v1, 2\n"
    "    vadd.vx v1, v1, s1\n"
    "    vlw12.v v2, 0(v1)\n"
    "    vadd.vi v2, v2, 1\n"
    "    vsw12.v v2, 0(v1)\n"
    "    ret\n"
    "    .size addone, . - addone\n";

static uint8_t *addone_image(size_t *size) {
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *elf = NULL;
  if (vt_asm_add_file(as, VT_SOURCE_DIR "/examples/kernels/crt0.s") ||
      vt_asm_add_source(as, "addone.s", addone_kernel, sizeof addone_kernel - 1) ||
      vt_asm_link(as, &elf, size) != 0) {
    fprintf(stderr, "%s", vt_asm_errors(as));
    elf = NULL;
  }
  vt_asm_free(as);
  return elf;
}

/* two runtimes on one device: an address space each */
TEST(runtimes_sharing_a_device) {
  vt_device_h d = open_mmu();
  size_t size;
  uint8_t *img = addone_image(&size);
  vt_rt_options o;
  vt_rt_options_default(&o);
  o.device = d;
  vt_rt *r1 = NULL, *r2 = NULL;
  char msg[256];
  CHECK(st, img && vt_rt_create(&o, &r1, msg, sizeof msg) == 0 &&
                vt_rt_create(&o, &r2, msg, sizeof msg) == 0);
  vt_rt_program *p1 = NULL, *p2 = NULL;
  if (!r1 || !r2) {
    fprintf(stderr, "vt_rt_create: %s\n", msg);
    vt_dev_close(d);
    free(img);
    return;
  }
  CHECK(st, vt_rt_program_load_mem(r1, img, size, "t", &p1) == 0);
  CHECK(st, vt_rt_program_load_mem(r2, img, size, "t", &p2) == 0);
  if (!p1 || !p2) {
    fprintf(stderr, "%s / %s\n", vt_rt_error(r1), vt_rt_error(r2));
    vt_rt_destroy(r1);
    vt_rt_destroy(r2);
    vt_dev_close(d);
    free(img);
    return;
  }
  uint32_t x1 = 0, x2 = 0, v[64];
  for (unsigned i = 0; i < 64; i++) v[i] = i;
  CHECK(st, vt_rt_alloc(r1, sizeof v, &x1) == 0 && vt_rt_alloc(r2, sizeof v, &x2) == 0);
  CHECK(st, vt_rt_write(r1, x1, v, sizeof v) == 0 && vt_rt_write(r2, x2, v, sizeof v) == 0);
  vt_rt_kernel *k1 = NULL, *k2 = NULL;
  CHECK(st, vt_rt_kernel_create(p1, "addone", &k1) == 0 && vt_rt_kernel_create(p2, "addone", &k2) == 0);
  vt_rt_ndrange nd = {.dims = 1, .global = {64}};
  CHECK(st, vt_rt_set_arg_buffer(k1, 0, x1, 0) == 0 && vt_rt_launch(k1, &nd, NULL) == 0);
  CHECK(st, vt_rt_set_arg_buffer(k2, 0, x2, 0) == 0 && vt_rt_launch(k2, &nd, NULL) == 0);
  uint32_t got[64];
  CHECK(st, vt_rt_read(r1, x1, got, sizeof got) == 0 && got[63] == 64);
  /* runtime 1's kernel on runtime 2's buffer: a fault; the buffer keeps its values */
  CHECK(st, vt_rt_set_arg_buffer(k1, 0, x2, 0) == 0 && vt_rt_launch(k1, &nd, NULL) != 0);
  char want[120];
  snprintf(want, sizeof want, "page fault: 4-byte load at virtual address 0x%08x (lane 0) (ASID 1)", x2);
  CHECK(st, has(vt_rt_error(r1), want));
  CHECK(st, vt_rt_read(r2, x2, got, sizeof got) == 0 && got[0] == 1 && got[63] == 64);
  CHECK(st, vt_rt_read(r1, x2, got, 4) != 0); /* nor can it copy from it */
  vt_rt_kernel_free(k1);
  vt_rt_kernel_free(k2);
  vt_rt_program_free(p1);
  vt_rt_program_free(p2);
  vt_rt_destroy(r1);
  vt_rt_destroy(r2);
  free(img);
  vt_dev_close(d);
}

/* a raw code image (not an ELF) uploaded into a context: its pages are
 * mapped there, and the same bytes run */
TEST(raw_image_upload) {
  vt_device_h d = open_mmu();
  vt_elf *elf = mmu_asm(lanes_kernel);
  ctx c;
  CHECK(st, d && elf && ctx_setup(d, elf, &c, 3) == 0);
  const vt_elf_segment *text = vt_elf_segment_at(elf, 0);
  CHECK(st, text && text->paddr == 0x80000000u);
  uint8_t *code = malloc(text->filesz);
  memcpy(code, text->data, text->filesz);
  ctx c4; /* the same program, uploaded as bytes into a fresh context */
  c4.task = 4;
  CHECK_EQ_U32(st, vt_root_mem_alloc(d, 4), 0);
  CHECK_EQ_U32(st, vt_upload_kernel_bytes(d, code, text->filesz, 4), 0);
  uint32_t words[32];
  for (unsigned i = 0; i < 32; i++) words[i] = 40u + i;
  CHECK(st, vt_buf_alloc(d, 4096, &c4.knl, READ_WRITE, 4, 0) == 0 &&
                vt_buf_alloc(d, 128, &c4.a, READ_WRITE, 4, 0) == 0 &&
                vt_buf_alloc(d, 128, &c4.b, READ_WRITE, 4, 0) == 0 &&
                vt_copy_to_dev(d, c4.a, words, sizeof words, 4, 0) == 0);
  CHECK_EQ_U32(st, run(d, &c4, c4.a, c4.b), 0);
  uint32_t out[32];
  read_b(d, &c4, out);
  CHECK_EQ_U32(st, out[9], 50);
  free(code);
  vt_elf_free(elf);
  vt_dev_close(d);
}

RUN_TESTS(T(contexts_cannot_reach_each_other), T(raw_image_upload), T(use_after_free), T(freed_addresses_come_back_last),
          T(context_freed_with_its_buffers), T(runtimes_sharing_a_device))
