/* Buffers and buffer commands of the vt OpenCL platform: creation flags
 * and host pointers, read/write/copy/fill/map/unmap, rectangles,
 * sub-buffers, host access flags, bounds and overlap errors, and
 * destructor callbacks. Expected contents are computed on the host. */
#include "ocl_test_util.h"

static cl_mem buffer(check_state *st, fx *f, cl_mem_flags flags, size_t size, void *host) {
  cl_int err;
  cl_mem m = clCreateBuffer(f->ctx, flags, size, host, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  return m;
}

static void pattern_bytes(uint8_t *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)(i * 7 + seed * 13 + (i >> 8));
}

TEST(create_and_query) {
  fx f;
  if (fx_open(st, &f)) return;
  uint8_t host[1000], back[1000];
  pattern_bytes(host, sizeof host, 1);
  cl_mem m = buffer(st, &f, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof host, host);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL),
           CL_SUCCESS);
  CHECK(st, !memcmp(host, back, sizeof host));
  size_t size = 0;
  cl_mem_flags flags = 0;
  cl_mem_object_type type = 0;
  cl_context c = NULL;
  CHECK_CL(st, clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetMemObjectInfo(m, CL_MEM_FLAGS, sizeof flags, &flags, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetMemObjectInfo(m, CL_MEM_TYPE, sizeof type, &type, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetMemObjectInfo(m, CL_MEM_CONTEXT, sizeof c, &c, NULL), CL_SUCCESS);
  CHECK(st, size == 1000 && flags == (CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR) &&
                type == CL_MEM_OBJECT_BUFFER && c == f.ctx);
  CHECK_CL(st, clGetMemObjectInfo(m, 0x7777, sizeof size, &size, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clReleaseMemObject(m), CL_SUCCESS);
  cl_int err;
  CHECK(st, !clCreateBuffer(f.ctx, 0, 0, NULL, &err) && err == CL_INVALID_BUFFER_SIZE);
  CHECK(st, !clCreateBuffer(f.ctx, 0, (size_t)1 << 31, NULL, &err) &&
                err == CL_INVALID_BUFFER_SIZE); /* over CL_DEVICE_MAX_MEM_ALLOC_SIZE */
  CHECK(st, !clCreateBuffer(f.ctx, CL_MEM_COPY_HOST_PTR, 8, NULL, &err) &&
                err == CL_INVALID_HOST_PTR);
  CHECK(st, !clCreateBuffer(f.ctx, 0, 8, host, &err) && err == CL_INVALID_HOST_PTR);
  CHECK(st, !clCreateBuffer(f.ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 8, NULL, &err) &&
                err == CL_INVALID_VALUE);
  CHECK(st, !clCreateBuffer(f.ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 8, host, &err) &&
                err == CL_INVALID_VALUE);
  CHECK(st, !clCreateBuffer(f.ctx, (cl_mem_flags)1 << 40, 8, NULL, &err) &&
                err == CL_INVALID_VALUE);
  fx_close(&f);
}

TEST(read_write_copy) {
  fx f;
  if (fx_open(st, &f)) return;
  uint8_t a[4096], b[4096], out[4096];
  pattern_bytes(a, sizeof a, 2);
  pattern_bytes(b, sizeof b, 3);
  cl_mem x = buffer(st, &f, 0, sizeof a, NULL), y = buffer(st, &f, 0, sizeof b, NULL);
  CHECK_CL(st, clEnqueueWriteBuffer(f.q, x, CL_FALSE, 0, sizeof a, a, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueWriteBuffer(f.q, y, CL_TRUE, 0, sizeof b, b, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueCopyBuffer(f.q, x, y, 100, 1000, 500, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, y, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
           CL_SUCCESS);
  memcpy(b + 1000, a + 100, 500);
  CHECK(st, !memcmp(out, b, sizeof b));
  CHECK_CL(st, clEnqueueReadBuffer(f.q, x, CL_TRUE, 4000, 97, out, 0, NULL, NULL),
           CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, x, CL_TRUE, 0, 0, out, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, x, CL_TRUE, 0, 4, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueWriteBuffer(f.q, x, CL_TRUE, (size_t)-8, 16, a, 0, NULL, NULL),
           CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueCopyBuffer(f.q, x, x, 0, 100, 200, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_CL(st, clEnqueueCopyBuffer(f.q, x, x, 0, 200, 200, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueCopyBuffer(f.q, x, y, 0, 4000, 200, 0, NULL, NULL), CL_INVALID_VALUE);
  /* a buffer of another context */
  fx g;
  if (fx_open(st, &g) == 0) {
    cl_mem z = buffer(st, &g, 0, 64, NULL);
    CHECK_CL(st, clEnqueueReadBuffer(f.q, z, CL_TRUE, 0, 4, out, 0, NULL, NULL),
             CL_INVALID_CONTEXT);
    CHECK_CL(st, clEnqueueCopyBuffer(f.q, x, z, 0, 0, 4, 0, NULL, NULL), CL_INVALID_CONTEXT);
    clReleaseMemObject(z);
    fx_close(&g);
  }
  clReleaseMemObject(x);
  clReleaseMemObject(y);
  fx_close(&f);
}

TEST(fill) {
  fx f;
  if (fx_open(st, &f)) return;
  static uint8_t want[3 << 20], got[3 << 20]; /* larger than one staging chunk */
  memset(want, 0xee, sizeof want);
  cl_mem m = buffer(st, &f, CL_MEM_COPY_HOST_PTR, sizeof want, want);
  static const size_t sizes[] = {1, 2, 4, 16, 128};
  size_t off = 0;
  for (size_t i = 0; i < 5; i++) {
    uint8_t pat[128];
    for (size_t k = 0; k < sizes[i]; k++) pat[k] = (uint8_t)(0x10 * i + k + 1);
    size_t len = sizes[i] * 3000;
    CHECK_CL(st, clEnqueueFillBuffer(f.q, m, pat, sizes[i], off, len, 0, NULL, NULL),
             CL_SUCCESS);
    for (size_t k = 0; k < len; k++) want[off + k] = pat[k % sizes[i]];
    off += len;
    off = (off + 127) / 128 * 128;
  }
  uint8_t two[2] = {0xab, 0xcd};
  CHECK_CL(st, clEnqueueFillBuffer(f.q, m, two, 2, 1 << 20, 2 << 20, 0, NULL, NULL), CL_SUCCESS);
  for (size_t k = 0; k < (2u << 20); k++) want[(1u << 20) + k] = two[k % 2];
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL),
           CL_SUCCESS);
  CHECK(st, !memcmp(got, want, sizeof want));
  CHECK_CL(st, clEnqueueFillBuffer(f.q, m, two, 3, 0, 6, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueFillBuffer(f.q, m, two, 256, 0, 256, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueFillBuffer(f.q, m, two, 2, 1, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueFillBuffer(f.q, m, two, 2, 0, 5, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueFillBuffer(f.q, m, NULL, 2, 0, 4, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueFillBuffer(f.q, m, two, 2, sizeof want, 2, 0, NULL, NULL),
           CL_INVALID_VALUE);
  clReleaseMemObject(m);
  fx_close(&f);
}

TEST(map_and_unmap) {
  fx f;
  if (fx_open(st, &f)) return;
  uint8_t init[256], out[256];
  pattern_bytes(init, sizeof init, 4);
  cl_mem m = buffer(st, &f, CL_MEM_COPY_HOST_PTR, sizeof init, init);
  cl_int err;
  uint8_t *p = clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 16, 64, 0, NULL,
                                  NULL, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  cl_uint count = 0;
  CHECK_CL(st, clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL), CL_SUCCESS);
  CHECK(st, count == 1);
  if (p) {
    CHECK(st, !memcmp(p, init + 16, 64));
    for (int i = 0; i < 64; i++) p[i] = (uint8_t)(255 - i);
  }
  CHECK_CL(st, clEnqueueUnmapMemObject(f.q, m, p, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueUnmapMemObject(f.q, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueUnmapMemObject(f.q, m, init, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
           CL_SUCCESS);
  for (int i = 0; i < 64; i++) init[16 + i] = (uint8_t)(255 - i);
  CHECK(st, !memcmp(out, init, sizeof init));
  CHECK_CL(st, clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof count, &count, NULL), CL_SUCCESS);
  CHECK(st, count == 0);
  /* a read-only map does not write back */
  p = clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ, 0, 8, 0, NULL, NULL, &err);
  if (p) p[0] ^= 0xff;
  CHECK_CL(st, clEnqueueUnmapMemObject(f.q, m, p, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, 8, out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(st, out[0] == init[0]);
  CHECK(st, !clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION,
                                0, 8, 0, NULL, NULL, &err) && err == CL_INVALID_VALUE);
  CHECK(st, !clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_READ, 250, 8, 0, NULL, NULL, &err) &&
                err == CL_INVALID_VALUE);
  clReleaseMemObject(m);
  /* CL_MEM_USE_HOST_PTR: the mapping is the host memory */
  uint8_t host[128];
  pattern_bytes(host, sizeof host, 5);
  m = buffer(st, &f, CL_MEM_USE_HOST_PTR, sizeof host, host);
  void *hp = NULL;
  CHECK_CL(st, clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, NULL), CL_SUCCESS);
  CHECK(st, hp == host);
  p = clEnqueueMapBuffer(f.q, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 32, 32, 0, NULL, NULL,
                         &err);
  CHECK(st, err == CL_SUCCESS && p == host + 32);
  if (p) memset(p, 0x5a, 32);
  CHECK_CL(st, clEnqueueUnmapMemObject(f.q, m, p, 0, NULL, NULL), CL_SUCCESS);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof host, out, 0, NULL, NULL),
           CL_SUCCESS);
  CHECK(st, out[31] == host[31] && out[32] == 0x5a && out[63] == 0x5a && out[64] == host[64]);
  clReleaseMemObject(m);
  fx_close(&f);
}

/* The rectangle example of the specification's pictures: a 3 x 2 x 2 box
 * in a 16 x 8 x 4 byte volume, rows of 16, slices of 128. */
TEST(rectangles) {
  fx f;
  if (fx_open(st, &f)) return;
  enum { ROW = 16, SLICE = 128, SIZE = 512 };
  uint8_t vol[SIZE], host[SIZE], out[SIZE], want[SIZE];
  pattern_bytes(vol, SIZE, 6);
  pattern_bytes(host, SIZE, 7);
  cl_mem m = buffer(st, &f, CL_MEM_COPY_HOST_PTR, SIZE, vol);
  size_t bo[3] = {5, 2, 1}, ho[3] = {1, 1, 0}, region[3] = {3, 2, 2};
  /* host side: rows of 10, slices of 40 */
  CHECK_CL(st, clEnqueueWriteBufferRect(f.q, m, CL_TRUE, bo, ho, region, ROW, SLICE, 10, 40,
                                        host, 0, NULL, NULL),
           CL_SUCCESS);
  memcpy(want, vol, SIZE);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 2; y++)
      for (size_t x = 0; x < 3; x++)
        want[(1 + z) * SLICE + (2 + y) * ROW + 5 + x] = host[z * 40 + (1 + y) * 10 + 1 + x];
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, SIZE, out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(st, !memcmp(out, want, SIZE));
  uint8_t back[80];
  memset(back, 0, sizeof back);
  CHECK_CL(st, clEnqueueReadBufferRect(f.q, m, CL_TRUE, bo, ho, region, ROW, SLICE, 10, 40, back,
                                       0, NULL, NULL),
           CL_SUCCESS);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 2; y++)
      CHECK(st, !memcmp(back + z * 40 + (1 + y) * 10 + 1, host + z * 40 + (1 + y) * 10 + 1, 3));
  /* copy the box within the buffer: to x = 9 (no overlap), then onto itself shifted by 1 */
  size_t dst[3] = {9, 2, 1};
  CHECK_CL(st, clEnqueueCopyBufferRect(f.q, m, m, bo, dst, region, ROW, SLICE, ROW, SLICE, 0,
                                       NULL, NULL),
           CL_SUCCESS);
  for (size_t z = 0; z < 2; z++)
    for (size_t y = 0; y < 2; y++)
      memcpy(want + (1 + z) * SLICE + (2 + y) * ROW + 9, want + (1 + z) * SLICE + (2 + y) * ROW + 5,
             3);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, SIZE, out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(st, !memcmp(out, want, SIZE));
  size_t shifted[3] = {6, 2, 1};
  CHECK_CL(st, clEnqueueCopyBufferRect(f.q, m, m, bo, shifted, region, ROW, SLICE, ROW, SLICE, 0,
                                       NULL, NULL),
           CL_MEM_COPY_OVERLAP);
  size_t zero[3] = {0, 2, 1}, far[3] = {0, 0, 4};
  CHECK_CL(st, clEnqueueWriteBufferRect(f.q, m, CL_TRUE, bo, ho, zero, ROW, SLICE, 10, 40, host,
                                        0, NULL, NULL),
           CL_INVALID_VALUE);
  CHECK_CL(st, clEnqueueWriteBufferRect(f.q, m, CL_TRUE, far, ho, region, ROW, SLICE, 10, 40,
                                        host, 0, NULL, NULL),
           CL_INVALID_VALUE); /* slices 4 and 5 do not exist */
  CHECK_CL(st, clEnqueueWriteBufferRect(f.q, m, CL_TRUE, bo, ho, region, 2, SLICE, 10, 40, host,
                                        0, NULL, NULL),
           CL_INVALID_VALUE); /* row pitch below region[0] */
  CHECK_CL(st, clEnqueueWriteBufferRect(f.q, m, CL_TRUE, bo, ho, region, ROW, 33, 10, 40, host, 0,
                                        NULL, NULL),
           CL_INVALID_VALUE); /* slice pitch not a multiple of the row pitch */
  clReleaseMemObject(m);
  fx_close(&f);
}

TEST(sub_buffers) {
  fx f;
  if (fx_open(st, &f)) return;
  uint8_t init[1024], out[1024];
  pattern_bytes(init, sizeof init, 8);
  cl_mem m = buffer(st, &f, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof init, init);
  cl_buffer_region r = {256, 300};
  cl_int err;
  cl_mem s = clCreateSubBuffer(m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK_CL(st, err, CL_SUCCESS);
  uint8_t data[300];
  pattern_bytes(data, sizeof data, 9);
  CHECK_CL(st, clEnqueueWriteBuffer(f.q, s, CL_TRUE, 0, 300, data, 0, NULL, NULL), CL_SUCCESS);
  memcpy(init + 256, data, 300);
  CHECK_CL(st, clEnqueueReadBuffer(f.q, m, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL),
           CL_SUCCESS);
  CHECK(st, !memcmp(out, init, sizeof init));
  CHECK_CL(st, clEnqueueReadBuffer(f.q, s, CL_TRUE, 296, 8, out, 0, NULL, NULL),
           CL_INVALID_VALUE);
  size_t off = 0;
  cl_mem parent = NULL;
  CHECK_CL(st, clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof off, &off, NULL), CL_SUCCESS);
  CHECK_CL(st, clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL),
           CL_SUCCESS);
  CHECK(st, off == 256 && parent == m);
  CHECK_CL(st, clEnqueueCopyBuffer(f.q, m, s, 300, 0, 100, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  CHECK_CL(st, clEnqueueCopyBuffer(f.q, m, s, 0, 0, 100, 0, NULL, NULL), CL_SUCCESS);
  cl_buffer_region odd = {100, 10}, past = {1024 - 128, 129}, empty = {0, 0};
  CHECK(st, !clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &odd, &err) &&
                err == CL_MISALIGNED_SUB_BUFFER_OFFSET);
  CHECK(st, !clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &past, &err) &&
                err == CL_INVALID_VALUE);
  CHECK(st, !clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &empty, &err) &&
                err == CL_INVALID_BUFFER_SIZE);
  CHECK(st, !clCreateSubBuffer(s, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) &&
                err == CL_INVALID_MEM_OBJECT);
  CHECK(st, !clCreateSubBuffer(m, 0, 0x7777, &r, &err) && err == CL_INVALID_VALUE);
  CHECK(st, !clCreateSubBuffer(m, CL_MEM_COPY_HOST_PTR, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) &&
                err == CL_INVALID_VALUE);
  clReleaseMemObject(m); /* the sub-buffer keeps its parent */
  CHECK_CL(st, clEnqueueReadBuffer(f.q, s, CL_TRUE, 0, 100, out, 0, NULL, NULL), CL_SUCCESS);
  CHECK(st, !memcmp(out, init, 100));
  clReleaseMemObject(s);
  cl_mem ro = buffer(st, &f, CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS, 1024, NULL);
  CHECK(st, !clCreateSubBuffer(ro, CL_MEM_WRITE_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) &&
                err == CL_INVALID_VALUE);
  CHECK(st, !clCreateSubBuffer(ro, CL_MEM_HOST_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) &&
                err == CL_INVALID_VALUE);
  cl_mem rs = clCreateSubBuffer(ro, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  cl_mem_flags fl = 0;
  CHECK_CL(st, clGetMemObjectInfo(rs, CL_MEM_FLAGS, sizeof fl, &fl, NULL), CL_SUCCESS);
  CHECK(st, fl == (CL_MEM_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); /* inherited */
  CHECK_CL(st, clEnqueueReadBuffer(f.q, ro, CL_TRUE, 0, 4, out, 0, NULL, NULL),
           CL_INVALID_OPERATION);
  CHECK_CL(st, clEnqueueWriteBuffer(f.q, rs, CL_TRUE, 0, 4, out, 0, NULL, NULL),
           CL_INVALID_OPERATION);
  clReleaseMemObject(rs);
  clReleaseMemObject(ro);
  fx_close(&f);
}

static int order[8], norder;
static void CL_CALLBACK destructor(cl_mem m, void *user) {
  (void)m;
  order[norder++] = (int)(intptr_t)user;
}

TEST(destructor_callbacks) {
  fx f;
  if (fx_open(st, &f)) return;
  cl_mem m = buffer(st, &f, 0, 16, NULL);
  norder = 0;
  CHECK_CL(st, clSetMemObjectDestructorCallback(m, destructor, (void *)1), CL_SUCCESS);
  CHECK_CL(st, clSetMemObjectDestructorCallback(m, destructor, (void *)2), CL_SUCCESS);
  CHECK_CL(st, clSetMemObjectDestructorCallback(m, NULL, NULL), CL_INVALID_VALUE);
  CHECK_CL(st, clRetainMemObject(m), CL_SUCCESS);
  CHECK_CL(st, clReleaseMemObject(m), CL_SUCCESS);
  CHECK(st, norder == 0);
  CHECK_CL(st, clReleaseMemObject(m), CL_SUCCESS);
  CHECK(st, norder == 2 && order[0] == 2 && order[1] == 1); /* reverse order (5.4.1) */
  fx_close(&f);
}

RUN_TESTS(T(create_and_query), T(read_write_copy), T(fill), T(map_and_unmap), T(rectangles),
          T(sub_buffers), T(destructor_callbacks))
