// addloop: c[i] = a[i] + b[i] over a grid-stride loop, so the work per CTA is set by n / (CTAs) and
// a single CTA can keep one SM busy for as long as wanted. bench/run-bench uses it for the scaling
// runs (k SMs x 8 CTAs, the same elements per CTA) and for the idle-SM cost (1 CTA on 1 vs 15 SMs).
// No fused multiply-add, so the CPU check (float32 sums) is exact.
extern "C" __global__ void addloop(const float *__restrict__ a, const float *__restrict__ b,
                                   float *__restrict__ c, unsigned n)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        c[i] = a[i] + b[i];
}
