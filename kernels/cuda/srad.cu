// srad: speckle-reducing anisotropic diffusion, in the spirit of Rodinia's srad. Per iteration:
// srad_sums reduces the image to per-block sums and sums of squares (shared-memory tree), from which
// the host derives the diffusion threshold q0^2; srad_coeff loads a 16 x 16 tile with a one-cell
// halo into shared memory and computes the four directional derivatives and the diffusion
// coefficient; srad_update loads a tile of coefficients (plus the south and east halo) and updates
// the image. Image borders are clamped.
#define BS 16
#define RBLOCK 256

extern "C" __global__ void srad_sums(const float *__restrict__ img, float *__restrict__ psum,
                                     float *__restrict__ psq, int n)
{
    __shared__ float s[RBLOCK];
    __shared__ float q[RBLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * RBLOCK + tid;
    float v = i < n ? img[i] : 0.0f;
    s[tid] = v;
    q[tid] = v * v;
    __syncthreads();
    for (int stride = RBLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            s[tid] += s[tid + stride];
            q[tid] += q[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        psum[blockIdx.x] = s[0];
        psq[blockIdx.x] = q[0];
    }
}

extern "C" __global__ void srad_coeff(const float *__restrict__ img, float *__restrict__ coef,
                                      float *__restrict__ dn, float *__restrict__ ds, float *__restrict__ dw,
                                      float *__restrict__ de, int rows, int cols, float q0sqr)
{
    __shared__ float t[BS + 2][BS + 2];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BS + tx, y = blockIdx.y * BS + ty;
    int xw = max(x - 1, 0), xe = min(x + 1, cols - 1);
    int yn = max(y - 1, 0), ys = min(y + 1, rows - 1);
    t[ty + 1][tx + 1] = img[(size_t)y * cols + x];
    if (ty == 0)
        t[0][tx + 1] = img[(size_t)yn * cols + x];
    if (ty == BS - 1)
        t[BS + 1][tx + 1] = img[(size_t)ys * cols + x];
    if (tx == 0)
        t[ty + 1][0] = img[(size_t)y * cols + xw];
    if (tx == BS - 1)
        t[ty + 1][BS + 1] = img[(size_t)y * cols + xe];
    __syncthreads();
    float jc = t[ty + 1][tx + 1];
    float n = t[ty][tx + 1] - jc;
    float s = t[ty + 2][tx + 1] - jc;
    float w = t[ty + 1][tx] - jc;
    float e = t[ty + 1][tx + 2] - jc;
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = 0.5f * g2 - 0.0625f * (l * l);
    float den = 1.0f + 0.25f * l;
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    c = fminf(fmaxf(c, 0.0f), 1.0f);
    size_t i = (size_t)y * cols + x;
    coef[i] = c;
    dn[i] = n;
    ds[i] = s;
    dw[i] = w;
    de[i] = e;
}

extern "C" __global__ void srad_update(float *__restrict__ img, const float *__restrict__ coef,
                                       const float *__restrict__ dn, const float *__restrict__ ds,
                                       const float *__restrict__ dw, const float *__restrict__ de, int rows,
                                       int cols, float lambda)
{
    __shared__ float c[BS + 1][BS + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int x = blockIdx.x * BS + tx, y = blockIdx.y * BS + ty;
    size_t i = (size_t)y * cols + x;
    c[ty][tx] = coef[i];
    if (ty == BS - 1)
        c[BS][tx] = coef[(size_t)min(y + 1, rows - 1) * cols + x];
    if (tx == BS - 1)
        c[ty][BS] = coef[(size_t)y * cols + min(x + 1, cols - 1)];
    __syncthreads();
    float cc = c[ty][tx];
    float d = cc * dn[i] + c[ty + 1][tx] * ds[i] + cc * dw[i] + c[ty][tx + 1] * de[i];
    img[i] = img[i] + 0.25f * lambda * d;
}
