// spu_stencil.cu — the SPU's 3-D stencil (SPU spec §11, docs/spu.md): H[i,j,k] = Mean(H[i-1,j,k],
// H[i,j-1,k], H[i,j,k-1]) over an N x N x K space, boundaries A (k = -1), B (j = -1), C (i = -1),
// tiled in b x b x b tiles; CTA (i, j) computes the tiles (i, j, 0..K/b-1). Each thread of the
// (b/4) x (b/4) CTA owns a 4 x 4 column of the tile's face; inside a tile the threads sweep a
// wavefront over (thread x + thread y + plane), one __syncthreads per step; the previous plane and
// the previous tile's last plane stay in shared memory (k-reuse).
//
// Two kernels, the same tile code:
//  - spu_stencil_global: Algorithm 1 for the SPU (global bar.blocksync every time step, the west and
//    north faces read from the communication buffers, east and south faces written to them). The SPU
//    instructions are inline PTX that nvcc -ptx passes through; ptxas does not know them.
//  - spu_stencil_local: Algorithm 3 (producer-consumer bar.blocksync.north/.west before a tile,
//    .south/.east after it; only the pair whose sync completed swaps).
//  - gpu_stencil: the GPU baseline (SPU spec §10): the faces through global memory, CTA (i, j) waiting
//    for its west and north producers through a global array of per-CTA tile counters (atomics; the
//    Ranasinghe-style producer-consumer synchronisation).
//
// Face arrays (both kernels): X[it][k][j] = H[it*b - 1, j, k] for it = 0..G (X[0] is C, X[G] the east
// output), Y[jt][k][i] = H[i, jt*b - 1, k] (Y[0] is B, Y[G] the south output), G = N / b; Hb[j][i] =
// H[i, j, K-1] (the bottom output). On the SPU the interface units move X[0], Y[0] (loads) and X[G],
// Y[G] (stores); the CTAs read A and write Hb directly.
//
// PTX: nvcc -ptx -arch=sm_75 -O3 -o kernels/spu/spu_stencil.ptx kernels/spu/spu_stencil.cu

#define MAXB 64

__device__ __forceinline__ float cb_ld_west(unsigned off)
{
    float v;
    asm volatile("ld.cb.west.f32 %0, [%1];" : "=f"(v) : "r"(off) : "memory");
    return v;
}
__device__ __forceinline__ float cb_ld_north(unsigned off)
{
    float v;
    asm volatile("ld.cb.north.f32 %0, [%1];" : "=f"(v) : "r"(off) : "memory");
    return v;
}
__device__ __forceinline__ void cb_st_east(unsigned off, float v)
{
    asm volatile("st.cb.east.f32 [%0], %1;" ::"r"(off), "f"(v) : "memory");
}
__device__ __forceinline__ void cb_st_south(unsigned off, float v)
{
    asm volatile("st.cb.south.f32 [%0], %1;" ::"r"(off), "f"(v) : "memory");
}
__device__ __forceinline__ void blocksync()
{
    asm volatile("bar.blocksync;" ::: "memory");
}

// One b x b x b tile at (i0, j0, kt*b). SPU: faces from/to the CBs; else from/to X, Y.
template <bool SPU>
__device__ void tile(float (*S)[MAXB * MAXB], const float *A, float *Hb, const float *Xw, const float *Yn,
                     float *Xe, float *Ys, int N, int K, int b, int i0, int j0, int kt, int nkt)
{
    const int tx = threadIdx.x, ty = threadIdx.y, T = blockDim.x;
    const float third = 1.0f / 3.0f;
    const int k0 = kt * b;
    for (int s = 0; s < 2 * (T - 1) + b; s++) {
        int kk = s - tx - ty;
        if (kk >= 0 && kk < b) {
            float *cur = S[kk & 1], *prev = S[(kk & 1) ^ 1];
            for (int v = 0; v < 4; v++) {
                int jj = ty * 4 + v;
                for (int u = 0; u < 4; u++) {
                    int ii = tx * 4 + u;
                    float w, n, up;
                    if (ii == 0)
                        w = SPU ? cb_ld_west(4u * (kk * b + jj)) : Xw[(size_t)(k0 + kk) * N + j0 + jj];
                    else
                        w = cur[jj * b + ii - 1];
                    if (jj == 0)
                        n = SPU ? cb_ld_north(4u * (kk * b + ii)) : Yn[(size_t)(k0 + kk) * N + i0 + ii];
                    else
                        n = cur[(jj - 1) * b + ii];
                    if (kk == 0)
                        up = kt == 0 ? A[(size_t)(j0 + jj) * N + i0 + ii] : S[(b - 1) & 1][jj * b + ii];
                    else
                        up = prev[jj * b + ii];
                    float h = (w + n + up) * third;
                    cur[jj * b + ii] = h;
                    if (ii == b - 1) {
                        if (SPU)
                            cb_st_east(4u * (kk * b + jj), h);
                        else
                            Xe[(size_t)(k0 + kk) * N + j0 + jj] = h;
                    }
                    if (jj == b - 1) {
                        if (SPU)
                            cb_st_south(4u * (kk * b + ii), h);
                        else
                            Ys[(size_t)(k0 + kk) * N + i0 + ii] = h;
                    }
                    if (kt == nkt - 1 && kk == b - 1)
                        Hb[(size_t)(j0 + jj) * N + i0 + ii] = h;
                }
            }
        }
        __syncthreads();
    }
}

