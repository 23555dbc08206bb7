/* double precision (cl_khr_fp64): binary64 on the v2025 SEW-64 instructions
 * (isa2025.md 3.2.2), conversions, comparisons, uniform and varying values,
 * divergence on double comparisons. Checked by tests/unit/test_cc_fp64.c. */

/* one operation per statement, so that the host computes the same roundings
 * (clang fuses a * b + c written in one expression) */
static void arith_ops(double x, double y, double s, __global double *o) {
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = fma(x, y, s);
  o[5] = sqrt(fabs(x));
  o[6] = -(x * s);
  o[7] = fmin(x, y);
  o[8] = fmax(x, s);
  o[9] = copysign(y, x);
  o[10] = sqrt(x);
  o[11] = -x;
}

/* varying operands: vector pairs */
__kernel void arith(__global const double *a, __global const double *b, __global double *out,
                    double s) {
  int g = get_global_id(0);
  arith_ops(a[g], b[g], s, out + 12 * g);
}

/* uniform operands (the group's element): scalar registers */
__kernel void arith_u(__global const double *a, __global const double *b, __global double *out,
                      double s) {
  int g = get_group_id(0);
  arith_ops(a[g], b[g], s, out + 12 * g);
}

/* values the whole warp shares: scalar registers, computed in vector pairs */
__kernel void uniform(__global double *out, double s, double t) {
  double u = s * t;
  double v = u / (s + 1.0);
  double w = sqrt(v) - (double)get_group_id(0);
  if (u > t) w += 0.5;
  out[get_global_id(0)] = w + (double)get_local_id(0);
}

/* bit 0: x < y, 1: x <= y, 2: x > y, 3: x >= y, 4: x == y, 5: x != y,
 * 6: isnan(x), 7: isunordered(x, y), 8: islessgreater(x, y), 9: isinf(x),
 * 10: isfinite(x), 11: signbit(x) */
