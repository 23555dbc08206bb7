/* OpenCL C vector types: float4 arithmetic, swizzles, vload/vstore,
 * __constant tables, conversions and a by-value vector argument. */
__constant float weights[8] = {0.5f, -1.0f, 2.0f, 0.25f, 3.0f, -0.5f, 1.5f, 4.0f};
__constant int lut[5] = {7, 11, 13, 17, 19};

__kernel void vec4(__global const float4 *a, __global const float *b, __global float4 *out,
                   float4 k) {
  int g = get_global_id(0);
  float4 x = a[g];
  float4 y = vload4(g, b);
  float4 r = x * y + k;
  r.xy = r.yx;
  r.w += dot(x, (float4)(1.0f, 2.0f, 3.0f, 4.0f));
  r.z = weights[g & 7] * r.z + lut[g % 5];
  out[g] = r;
  vstore4(x.wzyx, 0, (__global float *)&out[g + get_global_size(0)]);
}

__kernel void vecint(__global const int4 *a, __global int *out) {
  int g = get_global_id(0);
  int4 v = a[g];
  int4 w = v * (int4)(1, 2, 3, 4) - v.wzyx;
  uchar4 c = convert_uchar4(v & 255);
  float2 f = convert_float2(v.lo);
  out[g] = w.x + w.y * 10 + w.z * 100 + w.w * 1000 + c.y + (int)(f.x * f.y) + (v.x > v.y);
}
