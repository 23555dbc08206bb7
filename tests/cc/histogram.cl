/* Histograms with atomics on global and on __local memory. */
__kernel void hist_global(__global const uint *in, __global uint *bins, uint nbins) {
  atomic_inc(&bins[in[get_global_id(0)] % nbins]);
}

__kernel void hist_local(__global const uint *in, __global uint *bins) {
  __local uint h[16];
  int l = get_local_id(0), L = get_local_size(0);
  for (int i = l; i < 16; i += L) h[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&h[in[get_global_id(0)] & 15], 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = l; i < 16; i += L) atomic_add(&bins[i], h[i]);
}

/* every atomic function; each work-item keeps what it got back */
__kernel void atomics(__global int *cell, __global int *got) {
  int g = get_global_id(0);
  got[4 * g + 0] = atomic_add(&cell[0], g);
  got[4 * g + 1] = atomic_sub(&cell[1], 2 * g);
  got[4 * g + 2] = atomic_xchg(&cell[2], g);
  got[4 * g + 3] = atomic_min(&cell[3], 100 - g);
  atomic_max(&cell[4], g * 3);
  atomic_or(&cell[5], 1 << (g & 31));
  atomic_and(&cell[6], ~(1 << (g & 31)));
  atomic_xor(&cell[7], g);
  int old;
  do old = cell[8]; while (atomic_cmpxchg(&cell[8], old, old + g + 1) != old);
  atomic_inc(&cell[9]);
  atomic_dec(&cell[10]);
  atomic_max((__global uint *)&cell[11], (uint)g + 0x80000000u);
}
