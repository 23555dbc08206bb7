/* An official compiled kernel through the runtime: the matadd listing of
 * VT_SHARED_DIR/cases/matadd/matadd.dump (official crt0, kernel and
 * libworkitem, built by the Ventus LLVM toolchain) is turned back into an
 * ELF (its words at their addresses, its global labels as symbols) and
 * launched with random inputs over several 2-D geometries, against C.
 * A T_CASES test (skipped by CTest when the shared folder is absent). */
#include <stdbool.h>
#include <sys/stat.h>

#include "check.h"
#include "vt/asm.h"
#include "vt_runtime.h"

#define DUMP VT_SHARED_DIR "/cases/matadd/matadd.dump"

static uint8_t *dump_to_elf(const char *path, size_t *size) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  size_t cap = 1 << 20, n = 0;
  char *src = malloc(cap), line[512];
  uint32_t next = 0x80000000u;
  n += (size_t)snprintf(src, cap, "    .text\n");
  while (fgets(line, sizeof line, f) && n + 600 < cap) {
    unsigned addr, b[4];
    char name[256];
    if (sscanf(line, "%x <%255[^>]>:", &addr, name) == 2) {
      if (name[0] != '.')
        n += (size_t)snprintf(src + n, cap - n, "    .globl %s\n%s:\n", name, name);
    } else if (sscanf(line, "%x: %x %x %x %x", &addr, &b[0], &b[1], &b[2], &b[3]) == 5) {
      if (addr != next) break; /* only the contiguous .text */
      n += (size_t)snprintf(src + n, cap - n, "    .word 0x%02x%02x%02x%02x\n", b[3], b[2], b[1],
                            b[0]);
      next += 4;
    }
  }
  fclose(f);
  vt_asm *as = vt_asm_new(NULL);
  uint8_t *elf = NULL;
  if (vt_asm_add_source(as, "matadd.s", src, n) != 0 || vt_asm_link(as, &elf, size) != 0) {
    fprintf(stderr, "%s\n", vt_asm_errors(as));
    elf = NULL;
  }
  vt_asm_free(as);
  free(src);
  return elf;
}

TEST(official_matadd) {
  size_t size;
  uint8_t *elf = dump_to_elf(DUMP, &size);
  CHECK(st, elf != NULL);
  if (!elf) return;
  vt_rt *rt;
  char msg[256];
  vt_rt_program *p = NULL;
  vt_rt_kernel *k = NULL;
  CHECK(st, vt_rt_create(NULL, &rt, msg, sizeof msg) == 0);
  CHECK(st, vt_rt_program_load_mem(rt, elf, size, "matadd", &p) == 0);
  CHECK(st, p && vt_rt_kernel_create(p, "matadd", &k) == 0);
  CHECK_EQ_U32(st, vt_rt_kernel_entry(k), 0x800000a8u); /* as in the test vector's KNL */
  static const struct {
    uint32_t gx, gy, lx, ly;
  } cases[] = {{4, 4, 4, 4}, {16, 8, 4, 4}, {32, 32, 8, 4}, {12, 6, 0, 0}, {64, 2, 32, 1}};
  unsigned seed = 5;
  for (size_t c = 0; c < sizeof cases / sizeof cases[0] && k; c++) {
    uint32_t n = cases[c].gx * cases[c].gy;
    float *a = malloc(4 * n), *b = malloc(4 * n), *r = malloc(4 * n);
    for (uint32_t i = 0; i < n; i++) {
      seed = seed * 1103515245u + 12345u;
      a[i] = (float)(int)(seed >> 8 & 0xffff) / 64.0f - 300.0f;
      b[i] = (float)(int)(seed >> 4 & 0xfff) / 16.0f;
    }
    uint32_t da = 0, db = 0, dc = 0;
    CHECK(st, vt_rt_alloc(rt, 4 * n, &da) == 0 && vt_rt_alloc(rt, 4 * n, &db) == 0 &&
                  vt_rt_alloc(rt, 4 * n, &dc) == 0);
    CHECK(st, vt_rt_write(rt, da, a, 4 * n) == 0 && vt_rt_write(rt, db, b, 4 * n) == 0);
    vt_rt_set_arg_buffer(k, 0, da, 0);
    vt_rt_set_arg_buffer(k, 1, db, 0);
    vt_rt_set_arg_buffer(k, 2, dc, 0);
    vt_rt_ndrange nd = {.dims = 2,
                        .global = {cases[c].gx, cases[c].gy},
                        .local = {cases[c].lx, cases[c].ly}};
    int rc = vt_rt_launch(k, &nd, NULL);
    if (rc) fprintf(stderr, "matadd %ux%u: %s\n", cases[c].gx, cases[c].gy, vt_rt_error(rt));
    CHECK(st, rc == 0);
    CHECK(st, vt_rt_read(rt, dc, r, 4 * n) == 0);
    for (uint32_t i = 0; i < n; i++) {
      float want = a[i] + b[i];
      if (memcmp(&want, &r[i], 4) != 0) {
        st->failed_checks++;
        fprintf(stderr, "matadd %ux%u: C[%u] = %g, expected %g\n", cases[c].gx, cases[c].gy, i,
                (double)r[i], (double)want);
        break;
      }
    }
    free(a);
    free(b);
    free(r);
  }
  vt_rt_kernel_free(k);
  vt_rt_program_free(p);
  vt_rt_destroy(rt);
  free(elf);
}

RUN_TESTS(T_CASES(official_matadd))
