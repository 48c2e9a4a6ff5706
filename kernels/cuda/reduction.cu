// reduction: the sum and the maximum of a float array. Each thread first accumulates a
// grid-stride slice in a register, then the block reduces in shared memory with barriers.
// reduce_sum finishes the last 32 values with warp shuffles and adds the block's sum to the
// result with a float atomicAdd; reduce_max finishes in shared memory and merges the block's
// maximum with an atomicCAS loop (issued by one thread per block, so no intra-warp contention).
// reduce_max takes its shared array from the launch's dynamic shared memory (extern __shared__,
// BLOCK floats), so that path is exercised too.
#define BLOCK 256

extern "C" __global__ void reduce_sum(const float *__restrict__ in, float *out, unsigned n)
{
    __shared__ float s[BLOCK];
    unsigned tid = threadIdx.x;
    float acc = 0.0f;
    for (unsigned i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK)
        acc += in[i];
    s[tid] = acc;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride >= 32; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        float v = s[tid];
        for (int off = 16; off > 0; off >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, off);
        if (tid == 0)
            atomicAdd(out, v);
    }
}

extern "C" __global__ void reduce_max(const float *__restrict__ in, float *out, unsigned n)
{
    extern __shared__ float s[];
    unsigned tid = threadIdx.x;
    float m = -3.402823466e38f;
    for (unsigned i = blockIdx.x * BLOCK + tid; i < n; i += gridDim.x * BLOCK)
        m = fmaxf(m, in[i]);
    s[tid] = m;
    __syncthreads();
    for (unsigned stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] = fmaxf(s[tid], s[tid + stride]);
        __syncthreads();
    }
    if (tid == 0) {
        float v = s[0];
        unsigned *addr = (unsigned *)out;
        unsigned old = *addr, assumed;
        do {
            assumed = old;
            if (__uint_as_float(assumed) >= v)
                break;
            old = atomicCAS(addr, assumed, __float_as_uint(v));
        } while (old != assumed);
    }
}
