/* reduce.cl - the kernel of examples/kernels/reduce.s in OpenCL C: the
 * sum (wrapping) of each workgroup's ints into partial[group]; scratch holds
 * 2 * (local size) ints. */
kernel void reduce(global const int *in, global int *partial, local int *scratch) {
  int lid = get_local_id(0), L = get_local_size(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = L / 2; s > 0; s /= 2) {
    int x = scratch[lid], y = scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] = (int)((uint)x + (uint)y);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(0)] = scratch[0];
}
