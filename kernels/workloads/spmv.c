/* spmv.c — y = A x, CSR, one thread per row. Row lengths 1..31, half the columns near the
 * diagonal and half uniform. The reference accumulates each row in the kernel's order with fmaf
 * (nvcc contracts the loop body into fma.rn), so the results must match to the last bit: tolerance 0.
 * A difference is a semantics bug (say, an fma rounded twice). */
#include "kernels/workloads/wl-common.h"

#include <math.h>

#define BLOCK 128

static const unsigned ROWS[] = {400, 65536, 524288}; /* tiny: a partial last block */

static int spmv_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(ROWS));
    /* unsigned: every allocation size below is then visibly under 16 GB. As an int, n could be
     * negative for all the compiler knows, a size near 2^64 once converted, which the link-time
     * pass (configure --enable-lto) reports as an allocation larger than any object. */
    const unsigned n = ROWS[size];
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    g_autofree int *row_ptr = g_new(int, (size_t)n + 1);
    GArray *cols = g_array_new(FALSE, FALSE, sizeof(int));
    row_ptr[0] = 0;
    for (unsigned r = 0; r < n; r++) {
        unsigned len = 1 + wl_rng_below(&rng, 31);
        for (unsigned j = 0; j < len; j++) {
            int c = (wl_rng_u32(&rng) & 1) ? (int)r + (int)wl_rng_below(&rng, 129) - 64
                                           : (int)wl_rng_below(&rng, n);
            c = CLAMP(c, 0, (int)n - 1);
            g_array_append_val(cols, c);
        }
        row_ptr[r + 1] = (int)cols->len;
    }
    size_t nnz = cols->len;
    g_autofree int *col_idx = (int *)g_array_free(cols, FALSE);
    g_autofree float *vals = g_new(float, nnz);
    g_autofree float *x = g_new(float, n);
    g_autofree float *y = g_new(float, n);
    g_autofree float *want = g_new(float, n);
    wl_rng_fill_f32(&rng, vals, nnz, -1.0f, 1.0f);
    wl_rng_fill_f32(&rng, x, (size_t)n, -1.0f, 1.0f);

    uint64_t drow, dcol, dval, dx, dy;
    if (wl_upload(dev, row_ptr, ((size_t)n + 1) * 4, &drow, err) ||
        wl_upload(dev, col_idx, nnz * 4, &dcol, err) || wl_upload(dev, vals, nnz * 4, &dval, err) ||
        wl_upload(dev, x, (size_t)n * 4, &dx, err) || wl_upload(dev, NULL, (size_t)n * 4, &dy, err) ||
        WL_LAUNCH(dev, err, "spmv_csr", wl_div_up(n, BLOCK), 1, 1, BLOCK, 1, 1, WL_PTR(drow), WL_PTR(dcol),
                  WL_PTR(dval), WL_PTR(dx), WL_PTR(dy), WL_S32((int)n)) ||
        wl_download(dev, dy, y, (size_t)n * 4, err))
        return -1;

    for (unsigned r = 0; r < n; r++) {
        float sum = 0.0f;
        for (int j = row_ptr[r]; j < row_ptr[r + 1]; j++)
            sum = fmaf(vals[j], x[col_idx[j]], sum);
        want[r] = sum;
    }
    return wl_check_f32("y", want, y, (size_t)n, 0.0f, err);
}

const workload wl_spmv = {
    .name = "spmv",
    .blurb = "CSR sparse matrix-vector product, one row per thread: divergent loops, gathers through __ldg",
    .ptx = "spmv.ptx",
    .tags = "irregular,divergent,memory-divergent,cache-sensitive,readonly-cache,limit-registers",
    .run = spmv_run,
};
