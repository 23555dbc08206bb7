/* Kernels that vt cc must refuse with a message naming the line. ERR
 * selects one (-DERR=n). */
#if ERR == 1
__kernel void k(__global int *a) {
  a[0] = undeclared_name;
}
#elif ERR == 2
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__kernel void k(__global int *a) {
  a[0] = fib(a[1]);
}
#elif ERR == 3
__kernel void k(__global float4 *a, read_only image2d_t im, sampler_t s) {
  a[0] = read_imagef(im, s, (int2)(0, 0));
}
#elif ERR == 4
__kernel void k(__global half *a) {
  a[0] = a[1] * 2;
}
#elif ERR == 5
__kernel void k(__global int *a) {
  int (*f)(int) = 0;
  a[0] = f(1);
}
#elif ERR == 6
__kernel void k(__global long *a) {
  atom_add(a, 2L);
}
#elif ERR == 7
__kernel void k(__global double *a, int c) {
  printf(c ? "%f\n" : "%e\n", a[0]);
}
#else
__kernel void k(__global int *a) {
  a[get_global_id(0)] = VALUE + INCLUDED;
}
#endif
