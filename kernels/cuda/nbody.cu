// nbody: one all-pairs gravitational step (softened), in the spirit of the CUDA samples' nbody.
// Bodies are float4 (x, y, z, mass); each block stages a tile of 256 bodies in shared memory and
// every thread accumulates the acceleration on its body with rsqrtf; the unrolled inner loop keeps
// many values live (register-heavy). Then velocity and position are advanced by dt.
#define BLOCK 256

extern "C" __global__ void nbody_step(const float4 *__restrict__ pos, float4 *__restrict__ vel,
                                      float4 *__restrict__ pos_out, int n, float dt, float eps2)
{
    __shared__ float4 tile[BLOCK];
    int i = blockIdx.x * BLOCK + threadIdx.x;
    float4 p = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int t0 = 0; t0 < n; t0 += BLOCK) {
        tile[threadIdx.x] = pos[t0 + threadIdx.x];
        __syncthreads();
#pragma unroll 8
        for (int j = 0; j < BLOCK; j++) {
            float4 q = tile[j];
            float rx = q.x - p.x, ry = q.y - p.y, rz = q.z - p.z;
            float d2 = rx * rx + ry * ry + rz * rz + eps2;
            float inv = rsqrtf(d2);
            float s = q.w * (inv * inv * inv);
            ax += rx * s;
            ay += ry * s;
            az += rz * s;
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
