/* Tiled matrix multiply: __local tiles, barriers, a 2-D NDRange. */
#ifndef TS
#define TS 4
#endif
__kernel void matmul(__global const float *A, __global const float *B, __global float *C, int N) {
  __local float As[TS][TS], Bs[TS][TS];
  int tx = get_local_id(0), ty = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < N / TS; t++) {
    As[ty][tx] = A[row * N + t * TS + tx];
    Bs[ty][tx] = B[(t * TS + ty) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; k++) acc = fma(As[ty][k], Bs[k][tx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}

/* the official matadd (2-D, C[y*w+x] = A + B) */
__kernel void matadd(__global float *A, __global float *B, __global float *C) {
  int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
  C[y * w + x] = A[y * w + x] + B[y * w + x];
}