// Algorithm 1: t = 0 .. 2(G-1) + K/b - 1; CTA (i, j) computes tile k at t = i + j + k; a global
// blocksync ends every step. One more blocksync before the loop lets the north and west interface
// units put the first faces into the border CBs (the source does not say how they get there).
extern "C" __global__ void spu_stencil_global(const float *A, float *Hb, int N, int K, int b)
{
    __shared__ float S[2][MAXB * MAXB];
    const int i = blockIdx.x, j = blockIdx.y, G = gridDim.x, nkt = K / b;
    int kt = 0;
    blocksync();
    for (int t = 0; t < 2 * (G - 1) + nkt; t++) {
        if (t >= i + j && kt < nkt) {
            tile<true>(S, A, Hb, 0, 0, 0, 0, N, K, b, i * b, j * b, kt, nkt);
            kt++;
        }
        blocksync();
    }
}

// Algorithm 3: producer-consumer blocksync. Per tile: wait for the north and west inputs, compute,
// then wait until the south and east consumers have taken the previous outputs (double buffer).
__device__ __forceinline__ void blocksync_dir(int d)
{
    if (d == 0)
        asm volatile("bar.blocksync.north;" ::: "memory");
    else if (d == 1)
        asm volatile("bar.blocksync.west;" ::: "memory");
    else if (d == 2)
        asm volatile("bar.blocksync.south;" ::: "memory");
    else
        asm volatile("bar.blocksync.east;" ::: "memory");
}

extern "C" __global__ void spu_stencil_local(const float *A, float *Hb, int N, int K, int b)
{
    __shared__ float S[2][MAXB * MAXB];
    const int i = blockIdx.x, j = blockIdx.y, nkt = K / b;
    for (int kt = 0; kt < nkt; kt++) {
        blocksync_dir(0);
        blocksync_dir(1);
        tile<true>(S, A, Hb, 0, 0, 0, 0, N, K, b, i * b, j * b, kt, nkt);
        blocksync_dir(2);
        blocksync_dir(3);
    }
}

// The GPU baseline: CTA (i, j) waits, before tile k, until its west and north producers have
// finished tile k (their counters in done[], read with atomics so that no cache holds them).
extern "C" __global__ void gpu_stencil(const float *A, float *Hb, float *X, float *Y, int *done, int N, int K,
                                       int b)
{
    __shared__ float S[2][MAXB * MAXB];
    const int i = blockIdx.x, j = blockIdx.y, G = gridDim.x, nkt = K / b;
    const size_t face = (size_t)K * N;
    for (int kt = 0; kt < nkt; kt++) {
        if (threadIdx.x == 0 && threadIdx.y == 0) {
            if (i > 0)
                while (atomicAdd(&done[j * G + i - 1], 0) <= kt)
                    ;
            if (j > 0)
                while (atomicAdd(&done[(j - 1) * G + i], 0) <= kt)
                    ;
        }
        __syncthreads();
        tile<false>(S, A, Hb, X + i * face, Y + j * face, X + (i + 1) * face, Y + (j + 1) * face, N, K, b, i * b,
                    j * b, kt, nkt);
        __threadfence();
        if (threadIdx.x == 0 && threadIdx.y == 0)
            atomicAdd(&done[j * G + i], 1);
    }
}
