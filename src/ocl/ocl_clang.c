/* clang for clCompileProgram (ocl_link.c): the front end vt cc uses
 * (docs/cc.md), run as a program in a private temporary directory holding
 * the program's source and its embedded headers. Only built with vt's
 * compiler (VTCL_HAVE_CC: VTCL_CLANG is the clang vt was built with;
 * $VT_CLANG overrides it, as for vt cc). */
#define _GNU_SOURCE /* posix_spawn_file_actions_addchdir_np: no chdir in this process */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ocl_clang.h"
#include "util/file.h"

#ifdef VTCL_HAVE_CC
extern char **environ;

const char *vtcl_clang_path(void) {
  const char *e = getenv("VT_CLANG");
  return e && *e ? e : VTCL_CLANG;
}

int vtcl_tmpdir_new(char *dir, size_t size) {
  const char *t = getenv("TMPDIR");
  if ((size_t)snprintf(dir, size, "%s/vtocl.XXXXXX", t && *t ? t : "/tmp") >= size) return -1;
  return mkdtemp(dir) ? 0 : -1;
}

static int remove_tree(const char *path) {
  struct stat sb;
  if (lstat(path, &sb) != 0) return -1;
  if (!S_ISDIR(sb.st_mode)) return remove(path);
  DIR *d = opendir(path);
  if (!d) return -1;
  int rc = 0;
  for (struct dirent *e; (e = readdir(d)) != NULL;) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char child[4400];
    if ((size_t)snprintf(child, sizeof child, "%s/%s", path, e->d_name) >= sizeof child ||
        remove_tree(child) != 0)
      rc = -1;
  }
  closedir(d);
  return rmdir(path) == 0 ? rc : -1;
}

void vtcl_tmpdir_remove(const char *dir) { remove_tree(dir); }

int vtcl_write_file(const char *dir, const char *name, const char *text, size_t len) {
  if (name[0] == '/' || strstr(name, "..")) return -1;
  char path[4400];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) return -1;
  for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
    *s = 0; /* the header's folders */
    if (mkdir(path, 0700) != 0 && errno != EEXIST) return -1;
    *s = '/';
  }
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  bool ok = fwrite(text, 1, len, f) == len;
  return fclose(f) == 0 && ok ? 0 : -1;
}

char *vtcl_read_text(const char *dir, const char *name) {
  char path[4400];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  const vt_file_limit lim = {256ull << 20, "a compiler output", NULL};
  uint8_t *d = NULL;
  size_t n = 0;
  char msg[64];
  if (vt_read_file(path, lim, &d, &n, msg, sizeof msg) != 0) return NULL;
  char *t = realloc(d, n + 1);
  if (!t) {
    free(d);
    return NULL;
  }
  t[n] = 0;
  return t;
}

int vtcl_clang(const char *const *argv, const char *dir, const char *log_name) {
  char log_path[4400];
  snprintf(log_path, sizeof log_path, "%s/%s", dir, log_name);
  posix_spawn_file_actions_t fa;
  if (posix_spawn_file_actions_init(&fa) != 0) return -1;
  posix_spawn_file_actions_addopen(&fa, 1, log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addchdir_np(&fa, dir);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    errno = rc;
    return -1;
  }
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
#endif
