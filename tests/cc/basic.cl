/* Kernels of test_cc_kernels.c: arithmetic, ids, divergence and loops. */
__kernel void vecadd(__global const float *a, __global const float *b, __global float *c) {
  int i = get_global_id(0);
  c[i] = a[i] + b[i];
}

__kernel void saxpy(__global const float *x, __global float *y, float a, int n) {
  int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}

/* every id built-in of every work-item, 3-D */
__kernel void ids(__global uint *out) {
  size_t lin = get_global_id(0) - get_global_offset(0) +
               get_global_size(0) * (get_global_id(1) - get_global_offset(1) +
                                     get_global_size(1) * (get_global_id(2) - get_global_offset(2)));
  __global uint *r = out + 10 * lin;
  for (uint d = 0; d < 3; d++) {
    r[d] = get_global_id(d);
    r[3 + d] = get_local_id(d);
    r[6 + d] = get_group_id(d);
  }
  r[9] = get_work_dim() * 1000 + get_num_groups(0) * 100 + get_local_size(1) * 10 + get_global_size(2);
}

/* nested divergent ifs, else-ifs and a switch */
__kernel void branches(__global const int *in, __global int *out) {
  int i = get_global_id(0), x = in[i], y;
  if (x < 0) {
    if (x < -50) y = x * 3;
    else y = -x;
  } else if (x < 10) {
    y = x + 100;
  } else {
    switch (x & 3) {
    case 0: y = x / 3; break;
    case 1: y = x % 7; break;
    case 2: y = x << 2; break;
    default: y = ~x;
    }
  }
  if (i & 1) y += 1;
  out[i] = y;
}

/* loops whose trip counts differ between lanes, with break and continue */
__kernel void loops(__global const int *in, __global int *out) {
  int i = get_global_id(0), n = in[i], s = 0, k = 0;
  while (n > 1) {
    n = (n & 1) ? 3 * n + 1 : n / 2;
    s += n;
    k++;
    if (s > 100000) break;
  }
  int t = 0;
  for (int j = 0; j < (in[i] & 15); j++) {
    if (j % 3 == 1) continue;
    t += j * j;
  }
  out[i] = s * 1000 + k + t * 7;
}

/* integer operations on signed/unsigned 8-, 16- and 32-bit values */
__kernel void intops(__global const int *a, __global const int *b, __global int *out) {
  int i = get_global_id(0), x = a[i], y = b[i];
  uint ux = x, uy = y;
  char cx = x;
  uchar ucx = x;
  short sx = x;
  ushort usx = x;
  int r = 0;
  r += y ? x / y : 1;
  r ^= y ? x % y : 2;
  r += uy ? (int)(ux / uy) : 3;
  r ^= uy ? (int)(ux % uy) : 4;
  r += x >> (y & 31);
  r ^= (int)(ux >> (uy & 31));
  r += x << (y & 7);
  r ^= (x < y) + 2 * (ux < uy) + 4 * (x == y) + 8 * (x >= y);
  r += cx * 3 + ucx + sx / 7 + usx % 11;
  r ^= (char)(cx + ucx) < 0 ? 1234 : 4321;
  r += min(x, y) + max(ux, uy) + abs(x) + (int)clz(ux) + (int)popcount(uy);
  r ^= mul_hi(x, y) + (int)mul_hi(ux, uy) + rotate(x, y);
  out[i] = r;
}

/* per-lane private arrays indexed with varying indices */
__kernel void private_array(__global const int *in, __global int *out) {
  int g = get_global_id(0);
  int a[12];
  for (int i = 0; i < 12; i++) a[i] = in[(g + i) % 64] * (i + 1);
  int s = 0;
  for (int i = 0; i < 12; i++) s += a[(i * 5 + g) % 12] ^ i;
  out[g] = s;
}

