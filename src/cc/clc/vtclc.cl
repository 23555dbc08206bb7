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
 *
 * It also holds the software conversions the ISA has no instruction for
 * (binary64 -> binary32/binary16, int64 -> binary32): cc_link.c replaces
 * those IR conversions by calls of __vt_f64_to_f32 and friends, which are
 * then inlined like every other function.
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
VLOADS(long)
VLOADS(ulong)
VLOADS(float)
VLOADS(double)

/* vload_halfN / vloada_halfN from __constant memory (the same reason) */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
float OVL vload_half(size_t i, const __constant half *p) { return (float)p[i]; }
float OVL vloada_half(size_t i, const __constant half *p) { return (float)p[i]; }
#define VLOAD_HALF(N, STRIDE)                                              \
  float##N OVL vload_half##N(size_t i, const __constant half *p) {         \
    float##N r;                                                            \
    __private float *d = (__private float *)&r;                            \
    for (int k = 0; k < N; k++) d[k] = (float)p[i * N + k];                \
    return r;                                                              \
  }                                                                        \
  float##N OVL vloada_half##N(size_t i, const __constant half *p) {        \
    float##N r;                                                            \
    __private float *d = (__private float *)&r;                            \
    for (int k = 0; k < N; k++) d[k] = (float)p[i * STRIDE + k];           \
    return r;                                                              \
  }
VLOAD_HALF(2, 2)
VLOAD_HALF(3, 4) /* vloada_half3 reads from 4-element-aligned groups */
VLOAD_HALF(4, 4)
VLOAD_HALF(8, 8)
VLOAD_HALF(16, 16)
#pragma OPENCL EXTENSION cl_khr_fp16 : disable

/* --- software conversions, rounding to nearest even (IEEE 754 default;
 * OpenCL's convert_*_rt* functions in libclc build on these) --- */

/* The magnitude of the binary64 x (bits) rounded to a binary format with
 * mbits fraction bits and exponent bias `bias` (binary32: 23, 127;
 * binary16: 10, 15): its bits without the sign. A NaN becomes the
 * canonical quiet NaN (the rule for generated NaNs, isa2025.md 3.0);
 * binary64 subnormals are far below both formats and give 0. */
static uint __vt_round_f64(ulong x, uint mbits, int bias) {
  int e = (int)((x >> 52) & 0x7ff);
  ulong m = x & 0xfffffffffffffUL;
  uint inf = (uint)(2 * bias + 1) << mbits;
  if (e == 0x7ff) return m ? inf | 1u << (mbits - 1) : inf;
  int ex = e - 1023;
  if (e == 0 || ex < -bias - (int)mbits - 2) return 0; /* below half the smallest subnormal */
  if (ex > bias) return inf;
  uint shift = 52 - mbits;
  ulong base = 0;
  if (ex >= 1 - bias) { /* normal: the exponent field goes above the fraction */
    base = (ulong)(ex + bias) << mbits;
  } else { /* subnormal: the implicit one joins the fraction */
    m |= 1UL << 52;
    shift += (uint)(1 - bias - ex);
  }
  ulong r = base + (m >> shift), rest = m & ((1UL << shift) - 1), tie = 1UL << (shift - 1);
  if (rest > tie || (rest == tie && (r & 1))) r++; /* a carry into the exponent is right, */
  return (uint)r;                                     /* up to the bits of infinity */
}

uint __vt_f64_to_f32(ulong x) { return ((uint)(x >> 32) & 0x80000000u) | __vt_round_f64(x, 23, 127); }

ushort __vt_f64_to_f16(ulong x) {
  return (ushort)(((uint)(x >> 48) & 0x8000u) | __vt_round_f64(x, 10, 15));
}

/* binary32 bits of the unsigned 64-bit x */
uint __vt_u64_to_f32(ulong x) {
  if (x == 0) return 0;
  uint lz = (uint)__builtin_clzl(x);
  ulong n = x << lz; /* the leading one at bit 63: the value is n * 2^(-lz) */
  uint r = ((190 - lz) << 23) + (uint)((n >> 40) & 0x7fffff); /* exponent 63 - lz, bias 127 */
  ulong rest = n & 0xffffffffffUL, tie = 1UL << 39;
  if (rest > tie || (rest == tie && (r & 1))) r++;
  return r;
}

uint __vt_s64_to_f32(long x) {
  ulong mag = x < 0 ? -(ulong)x : (ulong)x; /* INT64_MIN: 2^63 */
  return (x < 0 ? 0x80000000u : 0) | __vt_u64_to_f32(mag);
}

