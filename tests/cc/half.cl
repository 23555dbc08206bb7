/* half (binary16) as a storage format: vload_half/vstore_half in the four
 * rounding modes, from float and from double, vectors, __constant data,
 * varying and uniform values. Checked by tests/unit/test_cc_half.c. */

__kernel void load_half(__global const half *h, __constant half *c, __global float *out) {
  int g = get_global_id(0);
  out[2 * g] = vload_half(g, h);
  out[2 * g + 1] = vload_half(g, c);
}

static void store4(float x, int at, int n, __global half *o) {
  vstore_half(x, at, o);
  vstore_half_rtz(x, at + n, o);
  vstore_half_rtp(x, at + 2 * n, o);
  vstore_half_rtn(x, at + 3 * n, o);
}

static void store4d(double x, int at, int n, __global half *o) {
  vstore_half(x, at, o);
  vstore_half_rtz(x, at + n, o);
  vstore_half_rtp(x, at + 2 * n, o);
  vstore_half_rtn(x, at + 3 * n, o);
}

/* varying: element g; uniform: the group's element */
__kernel void store_half(__global const float *f, __global half *o, int n) {
  store4(f[get_global_id(0)], get_global_id(0), n, o);
}

__kernel void store_half_u(__global const float *f, __global half *o, int n) {
  store4(f[get_group_id(0)], get_group_id(0), n, o);
}

__kernel void store_half_d(__global const double *d, __global half *o, int n) {
  store4d(d[get_global_id(0)], get_global_id(0), n, o);
}

/* vectors: half4 -> float4 -> * 2 -> half4, and vloada_half2 */
__kernel void vec_half(__global const half *h, __global half *o, __global float *f) {
  int g = get_global_id(0);
  float4 v = vload_half4(g, h);
  vstore_half4(v * 2.0f, g, o);
  vstore2(vloada_half2(g, h), g, f);
}
