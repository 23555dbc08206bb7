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
