/* The implementations behind the driver's public names (src/driver). They
 * are named vtd_* so that two front ends share them: libvt's vt_* API
 * (driver_api.c, include/ventus.h) and the drop-in libspike_driver.so
 * (src/driver/dropin, docs/driver.md "Drop-in for the official library"),
 * whose vt_* functions have the official library's prototypes. So this
 * header does not include ventus.h. Each vtd_X behaves as vt_X of
 * include/ventus.h, without the unused kernel ids; the context ids select
 * an address space with the MMU on (driver_mmu.h); vtd_wait
 * and vtd_take_finished are the parts of vt_ready_wait and
 * vt_finish_all_kernel the two front ends combine differently. */
#ifndef VT_DRIVER_CORE_H
#define VT_DRIVER_CORE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef void *vt_device_h;

/* Sets the calling thread's last error and returns -1. */
int vtd_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The calling thread's last error ("" if none): vt_last_error. */
const char *vtd_last_error(void);

int vtd_dev_open(vt_device_h *hdevice);
int vtd_dev_close(vt_device_h hdevice);
int vtd_dev_caps(vt_device_h *hdevice, uint64_t caps_id, uint64_t *value);
int vtd_root_mem_alloc(vt_device_h hdevice, int taskID);
int vtd_root_mem_free(vt_device_h hdevice, int taskID);
int vtd_buf_alloc(vt_device_h hdevice, uint64_t size, uint64_t *vaddr, int BUF_TYPE,
                  uint64_t taskID);
int vtd_one_buf_free(vt_device_h hdevice, uint64_t *vaddr, const char *fn);
int vtd_copy_to_dev(vt_device_h hdevice, uint64_t dev_vaddr, const void *src, uint64_t size,
                    uint64_t taskID);
int vtd_copy_from_dev(vt_device_h hdevice, uint64_t dev_vaddr, void *dst, uint64_t size,
                      uint64_t taskID);
int vtd_upload_kernel_file(vt_device_h hdevice, const char *filename, int taskID);
int vtd_upload_kernel_bytes(vt_device_h hdevice, const void *content, uint64_t size, int taskID);
int vtd_start(vt_device_h hdevice, void *metaData, uint64_t taskID);
/* Waits until every started launch has ended, at most timeout_ms
 * milliseconds (UINT64_MAX: no limit). -1 on timeout or if a launch failed
 * (reported once); *launch_failed (may be NULL) says which. 'fn' names the
 * caller in messages. */
int vtd_wait(vt_device_h hdevice, uint64_t timeout_ms, const char *fn, bool *launch_failed);
/* Takes the kernel ids finished since the last call (at most capacity):
 * their number, or -1 for an unknown handle. The last error is kept. */
int vtd_take_finished(vt_device_h hdevice, int *finished, int capacity);
int vtd_dump_perf(vt_device_h hdevice, FILE *stream);
#endif
