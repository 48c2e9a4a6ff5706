// histogram: 256 bins over a byte array. hist_shared privatises the histogram per block in
// shared memory (shared-memory atomics), then merges it into the global histogram with one global
// atomicAdd per bin; hist_global adds every byte straight to the global histogram (heavy global
// atomic contention). Both read four bytes per load.
#define BINS 256

extern "C" __global__ void hist_shared(const unsigned *__restrict__ data, unsigned n_words,
                                       unsigned *hist)
{
    __shared__ unsigned bins[BINS];
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
        bins[b] = 0;
    __syncthreads();
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n_words; i += gridDim.x * blockDim.x) {
        unsigned w = data[i];
        atomicAdd(&bins[w & 0xff], 1u);
        atomicAdd(&bins[(w >> 8) & 0xff], 1u);
        atomicAdd(&bins[(w >> 16) & 0xff], 1u);
        atomicAdd(&bins[w >> 24], 1u);
    }
    __syncthreads();
    for (unsigned b = threadIdx.x; b < BINS; b += blockDim.x)
        if (bins[b])
            atomicAdd(&hist[b], bins[b]);
}

extern "C" __global__ void hist_global(const unsigned *__restrict__ data, unsigned n_words,
                                       unsigned *hist)
{
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n_words; i += gridDim.x * blockDim.x) {
        unsigned w = data[i];
        atomicAdd(&hist[w & 0xff], 1u);
        atomicAdd(&hist[(w >> 8) & 0xff], 1u);
        atomicAdd(&hist[(w >> 16) & 0xff], 1u);
        atomicAdd(&hist[w >> 24], 1u);
    }
}