/* float compares, selects, conversions */
__kernel void floats(__global const float *a, __global const float *b, __global float *out,
                     __global int *iout) {
  int i = get_global_id(0);
  float x = a[i], y = b[i];
  float r = x > y ? x - y : y * 0.5f;
  r += (x == y) ? 1.0f : 0.0f;
  r += isnan(x) ? 100.0f : 0.0f;
  r += fmin(x, y) + fmax(x, y) + copysign(2.0f, y) + fabs(x);
  r += (float)(int)x + (float)(uint)fabs(y) + (float)i;
  out[i] = r / (y != 0.0f ? y : 1.0f);
  iout[i] = (int)(x * 100.0f) + (x < y) * 1000000 + (x != x) * 2000000;
}

/* more private memory per work-item than the runtime's default 4 KiB: the
 * .ventus.resource section asks for it */
__kernel void big_private(__global const int *in, __global int *out) {
  int g = get_global_id(0);
  int a[1500];
  for (int i = 0; i < 1500; i++) a[i] = in[g] + i;
  int s = 0;
  for (int i = g % 7; i < 1500; i += 7) s += a[i];
  out[g] = s;
}

/* more live values than registers: 72 varying and 40 uniform values live
 * at once, so both vector and scalar registers spill (written out: no
 * loops for LLVM to reorder) */