static int compare_bits(double x, double y) {
  return (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
         isnan(x) << 6 | isunordered(x, y) << 7 | islessgreater(x, y) << 8 | isinf(x) << 9 |
         isfinite(x) << 10 | signbit(x) << 11;
}

__kernel void compare(__global const double *a, __global const double *b, __global int *out) {
  int g = get_global_id(0);
  out[g] = compare_bits(a[g], b[g]);
}

__kernel void compare_u(__global const double *a, __global const double *b, __global int *out) {
  int g = get_group_id(0);
  out[g] = compare_bits(a[g], b[g]);
}

/* a divergent branch and a loop whose trip count depends on a double */
__kernel void diverge(__global const double *a, __global double *out) {
  int g = get_global_id(0);
  double x = a[g], r;
  if (x > 1.0) r = x * 0.5;
  else r = x - 3.0;
  int n = 0;
  while (r < 100.0 && n < 20) {
    r = r * 2.0 + 1.0;
    n++;
  }
  out[g] = r + n;
}

static void convert_ops(double x, long v, __global float *f, __global int *i, __global long *ol,
                        __global double *od, __global float *lf) {
  f[0] = (float)x;
  i[0] = (int)x;
  i[1] = (int)(uint)fabs(x);
  ol[0] = (long)x;
  ol[1] = (long)(ulong)fabs(x);
  od[0] = (double)v;
  od[1] = (double)(int)v;
  od[2] = (double)(float)x;
  od[3] = (double)(ulong)v;
  od[4] = (double)(uint)v;
  lf[0] = (float)v;
  lf[1] = (float)(ulong)v;
}

__kernel void convert(__global const double *a, __global const long *l, __global float *f,
                      __global int *i, __global long *ol, __global double *od, __global float *lf) {
  int g = get_global_id(0);
  convert_ops(a[g], l[g], f + g, i + 2 * g, ol + 2 * g, od + 5 * g, lf + 2 * g);
}

__kernel void convert_u(__global const double *a, __global const long *l, __global float *f,
                        __global int *i, __global long *ol, __global double *od,
                        __global float *lf) {
  int g = get_group_id(0);
  convert_ops(a[g], l[g], f + g, i + 2 * g, ol + 2 * g, od + 5 * g, lf + 2 * g);
}

/* float <-> long (the widening conversion, and the software routine) */
__kernel void float_long(__global const float *a, __global long *l, __global ulong *u) {
  int g = get_global_id(0);
  l[g] = (long)a[g];
  u[g] = (ulong)fabs(a[g]);
}

/* vectors of doubles, swizzles, rounding functions */
__kernel void vectors(__global const double4 *a, __global double4 *out) {
  int g = get_global_id(0);
  double4 x = a[g];
  double4 p = x * (double4)(2.0, 0.5, -1.0, 3.0);
  out[4 * g] = p + x.wzyx;
  out[4 * g + 1] = floor(x);
  out[4 * g + 2] = ceil(x);
  out[4 * g + 3] = (double4)(trunc(x.x), round(x.y), rint(x.z), -x.s1);
}

/* the rounding functions on one value each: floor, ceil, trunc, round, rint */
__kernel void rounding(__global const double *a, __global double *out) {
  int g = get_global_id(0);
  double x = a[g];
  out[5 * g] = floor(x);
  out[5 * g + 1] = ceil(x);
  out[5 * g + 2] = trunc(x);
  out[5 * g + 3] = round(x);
  out[5 * g + 4] = rint(x);
}

/* the double dot product of each work-item's stride, and a tree reduction
 * of the partial sums in __local memory */
__kernel void dot(__global const double *x, __global const double *y, __global double *partial,
                  int n, __local double *tmp) {
  int lid = get_local_id(0), ls = get_local_size(0);
  double acc = 0.0;
  for (int j = get_global_id(0); j < n; j += get_global_size(0)) acc = fma(x[j], y[j], acc);
  tmp[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = ls / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = tmp[0];
}

__kernel void print(__global const double *a) {
  int g = get_global_id(0);
  float f = (float)a[g];
  printf("%d: %f %.3e %g|%.2f %v2lf\n", g, a[g], a[g], a[g] * 2.0, f, (double2)(a[g], -a[g]));
}

/* double math built-ins (libclc), within the ULP limits of OpenCL 1.2 7.4 */
__kernel void math(__global const double *a, __global double *out) {
  int g = get_global_id(0);
  double x = a[g], p = fabs(x) + 0x1p-10;
  __global double *o = out + 16 * g;
  o[0] = sin(x);
  o[1] = cos(x);
  o[2] = tan(x);
  o[3] = exp(x);
  o[4] = log(p);
  o[5] = pow(p, x);
  o[6] = atan2(x, p);
  o[7] = cbrt(x);
  o[8] = hypot(x, p);
  o[9] = erf(x);
  o[10] = fmod(x, p * 0.375);
  o[11] = ldexp(x, g - 32);
  o[12] = exp2(x);
  o[13] = log2(p);
  o[14] = tanh(x);
  o[15] = asin(x / (p + 1.0));
}

/* register pressure: double16 values take 32 registers each */
__kernel void wide16(__global const double16 *a, __global double16 *out) {
  int g = get_global_id(0);
  double16 x = a[g], y = a[g + 1];
  double16 p = x * y;
  double16 q = p / (y + 3.0);
  out[g] = q - x.sfedcba9876543210;
}

/* a private array of doubles indexed per work-item */
__kernel void private_array(__global const double *a, __global double *out, int k) {
  double p[8];
  int g = get_global_id(0);
  for (int i = 0; i < 8; i++) p[i] = a[g + i] * (double)(i + 1);
  out[g] = p[(g + k) & 7];
}

/* a struct argument holding a double and a long */
typedef struct { double x; long y; int z; } dls;
__kernel void by_value(__global double *out, dls s) {
  double m = s.x * (double)s.y;
  out[get_global_id(0)] = m + (double)(s.z + (int)get_global_id(0));
}

/* program-scope __constant tables of doubles and longs (.rodata) */
__constant double dtab[5] = {0.1, -2.5, 1e300, 0x1p-1074, -0.0};
__constant long ltab[3] = {-1L, 0x123456789abcdef0L, (long)0x8000000000000000UL};
__kernel void tables(__global double *out, __global long *lout) {
  int g = get_global_id(0);
  out[g] = dtab[g % 5] * 2.0;
  lout[g] = ltab[g % 3] + g;
}

/* double3 through vload3/vstore3 (3 elements in memory), swizzles */
__kernel void vec3(__global const double *a, __global double *out) {
  int g = get_global_id(0);
  double3 x = vload3(g, a), y = vload3(g + 1, a);
  double3 p = x * y;
  vstore3(p - x.zxy, g, out);
}

/* the convert_ built-ins with saturation and rounding modes (libclc; NaN
 * gives 0, cc_link.c) */
__kernel void convert_modes(__global const double *a, __global int *i, __global long *l,
                            __global float *f) {
  int g = get_global_id(0);
  double x = a[g];
  i[6 * g] = convert_int_sat(x);
  i[6 * g + 1] = convert_int_sat_rte(x);
  i[6 * g + 2] = (int)convert_uint_sat(x);
  i[6 * g + 3] = convert_int_sat((float)x);
  vstore2(convert_int2_sat((double2)(x, -x)), 3 * g + 2, i);
  l[2 * g] = convert_long_sat(x);
  l[2 * g + 1] = convert_long_sat_rtn(x);
  f[3 * g] = convert_float_rtz(x);
  f[3 * g + 1] = convert_float_rtp(x);
  f[3 * g + 2] = convert_float_rtn(x);
}
