/* Reading whole files, shared by the loaders and the vt command. Every
 * caller names the size limit of its format, so that a huge file or an
 * endless stream (/dev/zero, a pipe) is a clear error instead of exhausted
 * memory (docs/formats.md, "Input size limits"). */
#ifndef VT_UTIL_FILE_H
#define VT_UTIL_FILE_H
#include <stddef.h>
#include <stdint.h>

#include "vt/addrmap.h"

typedef struct vt_file_limit {
  uint64_t max_bytes; /* larger files are rejected */
  const char *what;   /* for the message: "a .metadata file" */
  const char *magic;  /* NULL, or the first bytes every file of the format has: a
                         file (or stream) starting otherwise stops being read there */
} vt_file_limit;

/* The limits of the formats vt reads. ELF32 offsets and sizes are 32-bit;
 * a .data file describes at most the 32-bit address space; a .metadata file
 * holds at most 2 * (14 + 3 * 0xffff) values (the loader's buffer limit) of
 * one short line each; a buffer of vt launch must fit above 0x90000000. */
#define VT_FILE_LIMIT_ELF ((vt_file_limit){0x100000000ull, "an ELF file", "\177ELF"})
#define VT_FILE_LIMIT_METADATA ((vt_file_limit){16ull << 20, "a .metadata file", NULL})
#define VT_FILE_LIMIT_DATA ((vt_file_limit){0x100000000ull, "a .data file", NULL})
#define VT_FILE_LIMIT_BUFFER ((vt_file_limit){VT_ADDR_BUFFER_SIZE, "a device buffer", NULL})
#define VT_FILE_LIMIT_SOURCE ((vt_file_limit){1ull << 30, "an assembly source file", NULL})

/* Reads all of 'path' into a malloc'd buffer (one extra NUL byte after the
 * data, so text can be scanned safely). A regular file larger than the limit
 * is rejected before reading; anything else (pipe, device) is read until the
 * limit is passed. Returns 0, or an errno value (ENOENT, EACCES, EISDIR,
 * EFBIG for a file over the limit, ENOEXEC for a file at least as long as
 * the magic that does not start with it, ENOMEM, EIO, ...), leaves *data
 * NULL and writes "PATH: reason" to msg (when msgn > 0). Shorter files are
 * returned: the format's reader reports them. */
int vt_read_file(const char *path, vt_file_limit lim, uint8_t **data, size_t *len, char *msg,
                 size_t msgn);

/* A whole file, read-only: a regular non-empty file is mapped (no copy),
 * anything else read with vt_read_file; same limits, errors and messages.
 * Close with vt_file_view_close. A mapped file truncated by another process
 * while it is open raises SIGBUS on access: meant for short-lived views of
 * inputs (vt launch's buffers), not for library loaders. */
typedef struct vt_file_view {
  const uint8_t *data;
  size_t len;
  uint8_t *owned; /* read into memory (not mapped): freed at close */
} vt_file_view;
int vt_file_view_open(const char *path, vt_file_limit lim, vt_file_view *v, char *msg,
                      size_t msgn);
void vt_file_view_close(vt_file_view *v);
#endif