__kernel void pressure(__global const float *in, __constant int *k, __global float *out) {
  int g = get_global_id(0);
  float v0 = in[g * 72 + 0]; float v1 = in[g * 72 + 1]; float v2 = in[g * 72 + 2]; float v3 = in[g * 72 + 3]; float v4 = in[g * 72 + 4]; float v5 = in[g * 72 + 5];
  float v6 = in[g * 72 + 6]; float v7 = in[g * 72 + 7]; float v8 = in[g * 72 + 8]; float v9 = in[g * 72 + 9]; float v10 = in[g * 72 + 10]; float v11 = in[g * 72 + 11];
  float v12 = in[g * 72 + 12]; float v13 = in[g * 72 + 13]; float v14 = in[g * 72 + 14]; float v15 = in[g * 72 + 15]; float v16 = in[g * 72 + 16]; float v17 = in[g * 72 + 17];
  float v18 = in[g * 72 + 18]; float v19 = in[g * 72 + 19]; float v20 = in[g * 72 + 20]; float v21 = in[g * 72 + 21]; float v22 = in[g * 72 + 22]; float v23 = in[g * 72 + 23];
  float v24 = in[g * 72 + 24]; float v25 = in[g * 72 + 25]; float v26 = in[g * 72 + 26]; float v27 = in[g * 72 + 27]; float v28 = in[g * 72 + 28]; float v29 = in[g * 72 + 29];
  float v30 = in[g * 72 + 30]; float v31 = in[g * 72 + 31]; float v32 = in[g * 72 + 32]; float v33 = in[g * 72 + 33]; float v34 = in[g * 72 + 34]; float v35 = in[g * 72 + 35];
  float v36 = in[g * 72 + 36]; float v37 = in[g * 72 + 37]; float v38 = in[g * 72 + 38]; float v39 = in[g * 72 + 39]; float v40 = in[g * 72 + 40]; float v41 = in[g * 72 + 41];
  float v42 = in[g * 72 + 42]; float v43 = in[g * 72 + 43]; float v44 = in[g * 72 + 44]; float v45 = in[g * 72 + 45]; float v46 = in[g * 72 + 46]; float v47 = in[g * 72 + 47];
  float v48 = in[g * 72 + 48]; float v49 = in[g * 72 + 49]; float v50 = in[g * 72 + 50]; float v51 = in[g * 72 + 51]; float v52 = in[g * 72 + 52]; float v53 = in[g * 72 + 53];
  float v54 = in[g * 72 + 54]; float v55 = in[g * 72 + 55]; float v56 = in[g * 72 + 56]; float v57 = in[g * 72 + 57]; float v58 = in[g * 72 + 58]; float v59 = in[g * 72 + 59];
  float v60 = in[g * 72 + 60]; float v61 = in[g * 72 + 61]; float v62 = in[g * 72 + 62]; float v63 = in[g * 72 + 63]; float v64 = in[g * 72 + 64]; float v65 = in[g * 72 + 65];
  float v66 = in[g * 72 + 66]; float v67 = in[g * 72 + 67]; float v68 = in[g * 72 + 68]; float v69 = in[g * 72 + 69]; float v70 = in[g * 72 + 70]; float v71 = in[g * 72 + 71];
  int u0 = k[0] * 3; int u1 = k[1] * 4; int u2 = k[2] * 5; int u3 = k[3] * 6; int u4 = k[4] * 7;
  int u5 = k[5] * 8; int u6 = k[6] * 9; int u7 = k[7] * 10; int u8 = k[8] * 11; int u9 = k[9] * 12;
  int u10 = k[10] * 13; int u11 = k[11] * 14; int u12 = k[12] * 15; int u13 = k[13] * 16; int u14 = k[14] * 17;
  int u15 = k[15] * 18; int u16 = k[16] * 19; int u17 = k[17] * 20; int u18 = k[18] * 21; int u19 = k[19] * 22;
  int u20 = k[20] * 23; int u21 = k[21] * 24; int u22 = k[22] * 25; int u23 = k[23] * 26; int u24 = k[24] * 27;
  int u25 = k[25] * 28; int u26 = k[26] * 29; int u27 = k[27] * 30; int u28 = k[28] * 31; int u29 = k[29] * 32;
  int u30 = k[30] * 33; int u31 = k[31] * 34; int u32 = k[32] * 35; int u33 = k[33] * 36; int u34 = k[34] * 37;
  int u35 = k[35] * 38; int u36 = k[36] * 39; int u37 = k[37] * 40; int u38 = k[38] * 41; int u39 = k[39] * 42;
  float s = 0.0f;
  int t = 0;
  s = s * 0.5f + v71 * 72.0f; s = s * 0.5f + v70 * 71.0f; s = s * 0.5f + v69 * 70.0f;
  s = s * 0.5f + v68 * 69.0f; s = s * 0.5f + v67 * 68.0f; s = s * 0.5f + v66 * 67.0f;
  s = s * 0.5f + v65 * 66.0f; s = s * 0.5f + v64 * 65.0f; s = s * 0.5f + v63 * 64.0f;
  s = s * 0.5f + v62 * 63.0f; s = s * 0.5f + v61 * 62.0f; s = s * 0.5f + v60 * 61.0f;
  s = s * 0.5f + v59 * 60.0f; s = s * 0.5f + v58 * 59.0f; s = s * 0.5f + v57 * 58.0f;
  s = s * 0.5f + v56 * 57.0f; s = s * 0.5f + v55 * 56.0f; s = s * 0.5f + v54 * 55.0f;
  s = s * 0.5f + v53 * 54.0f; s = s * 0.5f + v52 * 53.0f; s = s * 0.5f + v51 * 52.0f;
  s = s * 0.5f + v50 * 51.0f; s = s * 0.5f + v49 * 50.0f; s = s * 0.5f + v48 * 49.0f;
  s = s * 0.5f + v47 * 48.0f; s = s * 0.5f + v46 * 47.0f; s = s * 0.5f + v45 * 46.0f;
  s = s * 0.5f + v44 * 45.0f; s = s * 0.5f + v43 * 44.0f; s = s * 0.5f + v42 * 43.0f;
  s = s * 0.5f + v41 * 42.0f; s = s * 0.5f + v40 * 41.0f; s = s * 0.5f + v39 * 40.0f;
  s = s * 0.5f + v38 * 39.0f; s = s * 0.5f + v37 * 38.0f; s = s * 0.5f + v36 * 37.0f;
  s = s * 0.5f + v35 * 36.0f; s = s * 0.5f + v34 * 35.0f; s = s * 0.5f + v33 * 34.0f;
  s = s * 0.5f + v32 * 33.0f; s = s * 0.5f + v31 * 32.0f; s = s * 0.5f + v30 * 31.0f;
  s = s * 0.5f + v29 * 30.0f; s = s * 0.5f + v28 * 29.0f; s = s * 0.5f + v27 * 28.0f;
  s = s * 0.5f + v26 * 27.0f; s = s * 0.5f + v25 * 26.0f; s = s * 0.5f + v24 * 25.0f;
  s = s * 0.5f + v23 * 24.0f; s = s * 0.5f + v22 * 23.0f; s = s * 0.5f + v21 * 22.0f;
  s = s * 0.5f + v20 * 21.0f; s = s * 0.5f + v19 * 20.0f; s = s * 0.5f + v18 * 19.0f;
  s = s * 0.5f + v17 * 18.0f; s = s * 0.5f + v16 * 17.0f; s = s * 0.5f + v15 * 16.0f;
  s = s * 0.5f + v14 * 15.0f; s = s * 0.5f + v13 * 14.0f; s = s * 0.5f + v12 * 13.0f;
  s = s * 0.5f + v11 * 12.0f; s = s * 0.5f + v10 * 11.0f; s = s * 0.5f + v9 * 10.0f;
  s = s * 0.5f + v8 * 9.0f; s = s * 0.5f + v7 * 8.0f; s = s * 0.5f + v6 * 7.0f;
  s = s * 0.5f + v5 * 6.0f; s = s * 0.5f + v4 * 5.0f; s = s * 0.5f + v3 * 4.0f;
  s = s * 0.5f + v2 * 3.0f; s = s * 0.5f + v1 * 2.0f; s = s * 0.5f + v0 * 1.0f;
  t = t * 3 + u39; t = t * 3 + u38; t = t * 3 + u37; t = t * 3 + u36;
  t = t * 3 + u35; t = t * 3 + u34; t = t * 3 + u33; t = t * 3 + u32;
  t = t * 3 + u31; t = t * 3 + u30; t = t * 3 + u29; t = t * 3 + u28;
  t = t * 3 + u27; t = t * 3 + u26; t = t * 3 + u25; t = t * 3 + u24;
  t = t * 3 + u23; t = t * 3 + u22; t = t * 3 + u21; t = t * 3 + u20;
  t = t * 3 + u19; t = t * 3 + u18; t = t * 3 + u17; t = t * 3 + u16;
  t = t * 3 + u15; t = t * 3 + u14; t = t * 3 + u13; t = t * 3 + u12;
  t = t * 3 + u11; t = t * 3 + u10; t = t * 3 + u9; t = t * 3 + u8;
  t = t * 3 + u7; t = t * 3 + u6; t = t * 3 + u5; t = t * 3 + u4;
  t = t * 3 + u3; t = t * 3 + u2; t = t * 3 + u1; t = t * 3 + u0;
  out[g] = s + (float)t;
}

