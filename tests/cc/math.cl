/* Float math built-ins (libclc and vt's own), one output per function. */
#define NF 24
__kernel void mathfn(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float x = in[g], ax = fabs(x), y = in[(g + 1) % get_global_size(0)];
  __global float *o = out + NF * g;
  o[0] = sqrt(ax);
  o[1] = floor(x);
  o[2] = ceil(x);
  o[3] = trunc(x);
  o[4] = round(x);
  o[5] = rint(x);
  o[6] = fmin(x, y);
  o[7] = fmax(x, y);
  o[8] = fma(x, y, 1.5f);
  o[9] = copysign(ax, y);
  o[10] = fabs(x);
  o[11] = x / (y == 0.0f ? 1.0f : y);
  o[12] = sin(x);
  o[13] = cos(x);
  o[14] = exp(x);
  o[15] = log(ax + 1.0f);
  o[16] = pow(ax + 0.5f, 1.7f);
  o[17] = tan(x * 0.25f);
  o[18] = atan2(x, y);
  o[19] = fmod(x, 1.25f);
  o[20] = exp2(x);
  o[21] = log2(ax + 2.0f);
  o[22] = rsqrt(ax + 1.0f);
  o[23] = tanh(x);
}
