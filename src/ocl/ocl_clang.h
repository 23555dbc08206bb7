/* clang as a program, for clCompileProgram (ocl_clang.c; only with vt's
 * compiler, VTCL_HAVE_CC). Files live in a private temporary directory. */
#ifndef VT_OCL_CLANG_H
#define VT_OCL_CLANG_H
#include <stddef.h>

/* $VT_CLANG, else the clang vt was built with */
const char *vtcl_clang_path(void);
/* A new directory $TMPDIR/vtocl.XXXXXX (or /tmp); 0 or -1. */
int vtcl_tmpdir_new(char *dir, size_t size);
/* Removes it with everything in it. */
void vtcl_tmpdir_remove(const char *dir);
/* Writes dir/name (name relative, without "..": its folders are made). */
int vtcl_write_file(const char *dir, const char *name, const char *text, size_t len);
/* dir/name as a NUL-terminated text (malloc'd), or NULL. */
char *vtcl_read_text(const char *dir, const char *name);
/* Runs argv (argv[0] the program) in dir with standard output and error
 * going to dir/log_name: the exit status, or -1 if it could not start. */
int vtcl_clang(const char *const *argv, const char *dir, const char *log_name);
#endif
