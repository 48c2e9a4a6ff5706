// spmv: y = A x for a CSR matrix, one thread per row (the "scalar" kernel): rows of different
// lengths make the loop divergent, the gathers of x through the column indices make the accesses
// memory-divergent and cache-sensitive. x is read through the read-only path (__ldg).
extern "C" __global__ void spmv_csr(const int *__restrict__ row_ptr, const int *__restrict__ col_idx,
                                    const float *__restrict__ vals, const float *__restrict__ x,
                                    float *__restrict__ y, int n_rows)
{
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n_rows)
        return;
    float sum = 0.0f;
    int end = row_ptr[row + 1];
    for (int j = row_ptr[row]; j < end; j++)
        sum += vals[j] * __ldg(&x[col_idx[j]]);
    y[row] = sum;
}
