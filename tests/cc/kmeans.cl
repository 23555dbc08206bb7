/* k-means assignment (Rodinia kmeans_kernel_c shape): each point finds its
 * nearest centre; loops over clusters and features with a running
 * minimum, centres in __constant memory. */
__kernel void kmeans_assign(__global const float *feature, __constant float *clusters,
                            __global int *membership, int npoints, int nclusters, int nfeatures) {
  int point_id = get_global_id(0);
  if (point_id >= npoints) return;
  int index = 0;
  float min_dist = FLT_MAX;
  for (int i = 0; i < nclusters; i++) {
    float dist = 0;
    for (int l = 0; l < nfeatures; l++) {
      float d = feature[l * npoints + point_id] - clusters[i * nfeatures + l];
      dist += d * d;
    }
    if (dist < min_dist) {
      min_dist = dist;
      index = i;
    }
  }
  membership[point_id] = index;
}
