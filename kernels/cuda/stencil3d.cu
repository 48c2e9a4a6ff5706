// stencil3d: one Jacobi sweep of a 3-D 7-point stencil, out = c0 * centre + c1 * (sum of the six
// face neighbours); boundary cells are copied. One thread per cell, all operands straight from global
// memory (the neighbours in y and z are a row and a plane away: reuse lives in the caches), 64-bit
// index arithmetic for the planes.
extern "C" __global__ void stencil7(const float *__restrict__ in, float *__restrict__ out, int nx, int ny,
                                    int nz, float c0, float c1)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;
    size_t plane = (size_t)nx * ny;
    size_t i = (size_t)z * plane + (size_t)y * nx + x;
    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
        out[i] = in[i];
        return;
    }
    float sum = in[i - 1] + in[i + 1];
    sum += in[i - nx];
    sum += in[i + nx];
    sum += in[i - plane];
    sum += in[i + plane];
    out[i] = c0 * in[i] + c1 * sum;
}