/* a loop whose body is more than 4 KiB of code, with a trip count that
 * differs between lanes: its backward vector branch needs the long form */
__kernel void far_branches(__global const float *in, __global float *out) {
  int g = get_global_id(0);
  float x = in[g], r = x;
  for (int i = 0; i < (int)x; i++)
    r = sin(r) + cos(r * 1.5f) + sin(r + 2.0f) + cos(r * 0.5f) + tan(r * 0.1f) + sin(r * 3.0f) +
        cos(r + 1.0f) + sin(r * 0.25f) + (float)i;
  out[g] = r;
}

/* uniform loops inside divergent code, a divergent loop with a break, an
 * early return, nested loops with continue */
__kernel void simt(__global const int *in, __global int *out) {
  int g = get_global_id(0), x = in[g], r = 0;
  if (x & 1) {
    for (int i = 0; i < 5; i++) r += i * x;
    int j = 0;
    while (j < x) {
      j += 3;
      if (j == 9) break;
    }
    r += j;
  }
  if (x > 40) {
    out[g] = -1;
    return;
  }
  for (int a = 0; a < (x & 7); a++)
    for (int b = 0; b < 4; b++) {
      if ((a + b + x) % 5 == 0) continue;
      r += a * b;
    }
  out[g] = r;
}

/* a struct and a vector passed by value (the argument buffer's alignment
 * rules: formats-and-launch.md 4) */
typedef struct {
  int a;
  float b;
  char c;
} S;
__kernel void byvalue(int n, S s, __global int *out, float4 v) {
  int g = get_global_id(0);
  out[g] = n + s.a * g + (int)(s.b * 10.0f) + s.c + (int)v.w;
}
