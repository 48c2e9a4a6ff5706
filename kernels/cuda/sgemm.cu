// sgemm: C = alpha * A * B + beta * C for row-major M x K, K x N, M x N matrices whose sizes are
// multiples of TILE. Each 16 x 16 block stages one tile of A and one of B in shared memory per
// step of K, with a barrier before and after the inner product.
#define TILE 16

extern "C" __global__ void sgemm_tiled(const float *__restrict__ A, const float *__restrict__ B,
                                       float *__restrict__ C, int M, int N, int K, float alpha,
                                       float beta)
{
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        as[ty][tx] = A[(size_t)row * K + k0 + tx];
        bs[ty][tx] = B[(size_t)(k0 + ty) * N + col];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; k++)
            acc += as[ty][k] * bs[k][tx];
        __syncthreads();
    }
    size_t o = (size_t)row * N + col;
    C[o] = alpha * acc + beta * C[o];
}
