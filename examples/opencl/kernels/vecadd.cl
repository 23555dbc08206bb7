/* vecadd.cl - the kernel of examples/kernels/vecadd.s in OpenCL C. */
kernel void vecadd(global const float *A, global const float *B, global float *C) {
  size_t i = get_global_id(0);
  C[i] = A[i] + B[i];
}
