// nw: Needleman-Wunsch global alignment scores, in the spirit of Rodinia's nw. The (n+1) x (n+1)
// score matrix is cut into 32 x 32 tiles; the host launches one grid per anti-diagonal of tiles.
// A block (32 threads) loads its tile's north row, west column and substitution scores into shared
// memory and sweeps the tile's 63 inner anti-diagonals as a wavefront, one barrier per step
// (threads off the current diagonal idle: divergent). Large shared footprint per small block:
// occupancy is limited by the scratchpad.
#define T 32

__device__ __forceinline__ int max3(int a, int b, int c)
{
    return max(a, max(b, c));
}

extern "C" __global__ void nw_tile(int *__restrict__ score, const int *__restrict__ ref, int n, int diag,
                                   int first_tile_row, int penalty)
{
    __shared__ int sc[T + 1][T + 1];
    __shared__ int rf[T][T];
    int t = threadIdx.x;
    int ti = first_tile_row + blockIdx.x;
    int tj = diag - ti;
    size_t ld = (size_t)n + 1;
    size_t r0 = (size_t)ti * T, c0 = (size_t)tj * T;
    sc[0][t + 1] = score[r0 * ld + c0 + t + 1];
    sc[t + 1][0] = score[(r0 + t + 1) * ld + c0];
    if (t == 0)
        sc[0][0] = score[r0 * ld + c0];
    for (int r = 0; r < T; r++)
        rf[r][t] = ref[(r0 + r) * n + c0 + t];
    __syncthreads();
    for (int m = 0; m < 2 * T - 1; m++) {
        int j = m - t;
        if (j >= 0 && j < T)
            sc[t + 1][j + 1] = max3(sc[t][j] + rf[t][j], sc[t][j + 1] - penalty, sc[t + 1][j] - penalty);
        __syncthreads();
    }
    for (int r = 0; r < T; r++)
        score[(r0 + r + 1) * ld + c0 + t + 1] = sc[r + 1][t + 1];
}
