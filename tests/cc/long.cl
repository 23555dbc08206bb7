/* 64-bit integers (long/ulong): register pairs built from RV32 instructions. */
__kernel void longs(__global const long *a, __global const long *b, __global long *out) {
  int g = get_global_id(0);
  long x = a[g], y = b[g];
  ulong ux = x, uy = y;
  long r = x + y;
  r ^= x - y;
  r += x * y;
  r ^= (x << 5) + (x >> 3) + (long)(ux >> 17);
  r += (x < y) + 2 * (ux < uy) + 4 * (x == y);
  r ^= (long)(int)x * (long)(uint)y;
  r += (x << (y & 63)) ^ (x >> (y & 63)) ^ (long)(ux >> ((y >> 7) & 63));
  out[g] = r;
}

/* one operation per output, checked against host 64-bit arithmetic with
 * edge values by tests/unit/test_cc_long.c; division by 0 and
 * INT64_MIN / -1 give the RV64M results (isa2025.md 3.2.3) */
static void long_ops(long x, long y, int n, __global long *o) {
  ulong ux = x, uy = y;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x / y;
  o[4] = x % y;
  o[5] = (long)(ux / uy);
  o[6] = (long)(ux % uy);
  o[7] = x << (n & 63);
  o[8] = x >> (n & 63);
  o[9] = (long)(ux >> (n & 63));
  o[10] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
          (ux < uy) << 6 | (ux <= uy) << 7 | (ux > uy) << 8 | (ux >= uy) << 9;
  o[11] = (long)(int)x;
  o[12] = (long)(uint)x;
  o[13] = (long)(short)y + (long)(uchar)y;
  o[14] = x / 7;
  o[15] = x % -3;
  o[16] = (long)(ux / 10);
  o[17] = x << 63;
  o[18] = x >> 63;
  o[19] = (long)(ux >> 63) + (x >> 32) + (long)(ux << 32);
  o[20] = -x;
  o[21] = ~x & y;
  o[22] = (x | y) ^ 0x123456789abcdefL;
  o[23] = x < y ? x : y;
  o[24] = abs(x);
  o[25] = max(x, y);
  o[26] = min(ux, uy);
  o[27] = clz(x);
  o[28] = popcount(y);
  o[29] = mul_hi(x, y);
  o[30] = rotate(x, (long)n);
  o[31] = (long)rotate(ux, (ulong)(64 - n));
  o[32] = mad_hi(x, y, (long)n);
  o[33] = hadd(x, y);
  o[34] = (long)upsample((uint)n, (uint)x);
  o[35] = (long)rhadd(ux, uy);
}

/* varying: each work-item its pair */
__kernel void long_ops_v(__global const long *a, __global const long *b, __global const int *n,
                         __global long *out) {
  int g = get_global_id(0);
  long_ops(a[g], b[g], n[g], out + 36 * g);
}

/* uniform: the group's pair, in scalar registers */
__kernel void long_ops_u(__global const long *a, __global const long *b, __global const int *n,
                         __global long *out) {
  int g = get_group_id(0);
  long_ops(a[g], b[g], n[g], out + 36 * g);
}

/* printf of 64-bit integers */
__kernel void long_print(__global const long *a) {
  int g = get_global_id(0);
  printf("%d %ld %lu %lx|\n", g, a[g], (ulong)a[g], a[g]);
}

/* long16: 32 registers per value */
__kernel void long16_ops(__global const long16 *a, __global long16 *out) {
  int g = get_global_id(0);
  long16 x = a[g], y = a[g + 1] | 1;
  out[g] = (x * y) / y + (x >> 3) - x.sfedcba9876543210 % 7;
}
