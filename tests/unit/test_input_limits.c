/* Size limits of input files (src/util/file.c, docs/formats.md "Input size
 * limits"): the whole-file reader against regular files at and past a limit,
 * sparse files of several GiB (rejected before reading), /dev/zero and a
 * FIFO (read only up to the limit), the ELF magic check, and the commands
 * that read files (vt run, vt run --elf, vt run --config, vt as, vt launch
 * --arg) with a huge or endless input. Expected messages are written out by hand; errno texts
 * come from the host C library. The commands run with a 2 GiB address-space
 * limit (not under ASan, which reserves more) and a 60 s timeout, so a
 * runaway read fails the test instead of eating the machine. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "util/file.h"

#if defined(__SANITIZE_ADDRESS__)
#define MEM_LIMIT ""
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEM_LIMIT ""
#endif
#endif
#ifndef MEM_LIMIT
#define MEM_LIMIT "ulimit -v 2097152; "
#endif

static const char *path_of(const char *name) { return test_tmp_path("limits", name); }

static void write_file(const char *path, const char *text, size_t n) {
  FILE *f = fopen(path, "wb");
  if (!f) return;
  fwrite(text, 1, n, f);
  fclose(f);
}

/* a sparse file of 'size' bytes (no disk space used) */
static void sparse_file(check_state *st, const char *path, uint64_t size) {
  int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  CHECK(st, fd >= 0);
  if (fd < 0) return;
  CHECK(st, ftruncate(fd, (off_t)size) == 0);
  close(fd);
}

/* Runs "CMD" through sh with the limits above; stderr into *err (caller
 * frees). Returns the exit status, or -1. */
static int run(const char *cmd, char **err) {
  char full[8192];
  snprintf(full, sizeof full, MEM_LIMIT "timeout 60 %s 2>'%s' >/dev/null", cmd,
           path_of("cmd.err"));
  int rc = system(full);
  *err = test_slurp(path_of("cmd.err"), NULL);
  if (rc == -1 || !WIFEXITED(rc)) return -1;
  return WEXITSTATUS(rc);
}

static void check_contains(check_state *st, const char *hay, const char *needle) {
  if (!hay || !strstr(hay, needle)) {
    st->failed_checks++;
    fprintf(stderr, "\"%s\" lacks \"%s\"\n", hay ? hay : "(null)", needle);
  }
}

static const vt_file_limit limit100 = {100, "a test file", NULL};

/* a regular file of exactly the limit is read; one byte more is rejected */
TEST(regular_file_at_limit) {
  char text[101];
  memset(text, 'a', sizeof text);
  const char *p = path_of("hundred");
  write_file(p, text, 100);
  uint8_t *d = NULL;
  size_t n = 0;
  char msg[600];
  CHECK_EQ_U32(st, vt_read_file(p, limit100, &d, &n, msg, sizeof msg), 0);
  CHECK(st, d != NULL && n == 100 && d[100] == 0 && d[99] == 'a');
  free(d);
  write_file(p, text, 101);
  CHECK_EQ_U32(st, vt_read_file(p, limit100, &d, &n, msg, sizeof msg), EFBIG);
  CHECK(st, d == NULL && n == 0);
  char want[800];
  snprintf(want, sizeof want, "%s: larger than 100 bytes, the size limit of a test file", p);
  CHECK_STR(st, msg, want);
  write_file(p, "", 0); /* empty */
  CHECK_EQ_U32(st, vt_read_file(p, limit100, &d, &n, msg, sizeof msg), 0);
  CHECK(st, d != NULL && n == 0 && d[0] == 0);
  free(d);
}

/* vt_file_view: a regular file mapped with exactly its bytes; over the
 * limit, missing, empty and endless inputs as vt_read_file reports them */
TEST(file_views) {
  const char *p = path_of("view.bin");
  char text[101];
  for (int i = 0; i < 101; i++) text[i] = (char)('a' + i % 26);
  write_file(p, text, 100);
  vt_file_view v;
  char msg[600], want[800];
  CHECK_EQ_U32(st, vt_file_view_open(p, limit100, &v, msg, sizeof msg), 0);
  CHECK(st, v.data != NULL && v.len == 100 && v.owned == NULL && memcmp(v.data, text, 100) == 0);
  vt_file_view_close(&v);
  CHECK(st, v.data == NULL && v.len == 0);
  write_file(p, text, 101);
  CHECK_EQ_U32(st, vt_file_view_open(p, limit100, &v, msg, sizeof msg), EFBIG);
  snprintf(want, sizeof want, "%s: larger than 100 bytes, the size limit of a test file", p);
  CHECK_STR(st, msg, want);
  CHECK(st, v.data == NULL && v.len == 0);
  write_file(p, "", 0);
  CHECK_EQ_U32(st, vt_file_view_open(p, limit100, &v, msg, sizeof msg), 0);
  CHECK(st, v.len == 0);
  vt_file_view_close(&v);
  CHECK_EQ_U32(st, vt_file_view_open("/dev/zero", limit100, &v, msg, sizeof msg), EFBIG);
  CHECK_STR(st, msg, "/dev/zero: larger than 100 bytes, the size limit of a test file");
  CHECK_EQ_U32(st, vt_file_view_open(path_of("missing.bin"), limit100, &v, msg, sizeof msg),
               ENOENT);
  unlink(p);
}

