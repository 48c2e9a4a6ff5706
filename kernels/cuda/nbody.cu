// nbody: one all-pairs gravitational step (softened), in the spirit of the CUDA samples' nbody.
// Bodies are float4 (x, y, z, mass); each block stages a tile of blockDim.x bodies in shared memory
// and every thread accumulates the acceleration on its body with rsqrtf; the inner loop, unrolled 8x,
// keeps many values live (register-heavy). Then velocity and position are advanced by dt.
// The block size is the tile size, chosen at launch: a multiple of 8, at most MAX_BLOCK, dividing n
// (all-pairs work grows as n^2, so the drivers pick small blocks where they need many of them).
#define MAX_BLOCK 256
#define UNROLL 8

extern "C" __global__ void nbody_step(const float4 *__restrict__ pos, float4 *__restrict__ vel,
                                      float4 *__restrict__ pos_out, int n, float dt, float eps2)
{
    __shared__ float4 tile[MAX_BLOCK];
    int bs = blockDim.x;
    int i = blockIdx.x * bs + threadIdx.x;
    float4 p = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int t0 = 0; t0 < n; t0 += bs) {
        tile[threadIdx.x] = pos[t0 + threadIdx.x];
        __syncthreads();
        for (int j0 = 0; j0 < bs; j0 += UNROLL) {
#pragma unroll
            for (int j = j0; j < j0 + UNROLL; j++) {
                float4 q = tile[j];
                float rx = q.x - p.x, ry = q.y - p.y, rz = q.z - p.z;
                float d2 = rx * rx + ry * ry + rz * rz + eps2;
                float inv = rsqrtf(d2);
                float s = q.w * (inv * inv * inv);
                ax += rx * s;
                ay += ry * s;
                az += rz * s;
            }
        }
        __syncthreads();
    }
    float4 v = vel[i];
    v.x += ax * dt;
    v.y += ay * dt;
    v.z += az * dt;
    vel[i] = v;
    p.x += v.x * dt;
    p.y += v.y * dt;
    p.z += v.z * dt;
    pos_out[i] = p;
}
