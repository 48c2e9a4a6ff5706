/* nw.c — Needleman-Wunsch alignment scores over the whole (n+1) x (n+1) matrix, one launch per
 * anti-diagonal of 32 x 32 tiles. Integer: checked exactly. */
#include "kernels/workloads/wl-common.h"

#define T        32
#define ALPHABET 24

static const unsigned DIM[] = {64, 1024, 1536}; /* default: 32 x 32 tiles, 63 launches of 1..32 blocks */
static const int PENALTY = 10;

static void nw_reference(int *score, const int *ref, int n)
{
    size_t ld = (size_t)n + 1;
    for (int i = 1; i <= n; i++) {
        for (int j = 1; j <= n; j++) {
            int diag = score[(i - 1) * ld + j - 1] + ref[(size_t)(i - 1) * n + j - 1];
            int up = score[(i - 1) * ld + j] - PENALTY;
            int left = score[i * ld + j - 1] - PENALTY;
            score[i * ld + j] = MAX(diag, MAX(up, left));
        }
    }
}

static int nw_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(DIM));
    int n = (int)DIM[size], tiles = n / T;
    size_t ld = (size_t)n + 1, cells = ld * ld;
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    /* A symmetric substitution table (in the spirit of BLOSUM) and two random sequences. */
    int table[ALPHABET][ALPHABET];
    for (int a = 0; a < ALPHABET; a++)
        for (int b = 0; b <= a; b++)
            table[a][b] = table[b][a] = (int)wl_rng_below(&rng, 15) - 4;
    g_autofree int *seq_a = g_new(int, n);
    g_autofree int *seq_b = g_new(int, n);
    for (int i = 0; i < n; i++) {
        seq_a[i] = (int)wl_rng_below(&rng, ALPHABET);
        seq_b[i] = (int)wl_rng_below(&rng, ALPHABET);
    }
    g_autofree int *ref = g_new(int, (size_t)n *n);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            ref[(size_t)i * n + j] = table[seq_a[i]][seq_b[j]];
    g_autofree int *score = g_new0(int, cells);
    g_autofree int *got = g_new(int, cells);
    for (int i = 0; i <= n; i++) {
        score[i] = -PENALTY * i;
        score[(size_t)i * ld] = -PENALTY * i;
    }

    uint64_t dscore, dref;
    if (wl_upload(dev, score, cells * 4, &dscore, err) || wl_upload(dev, ref, (size_t)n * n * 4, &dref, err))
        return -1;
    for (int d = 0; d < 2 * tiles - 1; d++) {
        int first = MAX(0, d - tiles + 1), last = MIN(d, tiles - 1);
        if (WL_LAUNCH(dev, err, "nw_tile", (unsigned)(last - first + 1), 1, 1, T, 1, 1, WL_PTR(dscore),
                      WL_PTR(dref), WL_S32(n), WL_S32(d), WL_S32(first), WL_S32(PENALTY)))
            return -1;
    }
    if (wl_download(dev, dscore, got, cells * 4, err))
        return -1;
    nw_reference(score, ref, n);
    return wl_check_i32("score", score, got, cells, err);
}

const workload wl_nw = {
    .name = "nw",
    .blurb = "Needleman-Wunsch wavefront in 32x32 shared tiles, one launch per tile diagonal",
    .ptx = "nw.ptx",
    .tags = "shared,barrier,divergent,wavefront,multi-launch,limit-shared",
    .run = nw_run,
};
