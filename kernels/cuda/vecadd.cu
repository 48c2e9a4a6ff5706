// vecadd: c[i] = a[i] + b[i]. The simplest streaming kernel: convergent, no shared memory,
// one load pair and one store per thread. Small blocks (128 threads) so occupancy is limited by
// the number of resident blocks.
extern "C" __global__ void vecadd(const float *__restrict__ a, const float *__restrict__ b,
                                  float *__restrict__ c, unsigned n)
{
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}