/* --- vstore_half*_rtp / _rtn: libclc's (weak definitions, replaced by
 * these) round a float at most 2^-25 in magnitude to 0 instead of to the
 * smallest subnormal when rounding away from zero. Here: the conversion to
 * nearest even, then one step in the wanted direction when it went the
 * other way (binary16 bits step like integers within one sign). --- */
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

/* the binary16 bits next to h toward +inf (up) or -inf */
static ushort __vt_half_step(ushort h, bool up) {
  bool neg = (h & 0x8000) != 0;
  if ((h & 0x7fff) == 0) return up ? 0x0001 : 0x8001;
  return up != neg ? h + 1 : h - 1; /* away from zero: the magnitude grows */
}

static ushort __vt_f32_to_f16_dir(float x, bool up) {
  ushort h = as_ushort((half)x);
  float y = (float)as_half(h);
  if (!isnan(x) && (up ? y < x : y > x)) h = __vt_half_step(h, up);
  return h;
}

static ushort __vt_f64_to_f16_dir(double x, bool up) {
  ushort h = as_ushort((half)x);
  double y = (double)as_half(h);
  if (!isnan(x) && (up ? y < x : y > x)) h = __vt_half_step(h, up);
  return h;
}

#define VT_STORE_DIR1(T, AS, MODE, UP)                                                   \
  void OVL vstore_half_##MODE(T x, size_t i, AS half *p) {                              \
    ((AS ushort *)p)[i] = __vt_##T##_h(x, UP);                                           \
  }                                                                                      \
  void OVL vstorea_half_##MODE(T x, size_t i, AS half *p) {                             \
    ((AS ushort *)p)[i] = __vt_##T##_h(x, UP);                                           \
  }
#define VT_STORE_DIRN(T, N, STRIDE, AS, MODE, UP)                                        \
  void OVL vstore_half##N##_##MODE(T##N x, size_t i, AS half *p) {                      \
    __private T *e = (__private T *)&x;                                                  \
    for (int k = 0; k < N; k++) ((AS ushort *)p)[i * N + k] = __vt_##T##_h(e[k], UP);    \
  }                                                                                      \
  void OVL vstorea_half##N##_##MODE(T##N x, size_t i, AS half *p) {                     \
    __private T *e = (__private T *)&x;                                                  \
    for (int k = 0; k < N; k++) ((AS ushort *)p)[i * STRIDE + k] = __vt_##T##_h(e[k], UP); \
  }
#define VT_STORE_DIR_ALL(T, AS, MODE, UP)                                                \
  VT_STORE_DIR1(T, AS, MODE, UP)                                                         \
  VT_STORE_DIRN(T, 2, 2, AS, MODE, UP)                                                   \
  VT_STORE_DIRN(T, 3, 4, AS, MODE, UP) /* vstorea_half3 writes 4-aligned groups */       \
  VT_STORE_DIRN(T, 4, 4, AS, MODE, UP)                                                   \
  VT_STORE_DIRN(T, 8, 8, AS, MODE, UP)                                                   \
  VT_STORE_DIRN(T, 16, 16, AS, MODE, UP)
#define VT_STORE_DIR_AS(T, MODE, UP)                                                     \
  VT_STORE_DIR_ALL(T, __global, MODE, UP)                                                \
  VT_STORE_DIR_ALL(T, __local, MODE, UP)                                                 \
  VT_STORE_DIR_ALL(T, __private, MODE, UP)

#define __vt_float_h __vt_f32_to_f16_dir
#define __vt_double_h __vt_f64_to_f16_dir
VT_STORE_DIR_AS(float, rtp, true)
VT_STORE_DIR_AS(float, rtn, false)
VT_STORE_DIR_AS(double, rtp, true)
VT_STORE_DIR_AS(double, rtn, false)
#pragma OPENCL EXTENSION cl_khr_fp64 : disable
#pragma OPENCL EXTENSION cl_khr_fp16 : disable

/* mad_hi: libclc has it only as a macro of its own headers */
#define VT_MAD_HI1(T) \
  T OVL mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }
#define VT_MAD_HI(T) \
  VT_MAD_HI1(T) VT_MAD_HI1(T##2) VT_MAD_HI1(T##3) VT_MAD_HI1(T##4) VT_MAD_HI1(T##8) VT_MAD_HI1(T##16)
VT_MAD_HI(char)
VT_MAD_HI(uchar)
VT_MAD_HI(short)
VT_MAD_HI(ushort)
VT_MAD_HI(int)
VT_MAD_HI(uint)
VT_MAD_HI(long)
VT_MAD_HI(ulong)
