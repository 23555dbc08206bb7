/* matmul.cl - the kernel of examples/kernels/matmul.s in OpenCL C: tiled
 * C = A * B (row-major; A is M x K, B is K x N) with two __local tiles of
 * TS x TS (TS = the local size), for platforms that compile OpenCL C.
 * Separate multiply and add, as the assembly kernel (vfmul.vv, vfadd.vv),
 * so that results are bit-identical. */
#pragma OPENCL FP_CONTRACT OFF
kernel void matmul(global const float *A, global const float *B, global float *C, int N, int K,
                   local float *As, local float *Bs) {
  int ts = get_local_size(0);
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < K; t += ts) {
    As[ly * ts + lx] = A[row * K + t + lx];
    Bs[ly * ts + lx] = B[(t + ly) * N + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < ts; k++) {
      float prod = As[ly * ts + k] * Bs[k * ts + lx];
      acc = acc + prod;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * N + col] = acc;
}
