/* Kernels of test_cc_kernels.c: arithmetic, ids, divergence and loops. */
__kernel void vecadd(__global const float *a, __global const float *b, __global float *c) {
  int i = get_global_id(0);
  c[i] = a[i] + b[i];
}

__kernel void saxpy(__global const float *x, __global float *y, float a, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

/* every id built-in of every work-item, 3-D */
__kernel void ids(__global uint *out) {
  size_t lin = get_global_id(0) - get_global_offset(0) +
               get_global_size(0) * (get_global_id(1) - get_global_offset(1) +
                                     get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  __global uint *r = out + 10 * lin;
  for (uint d = 0; d < 3; d++) {
    r[d] = get_global_id(d);
    r[3 + d] = get_local_id(d);
    r[6 + d] = get_group_id(d);
  }
  r[9] = get_work_dim() * 1000 + get_num_groups(0) * 100 + get_local_size(1) * 10 + get_global_size(2);
}

/* nested divergent ifs, else-ifs and a switch */
__kernel void branches(__global const int *in, __global int *out) {
  int i = get_global_id(0), x = in[i], y;
  if (x < 0) {
    if (x < -50) y = x * 3;
    else y = -x;
  } else if (x < 10) {
    y = x + 100;
  } else {
    switch (x & 3) {
    case 0: y = x / 3; break;
    case 1: y = x % 7; break;
    case 2: y = x << 2; break;
    default: y = ~x;
    }
  }
  if (i & 1) y += 1;
  out[i] = y;
}

/* loops whose trip counts differ between lanes, with break and continue */
__kernel void loops(__global const int *in, __global int *out) {
  int i = get_global_id(0), n = in[i], s = 0, k = 0;
  while (n > 1) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    s += n;
    k++;
    if (s > 100000) break;
  }
  int t = 0;
  for (int j = 0; j < (in[i] & 15); j++) {
    if (j % 3 == 1) continue;
    t += j * j;
  }
  out[i] = s * 1000 + k + t * 7;
}

/* integer operations on signed/unsigned 8-, 16- and 32-bit values */
__kernel void intops(__global const int *a, __global const int *b, __global int *out) {
  int i = get_global_id(0), x = a[i], y = b[i];
  uint ux = x, uy = y;
  char cx = x;
  uchar ucx = x;
  short sx = x;
  ushort usx = x;
  int r = 0;
  r += y ? x / y : 1;
  r ^= y ? x % y : 2;
  r += uy ? (int)(ux / uy) : 3;
  r ^= uy ? (int)(ux % uy) : 4;
  r += x >> (y & 31);
  r ^= (int)(ux >> (uy & 31));
  r += x << (y & 7);
  r ^= (x < y) + 2 * (ux < uy) + 4 * (x == y) + 8 * (x >= y);
  r += cx * 3 + ucx + sx / 7 + usx % 11;
  r ^= (char)(cx + ucx) < 0 ? 1234 : 4321;
  r += min(x, y) + max(ux, uy) + abs(x) + (int)clz(ux) + (int)popcount(uy);
  r ^= mul_hi(x, y) + (int)mul_hi(ux, uy) + rotate(x, y);
  out[i] = r;
}

/* per-lane private arrays indexed with varying indices */
__kernel void private_array(__global const int *in, __global int *out) {
  int g = get_global_id(0);
  int a[12];
  for (int i = 0; i < 12; i++) a[i] = in[(g + i) % 64] * (i + 1);
  int s = 0;
  for (int i = 0; i < 12; i++) s += a[(i * 5 + g) % 12] ^ i;
  out[g] = s;
}

/* float compares, selects, conversions */
__kernel void floats(__global const float *a, __global const float *b, __global float *out,
                     __global int *iout) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  float r = x > y ? x - y : y * 0.5f;
  r += (x == y) ? 1.0f : 0.0f;
  r += isnan(x) ? 100.0f : 0.0f;
  r += fmin(x, y) + fmax(x, y) + copysign(2.0f, y) + fabs(x);
  r += (float)(int)x + (float)(uint)fabs(y) + (float)i;
  out[i] = r / (y != 0.0f ? y : 1.0f);
  iout[i] = (int)(x * 100.0f) + (x < y) * 1000000 + (x != x) * 2000000;
}

/* more private memory per work-item than the runtime's default 4 KiB: the
 * .ventus.resource section asks for it */
__kernel void big_private(__global const int *in, __global int *out) {
  int g = get_global_id(0);
  int a[1500];
  for (int i = 0; i < 1500; i++) a[i] = in[g] + i;
  int s = 0;
  for (int i = g % 7; i < 1500; i += 7) s += a[i];
  out[g] = s;
}
