/* vtclc.cl - vt cc's device library in OpenCL C, linked into every program
 * as LLVM bitcode (src/cc/cc_link.c). It defines the built-ins that depend
 * on Ventus: the work-item functions, read from the CSRs and the kernel
 * metadata (KNL) buffer exactly as the official start-up code and ABI
 * define them (formats-and-launch.md 3 and 6.3; docs/kernels.md), the
 * barriers and fences, and vloadN for __constant pointers. Everything else
 * (math, atomics) comes from libclc.
 *
 * The __vt_* functions are the back end's intrinsics (src/cc/cc_isel_call.c):
 *   __vt_lane()      the lane number in the warp (vid.v)          varying
 *   __vt_csr(n)      csrr of CSR n (a constant)                   uniform
 *   __vt_knl(off)    the 32-bit word at KNL + off                  uniform
 *   __vt_barrier(f)  barrier x0, x0, f
 *   __vt_fence()     fence
 */
uint __vt_lane(void) __attribute__((const));
uint __vt_csr(uint csr) __attribute__((const));
uint __vt_knl(uint offset) __attribute__((const));
void __vt_barrier(uint flags);
void __vt_fence(void);

#define CSR_TID 0x800
#define CSR_GIDX 0x808
#define KNL_WORK_DIM 8
#define KNL_GLOBAL_SIZE 12
#define KNL_LOCAL_SIZE 24
#define KNL_GLOBAL_OFFSET 36

#define OVL __attribute__((overloadable))

uint OVL get_work_dim(void) { return __vt_knl(KNL_WORK_DIM); }

size_t OVL get_local_size(uint d) { return d < 3 ? __vt_knl(KNL_LOCAL_SIZE + 4 * d) : 1; }
size_t OVL get_global_size(uint d) { return d < 3 ? __vt_knl(KNL_GLOBAL_SIZE + 4 * d) : 1; }
size_t OVL get_global_offset(uint d) { return d < 3 ? __vt_knl(KNL_GLOBAL_OFFSET + 4 * d) : 0; }
size_t OVL get_num_groups(uint d) { return d < 3 ? get_global_size(d) / get_local_size(d) : 1; }

size_t OVL get_group_id(uint d) {
  if (d == 0) return __vt_csr(CSR_GIDX);
  if (d == 1) return __vt_csr(CSR_GIDX + 1);
  if (d == 2) return __vt_csr(CSR_GIDX + 2);
  return 0;
}

/* The work-item's linear id in its workgroup is CSR_TID + lane (lane 0 of
 * warp w is item w * threads-per-warp); x varies fastest. */
size_t OVL get_local_id(uint d) {
  uint lin = __vt_csr(CSR_TID) + __vt_lane();
  uint lx = __vt_knl(KNL_LOCAL_SIZE);
  if (d == 0) return lin % lx;
  uint ly = __vt_knl(KNL_LOCAL_SIZE + 4);
  if (d == 1) return (lin / lx) % ly;
  if (d == 2) return lin / (lx * ly);
  return 0;
}

size_t OVL get_global_id(uint d) {
  if (d >= 3) return 0;
  return get_group_id(d) * get_local_size(d) + get_local_id(d) + get_global_offset(d);
}

void OVL barrier(cl_mem_fence_flags flags) { __vt_barrier(flags); }
void OVL mem_fence(cl_mem_fence_flags flags) { (void)flags; __vt_fence(); }
void OVL read_mem_fence(cl_mem_fence_flags flags) { (void)flags; __vt_fence(); }
void OVL write_mem_fence(cl_mem_fence_flags flags) { (void)flags; __vt_fence(); }

/* vloadN from __constant memory: libclc has these for its own numbering of
 * the constant address space only. */
#define VLOAD(T, N)                                                        \
  T##N OVL vload##N(size_t i, const __constant T *p) {                     \
    T##N r;                                                                \
    __private T *d = (__private T *)&r;                                    \
    for (int k = 0; k < N; k++) d[k] = p[i * N + k];                       \
    return r;                                                              \
  }
#define VLOADS(T) VLOAD(T, 2) VLOAD(T, 4) VLOAD(T, 8) VLOAD(T, 16)         \
  T##3 OVL vload3(size_t i, const __constant T *p) {                       \
    return (T##3)(p[3 * i], p[3 * i + 1], p[3 * i + 2]);                   \
  }
VLOADS(char)
VLOADS(uchar)
VLOADS(short)
VLOADS(ushort)
VLOADS(int)
VLOADS(uint)
VLOADS(float)
