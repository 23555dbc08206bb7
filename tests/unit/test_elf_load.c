/* Loading ELF kernels into device memory (src/sim/elf_load.c): a .bss of
 * almost the whole 256 MiB program window costs no memory (resident set
 * measured in /proc/self/statm) and still reads as zero, also where an
 * earlier launch wrote (partial pages at both ends cleared exactly); PT_LOAD
 * segments outside [0x80000000, 0x90000000) are errors naming the segment
 * and what it would overwrite, and through vt run --elf, the runtime and
 * the driver also the file. ELF images are built byte by byte
 * (elf_build.h); the expected messages are written out by hand. */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "elf_build.h"
#include "ventus.h"
#include "vt/elf.h"
#include "vt/sim.h"
#include "vt_runtime.h"

/* one PT_LOAD at 'addr': 8 bytes of file data, memsz bytes in memory */
static uint8_t *image(uint32_t addr, uint32_t memsz, size_t *size) {
  static const uint8_t text[8] = {0x13, 0, 0, 0, 0x11, 0x22, 0x33, 0x44};
  eb_layout l;
  uint8_t *b = eb_build(text, sizeof text, addr, 0x80000000u, NULL, 0, &l);
  eb_w32(b + 52 + 20, memsz); /* p_memsz */
  *size = l.size;
  return b;
}

static vt_elf *open_image(check_state *st, uint32_t addr, uint32_t memsz) {
  size_t n;
  uint8_t *b = image(addr, memsz, &n);
  char msg[256];
  vt_elf *elf = NULL;
  CHECK(st, vt_elf_open_mem(b, n, &elf, msg, sizeof msg) == 0);
  free(b);
  return elf;
}