/* a sparse file of 4 GiB + 1 is rejected from its size, without reading */
TEST(huge_regular_file) {
  const char *p = path_of("huge.elf");
  sparse_file(st, p, 0x100000001ull);
  uint8_t *d = NULL;
  size_t n = 0;
  char msg[600], want[800];
  CHECK_EQ_U32(st, vt_read_file(p, VT_FILE_LIMIT_ELF, &d, &n, msg, sizeof msg), EFBIG);
  CHECK(st, d == NULL);
  snprintf(want, sizeof want, "%s: larger than 4 GiB, the size limit of an ELF file", p);
  CHECK_STR(st, msg, want);
  unlink(p);
}

/* /dev/zero never ends: read up to the limit; the ELF magic stops it at once */
TEST(endless_device) {
  uint8_t *d = NULL;
  size_t n = 0;
  char msg[600];
  CHECK_EQ_U32(st, vt_read_file("/dev/zero", limit100, &d, &n, msg, sizeof msg), EFBIG);
  CHECK_STR(st, msg, "/dev/zero: larger than 100 bytes, the size limit of a test file");
  CHECK_EQ_U32(st, vt_read_file("/dev/zero", VT_FILE_LIMIT_METADATA, &d, &n, msg, sizeof msg),
               EFBIG);
  CHECK_STR(st, msg, "/dev/zero: larger than 16 MiB, the size limit of a .metadata file");
  CHECK_EQ_U32(st, vt_read_file("/dev/zero", VT_FILE_LIMIT_ELF, &d, &n, msg, sizeof msg),
               ENOEXEC);
  CHECK_STR(st, msg, "/dev/zero: not an ELF file (bad magic)");
  CHECK(st, d == NULL && n == 0);
}

/* a FIFO: the writer sends 'bytes' bytes and closes */
static int fifo_read(const char *p, size_t bytes, vt_file_limit lim, uint8_t **d, size_t *n,
                     char *msg, size_t msgn) {
  unlink(p);
  if (mkfifo(p, 0600) != 0) return -1;
  pid_t pid = fork();
  if (pid == 0) {
    signal(SIGPIPE, SIG_IGN);
    int fd = open(p, O_WRONLY);
    char buf[4096];
    memset(buf, 'x', sizeof buf);
    for (size_t left = bytes; fd >= 0 && left > 0;) {
      size_t k = left < sizeof buf ? left : sizeof buf;
      if (write(fd, buf, k) <= 0) break; /* the reader stopped */
      left -= k;
    }
    _exit(0);
  }
  int rc = vt_read_file(p, lim, d, n, msg, msgn);
  waitpid(pid, NULL, 0);
  unlink(p);
  return rc;
}

TEST(fifo) {
  const char *p = path_of("pipe");
  uint8_t *d = NULL;
  size_t n = 0;
  char msg[600];
  const vt_file_limit big = {100000, "a test file", NULL}, small = {65536, "a test file", NULL};
  CHECK_EQ_U32(st, fifo_read(p, 70000, big, &d, &n, msg, sizeof msg), 0); /* buffer grows */
  CHECK(st, d != NULL && n == 70000 && d[69999] == 'x' && d[70000] == 0);
  free(d);
  CHECK_EQ_U32(st, fifo_read(p, 70000, small, &d, &n, msg, sizeof msg), EFBIG);
  CHECK(st, d == NULL);
  CHECK_EQ_U32(st, fifo_read(p, 65536, small, &d, &n, msg, sizeof msg), 0); /* exactly */
  CHECK(st, n == 65536);
  free(d);
}

