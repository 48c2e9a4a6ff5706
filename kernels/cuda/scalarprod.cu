// scalarprod: dot products of many vector pairs, in the spirit of the CUDA samples' scalarProd.
// A block takes one pair at a time; each thread accumulates a strided slice in double precision
// (float products widened to double), then the block reduces in shared memory (doubles).
#define BLOCK 256

extern "C" __global__ void scalar_prod(const float *__restrict__ a, const float *__restrict__ b,
                                       double *__restrict__ out, int n_vec, int len)
{
    __shared__ double s[BLOCK];
    int tid = threadIdx.x;
    for (int v = blockIdx.x; v < n_vec; v += gridDim.x) {
        size_t base = (size_t)v * len;
        double acc = 0.0;
        for (int i = tid; i < len; i += BLOCK)
            acc += (double)a[base + i] * (double)b[base + i];
        s[tid] = acc;
        __syncthreads();
        for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
            if (tid < stride)
                s[tid] += s[tid + stride];
            __syncthreads();
        }
        if (tid == 0)
            out[v] = s[0];
        __syncthreads();
    }
}
