// kmeans: the assignment step of k-means. Each thread takes one point (point-major layout, so the
// feature loads of a warp are strided: cache-sensitive), finds its nearest centroid, records the
// membership and the distance, and counts members per cluster with a global atomicAdd.
// sq_dist is deliberately __noinline__ so the PTX has a real call with .param passing.
extern "C" __device__ __noinline__ float sq_dist(const float *p, const float *c, int d)
{
    float s = 0.0f;
    for (int f = 0; f < d; f++) {
        float t = p[f] - c[f];
        s += t * t;
    }
    return s;
}

extern "C" __global__ void kmeans_assign(const float *__restrict__ points, const float *__restrict__ centroids,
                                         int *membership, float *dist, int *counts, int n, int k, int d)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    const float *p = points + (size_t)i * d;
    int best = 0;
    float best_d = sq_dist(p, centroids, d);
    for (int c = 1; c < k; c++) {
        float s = sq_dist(p, centroids + (size_t)c * d, d);
        if (s < best_d) {
            best_d = s;
            best = c;
        }
    }
    membership[i] = best;
    dist[i] = sqrtf(best_d);
    atomicAdd(&counts[best], 1);
}