TEST(open_errors_and_magic) {
  uint8_t *d = NULL;
  size_t n = 0;
  char msg[600], want[800];
  const char *p = path_of("absent");
  CHECK_EQ_U32(st, vt_read_file(p, limit100, &d, &n, msg, sizeof msg), ENOENT);
  snprintf(want, sizeof want, "%s: %s", p, strerror(ENOENT));
  CHECK_STR(st, msg, want);
  CHECK_EQ_U32(st, vt_read_file(test_tmp_dir("limits"), limit100, &d, &n, msg, sizeof msg), EISDIR);
  p = path_of("text.elf");
  write_file(p, "hello\n", 6);
  CHECK_EQ_U32(st, vt_read_file(p, VT_FILE_LIMIT_ELF, &d, &n, msg, sizeof msg), ENOEXEC);
  write_file(p, "\177EL", 3); /* shorter than the magic: the ELF reader decides */
  CHECK_EQ_U32(st, vt_read_file(p, VT_FILE_LIMIT_ELF, &d, &n, msg, sizeof msg), 0);
  CHECK(st, n == 3);
  free(d);
  write_file(p, "\177ELF\1", 5);
  CHECK_EQ_U32(st, vt_read_file(p, VT_FILE_LIMIT_ELF, &d, &n, msg, sizeof msg), 0);
  CHECK(st, n == 5);
  free(d);
}

/* the commands: huge and endless inputs end with the limit message */
TEST(commands) {
  char cmd[4096], *err = NULL;
  /* .metadata from /dev/zero and from a FIFO fed 17 MiB of lines */
  snprintf(cmd, sizeof cmd, "'%s' run /dev/zero", VT_BINARY);
  CHECK_EQ_U32(st, run(cmd, &err), 1);
  check_contains(st, err, "/dev/zero: larger than 16 MiB, the size limit of a .metadata file");
  free(err);
  const char *fifo = path_of("stream.metadata");
  unlink(fifo);
  CHECK(st, mkfifo(fifo, 0600) == 0);
  write_file(path_of("stream.data"), "", 0);
  snprintf(cmd, sizeof cmd,
           "sh -c 'yes 00000000 | head -c 17825792 >\"%s\" & \"%s\" run \"%s\"; s=$?; wait; "
           "exit $s'", fifo, VT_BINARY, fifo);
  CHECK_EQ_U32(st, run(cmd, &err), 1);
  check_contains(st, err, "stream.metadata: larger than 16 MiB, the size limit of a .metadata file");
  free(err);
  /* --elf: an endless stream and a 4 GiB + 1 file */
  const char *meta = path_of("k.metadata");
  write_file(meta, "", 0);
  snprintf(cmd, sizeof cmd, "'%s' run --elf /dev/zero '%s'", VT_BINARY, meta);
  CHECK_EQ_U32(st, run(cmd, &err), 1);
  check_contains(st, err, "vt run: /dev/zero: not an ELF file (bad magic)");
  free(err);
  const char *big = path_of("big.elf");
  sparse_file(st, big, 0x100000001ull);
  snprintf(cmd, sizeof cmd, "'%s' run --elf '%s' '%s'", VT_BINARY, big, meta);
  CHECK_EQ_U32(st, run(cmd, &err), 1);
  check_contains(st, err, "big.elf: larger than 4 GiB, the size limit of an ELF file");
  free(err);
  unlink(big);
  /* vt as: a 1 GiB + 1 source */
  const char *src = path_of("big.s");
  sparse_file(st, src, (1ull << 30) + 1);
  snprintf(cmd, sizeof cmd, "'%s' as -o '%s' '%s'", VT_BINARY, path_of("o.elf"), src);
  CHECK(st, run(cmd, &err) != 0);
  check_contains(st, err, "big.s:1:1: error: larger than 1 GiB, the size limit of an assembly "
                          "source file");
  free(err);
  unlink(src);
  /* configuration files: /dev/zero reads as endless NUL lines (it hung) */
  snprintf(cmd, sizeof cmd, "'%s' run --config /dev/zero '%s'", VT_BINARY, meta);
  CHECK(st, run(cmd, &err) > 0);
  check_contains(st, err, "/dev/zero: not a regular file");
  free(err);
  /* vt launch --arg in:FILE: a buffer must fit above 0x90000000 (1792 MiB) */
  const char *prog = path_of("k.elf"), *ksrc = path_of("k.s");
  const char *ktext = ".text\n.globl _start\n_start: ret\n.globl k\nk: ret\n";
  write_file(ksrc, ktext, strlen(ktext));
  snprintf(cmd, sizeof cmd, "'%s' as -o '%s' '%s'", VT_BINARY, prog, ksrc);
  CHECK_EQ_U32(st, run(cmd, &err), 0);
  free(err);
  const char *buf = path_of("big.bin");
  sparse_file(st, buf, 0x70000001ull);
  snprintf(cmd, sizeof cmd, "'%s' launch --kernel k --global 4 --arg 'in:%s' '%s'", VT_BINARY,
           buf, prog);
  CHECK(st, run(cmd, &err) != 0);
  check_contains(st, err, "big.bin: larger than 1792 MiB, the size limit of a device buffer");
  free(err);
  unlink(buf);
}

RUN_TESTS(T(regular_file_at_limit), T(file_views), T(huge_regular_file), T(endless_device), T(fifo),
          T(open_errors_and_magic), T(commands))
