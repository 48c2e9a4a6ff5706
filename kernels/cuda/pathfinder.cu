// pathfinder: minimum-cost path from the top row of a grid to each cell of the bottom row, moving
// down, down-left or down-right, in the spirit of Rodinia's pathfinder. Each 256-thread block keeps
// one row of costs in shared memory and advances it `iters` rows (a pyramid: the valid part shrinks
// by one column per side and row), with barriers between rows; the host launches once per pyramid.
#define BLOCK 256

extern "C" __global__ void pathfinder_step(const int *__restrict__ wall, const int *__restrict__ src,
                                           int *__restrict__ dst, int cols, int start_row, int iters)
{
    __shared__ int prev[BLOCK];
    __shared__ int res[BLOCK];
    int tx = threadIdx.x;
    int x = blockIdx.x * (BLOCK - 2 * iters) - iters + tx;
    bool inside = x >= 0 && x < cols;
    if (inside)
        prev[tx] = src[x];
    __syncthreads();
    for (int i = 0; i < iters; i++) {
        bool active = inside && tx > i && tx < BLOCK - 1 - i;
        if (active) {
            int m = prev[tx];
            if (x > 0)
                m = min(m, prev[tx - 1]);
            if (x < cols - 1)
                m = min(m, prev[tx + 1]);
            res[tx] = m + wall[(size_t)(start_row + i + 1) * cols + x];
        }
        __syncthreads();
        if (active)
            prev[tx] = res[tx];
        __syncthreads();
    }
    if (inside && tx >= iters && tx < BLOCK - iters)
        dst[x] = prev[tx];
}
