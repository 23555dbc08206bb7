/* Sum reduction in __local memory (a __local argument), one result per
 * workgroup; and one with a warp-divergent tail. */
__kernel void reduce(__global const float *in, __global float *out, __local float *s) {
  int l = get_local_id(0), n = get_local_size(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int st = n / 2; st > 0; st >>= 1) {
    if (l < st) s[l] += s[l + st];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = s[0];
}

__kernel void reduce_int(__global const int *in, __global int *out, __local int *s, int n) {
  int l = get_local_id(0), g = get_global_id(0), L = get_local_size(0);
  int acc = 0;
  for (int i = g; i < n; i += get_global_size(0)) acc += in[i];
  s[l] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int st = L / 2; st > 0; st >>= 1) {
    if (l < st) s[l] += s[l + st];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) atomic_add(out, s[0]);
}
