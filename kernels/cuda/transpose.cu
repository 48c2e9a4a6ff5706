// transpose: out = in^T for a w x h float matrix (w, h multiples of 32). transpose_naive writes
// with a stride of h (uncoalesced stores); transpose_shared goes through a 32 x 33 shared tile
// (padded against bank conflicts) so both the loads and the stores are coalesced. Blocks are
// 32 x 8 threads, each moving four elements.
#define TD 32
#define ROWS 8

extern "C" __global__ void transpose_naive(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    int x = blockIdx.x * TD + threadIdx.x;
    int y = blockIdx.y * TD + threadIdx.y;
    for (int k = 0; k < TD; k += ROWS)
        out[(size_t)x * h + y + k] = in[(size_t)(y + k) * w + x];
}

extern "C" __global__ void transpose_shared(const float *__restrict__ in, float *__restrict__ out, int w, int h)
{
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x;
    int y = blockIdx.y * TD + threadIdx.y;
    for (int k = 0; k < TD; k += ROWS)
        tile[threadIdx.y + k][threadIdx.x] = in[(size_t)(y + k) * w + x];
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x;
    y = blockIdx.x * TD + threadIdx.y;
    for (int k = 0; k < TD; k += ROWS)
        out[(size_t)(y + k) * h + x] = tile[threadIdx.x][threadIdx.y + k];
}
