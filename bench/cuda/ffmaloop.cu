// ffmaloop: a compute-bound kernel for the GPU-scale speed benchmark. Every thread runs `iters`
// dependent fused multiply-adds on a register and stores the result once, so the work is almost
// entirely ALU instructions and the memory system sees one store per thread. bench/run-bench runs
// it with one CTA of 256 threads per SM at 1, 15 and 80 SMs: the work per SM is fixed, so the cost
// per warp instruction shows what the machine's size adds per cycle.
// With a = 0.5 the product is exact, so fma(x, a, b) equals the rounded x * a + b and the CPU check
// needs no fused multiply-add.
extern "C" __global__ void ffmaloop(float *__restrict__ out, float a, float b, unsigned iters)
{
    float x = threadIdx.x * 0.001f;
    for (unsigned i = 0; i < iters; i++)
        x = fmaf(x, a, b);
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
