// hotspot: a 2-D thermal stencil in the spirit of Rodinia's hotspot. Each 16 x 16 block loads a
// tile of temperature and power into shared memory and advances it `iters` time steps in place
// (a "pyramid": the valid region shrinks by one cell per side and step), so one launch does several
// steps with only barriers between them. Many live float coefficients make it register-heavy.
// Cells on the chip's edge use their own temperature for the missing neighbour.
#define BS 16

extern "C" __global__ void hotspot_step(const float *__restrict__ power, const float *__restrict__ temp_in,
                                        float *__restrict__ temp_out, int rows, int cols, int iters,
                                        float step_div_cap, float rx_inv, float ry_inv, float rz_inv,
                                        float amb)
{
    __shared__ float t_cur[BS][BS];
    __shared__ float t_next[BS][BS];
    __shared__ float pw[BS][BS];
    int tx = threadIdx.x, ty = threadIdx.y;
    int span = BS - 2 * iters; /* output cells per block per dimension */
    int gx = blockIdx.x * span - iters + tx;
    int gy = blockIdx.y * span - iters + ty;
    bool inside = gx >= 0 && gx < cols && gy >= 0 && gy < rows;
    size_t idx = (size_t)gy * cols + gx;
    if (inside) {
        t_cur[ty][tx] = temp_in[idx];
        pw[ty][tx] = power[idx];
    }
    __syncthreads();
    for (int i = 0; i < iters; i++) {
        bool active = inside && tx > i && tx < BS - 1 - i && ty > i && ty < BS - 1 - i;
        if (active) {
            float t = t_cur[ty][tx];
            float tn = gy > 0 ? t_cur[ty - 1][tx] : t;
            float ts = gy < rows - 1 ? t_cur[ty + 1][tx] : t;
            float tw = gx > 0 ? t_cur[ty][tx - 1] : t;
            float te = gx < cols - 1 ? t_cur[ty][tx + 1] : t;
            float delta = step_div_cap * (pw[ty][tx] + (ts + tn - 2.0f * t) * ry_inv +
                                          (te + tw - 2.0f * t) * rx_inv + (amb - t) * rz_inv);
            t_next[ty][tx] = t + delta;
        }
        __syncthreads();
        if (active)
            t_cur[ty][tx] = t_next[ty][tx];
        __syncthreads();
    }
    if (inside && tx >= iters && tx < BS - iters && ty >= iters && ty < BS - iters)
        temp_out[idx] = t_cur[ty][tx];
}
