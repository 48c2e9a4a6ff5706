// backprop: one layer of a small neural network, in the spirit of Rodinia's backprop, with 16 hidden
// units. bp_forward: each 16 x 16 block takes 16 inputs, stages them and the 16 x 16 weights in
// shared memory, multiplies, and sums the 16 rows with a barrier-separated tree, producing one
// partial sum per hidden unit and block. bp_squash sums the partials of a hidden unit and applies
// the sigmoid (expf). bp_adjust updates every weight with the learning rate and momentum.
#define HID 16

extern "C" __global__ void bp_forward(const float *__restrict__ input, const float *__restrict__ w,
                                      float *__restrict__ partial)
{
    __shared__ float x[HID];
    __shared__ float wm[HID][HID];
    int tx = threadIdx.x, ty = threadIdx.y;
    size_t row = (size_t)blockIdx.x * HID + ty;
    if (tx == 0)
        x[ty] = input[row];
    wm[ty][tx] = w[row * HID + tx];
    __syncthreads();
    wm[ty][tx] *= x[ty];
    __syncthreads();
    for (int s = HID / 2; s > 0; s >>= 1) {
        if (ty < s)
            wm[ty][tx] += wm[ty + s][tx];
        __syncthreads();
    }
    if (ty == 0)
        partial[(size_t)blockIdx.x * HID + tx] = wm[0][tx];
}

extern "C" __global__ void bp_squash(const float *__restrict__ partial, float *__restrict__ hidden, int n_blocks)
{
    int j = threadIdx.x;
    float sum = 0.0f;
    for (int b = 0; b < n_blocks; b++)
        sum += partial[(size_t)b * HID + j];
    hidden[j] = 1.0f / (1.0f + expf(-sum));
}

extern "C" __global__ void bp_adjust(const float *__restrict__ delta, const float *__restrict__ input,
                                     float *__restrict__ w, float *__restrict__ old_dw, float eta,
                                     float momentum)
{
    int tx = threadIdx.x, ty = threadIdx.y;
    size_t row = (size_t)blockIdx.x * HID + ty;
    size_t idx = row * HID + tx;
    float dw = eta * delta[tx] * input[row] + momentum * old_dw[idx];
    w[idx] += dw;
    old_dw[idx] = dw;
}