static long resident_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long size = 0, res = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &size, &res) != 2) res = 0;
    fclose(f);
  }
  return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static uint32_t read32(vt_device *dev, uint32_t addr) {
  uint8_t b[4] = {0xee, 0xee, 0xee, 0xee};
  vt_error e;
  vt_mem_read(dev, addr, b, 4, &e);
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* 0x0ffff000 bytes at 0x80000000: 8 from the file, the rest zero */
TEST(huge_bss_costs_nothing) {
  vt_elf *elf = open_image(st, 0x80000000u, 0x0ffff000u);
  vt_device *dev = vt_device_new(NULL);
  if (!elf || !dev) return;
  long before = resident_kib();
  vt_error err;
  CHECK_EQ_U32(st, vt_device_load_elf(dev, elf, &err), VT_OK);
  long grown = resident_kib() - before;
  if (grown > 16 * 1024) fprintf(stderr, "loading grew the resident set by %ld KiB\n", grown);
  CHECK(st, grown <= 16 * 1024); /* a filled .bss would be 262140 KiB */
  CHECK_EQ_U32(st, read32(dev, 0x80000000u), 0x00000013);
  CHECK_EQ_U32(st, read32(dev, 0x80000004u), 0x44332211);
  CHECK_EQ_U32(st, read32(dev, 0x80000008u), 0);
  CHECK_EQ_U32(st, read32(dev, 0x8fffeffcu), 0);
  vt_device_free(dev);
  vt_elf_free(elf);
}

/* what an earlier launch wrote in the .bss reads as zero after a reload;
 * bytes outside the segment stay. Segment: [0x80000ff8, 0x80003004):
 * partial pages at both ends, two whole pages between. */
TEST(bss_zeroed_after_earlier_writes) {
  vt_elf *elf = open_image(st, 0x80000ff8u, 0x200cu);
  vt_device *dev = vt_device_new(NULL);
  if (!elf || !dev) return;
  vt_error err;
  static uint8_t junk[0x4000];
  memset(junk, 0xab, sizeof junk);
  CHECK_EQ_U32(st, vt_mem_write(dev, 0x80000000u, junk, sizeof junk, &err), VT_OK);
  CHECK_EQ_U32(st, vt_device_load_elf(dev, elf, &err), VT_OK);
  CHECK_EQ_U32(st, read32(dev, 0x80000ff4u), 0xabababab); /* before the segment */
  CHECK_EQ_U32(st, read32(dev, 0x80000ff8u), 0x00000013); /* file data */
  CHECK_EQ_U32(st, read32(dev, 0x80000ffcu), 0x44332211);
  for (uint32_t a = 0x80001000u; a < 0x80003004u; a += 4)
    if (read32(dev, a) != 0) {
      st->failed_checks++;
      fprintf(stderr, "word at 0x%08x is 0x%08x, expected 0\n", a, read32(dev, a));
      break;
    }
  CHECK_EQ_U32(st, read32(dev, 0x80003004u), 0xabababab); /* after the segment */
  vt_device_free(dev);
  vt_elf_free(elf);
}

static void expect_rejected(check_state *st, uint32_t addr, uint32_t memsz, const char *want) {
  vt_elf *elf = open_image(st, addr, memsz);
  vt_device *dev = vt_device_new(NULL);
  if (!elf || !dev) return;
  vt_error err;
  memset(&err, 0, sizeof err);
  CHECK_EQ_U32(st, vt_device_load_elf(dev, elf, &err), VT_ERR_FORMAT);
  CHECK_STR(st, err.message, want);
  vt_device_free(dev);
  vt_elf_free(elf);
}

TEST(segments_outside_the_program_window) {
  expect_rejected(st, 0xa0024000u, 8,
                  "ELF segment 0 [0xa0024000, 0xa0024008) is outside the program window "
                  "[0x80000000, 0x90000000); it overlaps the runtime's print window at "
                  "0xa0024000");
  expect_rejected(st, 0x90000000u, 0x1000,
                  "ELF segment 0 [0x90000000, 0x90001000) is outside the program window "
                  "[0x80000000, 0x90000000); it overlaps the buffers allocated from 0x90000000");
  expect_rejected(st, 0x8ffff000u, 0x2000,
                  "ELF segment 0 [0x8ffff000, 0x90001000) is outside the program window "
                  "[0x80000000, 0x90000000); it overlaps the buffers allocated from 0x90000000");
  expect_rejected(st, 0x7ffffff8u, 16,
                  "ELF segment 0 [0x7ffffff8, 0x80000008) is outside the program window "
                  "[0x80000000, 0x90000000); it overlaps the local-memory window [0x70000000, "
                  "0x80000000)");
  expect_rejected(st, 0x00001000u, 8,
                  "ELF segment 0 [0x00001000, 0x00001008) is outside the program window "
                  "[0x80000000, 0x90000000); nothing is mapped there");
  expect_rejected(st, 0x80000000u, 0xffffffffu,
                  "ELF segment 0 [0x80000000, 0x17fffffff) is outside the program window "
                  "[0x80000000, 0x90000000); it overlaps the runtime's print window at "
                  "0xa0024000");
  /* the whole window is fine */
  vt_elf *elf = open_image(st, 0x80000000u, 0x10000000u);
  vt_device *dev = vt_device_new(NULL);
  vt_error err;
  CHECK_EQ_U32(st, vt_device_load_elf(dev, elf, &err), VT_OK);
  vt_device_free(dev);
  vt_elf_free(elf);
}

static char *write_image(uint32_t addr, uint32_t memsz) {
  static char dir[512];
  if (!dir[0]) {
    snprintf(dir, sizeof dir, "%s/elf-load-XXXXXX", VT_TEST_TMP);
    if (!mkdtemp(dir)) abort();
  }
  char *path = malloc(600);
  snprintf(path, 600, "%s/seg-%08x.elf", dir, addr);
  size_t n;
  uint8_t *b = image(addr, memsz, &n);
  FILE *f = fopen(path, "wb");
  if (f) {
    fwrite(b, 1, n, f);
    fclose(f);
  }
  free(b);
  return path;
}

/* the users name the file: vt run --elf, the runtime, the driver */
TEST(messages_name_the_file) {
  char *path = write_image(0xa0024000u, 8);
  const char *seg = "ELF segment 0 [0xa0024000, 0xa0024008) is outside the program window";
  char cmd[2048], want[1024];
  /* vt run --elf (an empty .metadata: the ELF is loaded first) */
  snprintf(cmd, sizeof cmd, "'%s' run --elf '%s' /dev/null 2>'%s.err'", VT_BINARY, path, path);
  int rc = system(cmd);
  CHECK(st, rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 1);
  snprintf(cmd, sizeof cmd, "%s.err", path);
  FILE *f = fopen(cmd, "r");
  char out[2048] = "";
  if (f) {
    fread(out, 1, sizeof out - 1, f);
    fclose(f);
  }
  snprintf(want, sizeof want, "vt run: %s: %s", path, seg);
  CHECK(st, strstr(out, want) != NULL);
  unlink(cmd);
  /* the runtime, when the program is loaded */
  vt_rt *rt = NULL;
  char msg[256];
  CHECK(st, vt_rt_create(NULL, &rt, msg, sizeof msg) == 0);
  vt_rt_program *p = NULL;
  CHECK(st, rt && vt_rt_program_load_file(rt, path, &p) != 0);
  snprintf(want, sizeof want, "%s: %s", path, seg);
  CHECK(st, rt && strstr(vt_rt_error(rt), want) == vt_rt_error(rt));
  vt_rt_destroy(rt);
  /* the driver */
  vt_device_h d = NULL;
  CHECK(st, vt_dev_open(&d) == 0);
  CHECK(st, vt_upload_kernel_file(d, path, 0) == -1);
  snprintf(want, sizeof want, "vt_upload_kernel_file: %s: %s", path, seg);
  CHECK(st, strstr(vt_last_error(), want) != NULL);
  if (!strstr(vt_last_error(), want)) fprintf(stderr, "%s\n", vt_last_error());
  vt_dev_close(d);
  unlink(path);
  free(path);
}

RUN_TESTS(T(huge_bss_costs_nothing), T(bss_zeroed_after_earlier_writes),
          T(segments_outside_the_program_window), T(messages_name_the_file))
