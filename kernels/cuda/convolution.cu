// convolution: a separable 2-D convolution (radius 8) as a row pass and a column pass, in the
// spirit of the CUDA samples' convolutionSeparable (our own code). Each block stages its pixels
// plus an apron of one block-width on each side in shared memory (zeros outside the image) and every
// thread computes RESULT_STEPS outputs. The filter taps come through the read-only path (__ldg).
// The row pass needs width % 64 == 0; the column pass needs height % 32 == 0 and width % 16 == 0.
#define R 8
#define ROW_BX 16
#define ROW_BY 4
#define COL_BX 16
#define COL_BY 8
#define STEPS 4
#define HALO 1

extern "C" __global__ void conv_rows(const float *__restrict__ in, float *__restrict__ out,
                                     const float *__restrict__ taps, int w, int h)
{
    __shared__ float s[ROW_BY][(STEPS + 2 * HALO) * ROW_BX];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x0 = (blockIdx.x * STEPS - HALO) * ROW_BX + tx;
    int y = blockIdx.y * ROW_BY + ty;
    const float *row = in + (size_t)y * w;
#pragma unroll
    for (int i = 0; i < STEPS + 2 * HALO; i++) {
        int x = x0 + i * ROW_BX;
        s[ty][tx + i * ROW_BX] = (x >= 0 && x < w) ? row[x] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int i = HALO; i < HALO + STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -R; j <= R; j++)
            sum += __ldg(&taps[R - j]) * s[ty][tx + i * ROW_BX + j];
        out[(size_t)y * w + x0 + i * ROW_BX] = sum;
    }
    (void)h;
}

extern "C" __global__ void conv_cols(const float *__restrict__ in, float *__restrict__ out,
                                     const float *__restrict__ taps, int w, int h)
{
    __shared__ float s[COL_BX][(STEPS + 2 * HALO) * COL_BY + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * COL_BX + tx;
    int y0 = (blockIdx.y * STEPS - HALO) * COL_BY + ty;
#pragma unroll
    for (int i = 0; i < STEPS + 2 * HALO; i++) {
        int y = y0 + i * COL_BY;
        s[tx][ty + i * COL_BY] = (y >= 0 && y < h) ? in[(size_t)y * w + x] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int i = HALO; i < HALO + STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -R; j <= R; j++)
            sum += __ldg(&taps[R - j]) * s[tx][ty + i * COL_BY + j];
        out[(size_t)(y0 + i * COL_BY) * w + x] = sum;
    }
}
