/* Device printf: one line per work-item that calls it. */
__kernel void hello(__global const int *in, float f) {
  int g = get_global_id(0);
  if (in[g] & 1) printf("item %d: in=%d f=%.2f %s%c\n", g, in[g], f * g, "odd", '!');
}

__kernel void hello_vec(__global const float4 *v) {
  int g = get_global_id(0);
  printf("%d %v4hlf %x\n", g, v[g], 0xabcdu);
}
