/* bfs.c — level-synchronous BFS over a random directed CSR graph; the host relaunches the two
 * kernels until no node was added to the frontier. Costs (levels) are integers: checked exactly;
 * unreachable nodes keep INT32_MAX. */
#include "kernels/workloads/wl-common.h"

#define BLOCK 256

static const unsigned NODES[] = {300, 32768, 327680}; /* tiny: a partial last block */

typedef struct {
    int n;
    int *row_ptr; /* n + 1 */
    int *col_idx; /* row_ptr[n] */
} bfs_graph;

/* Out-degrees 1..10 (mean 5.5), destinations uniform: almost every node is reachable from any
 * source (those nobody points to, about e^-5.5 of them, are not), levels are logarithmic in n, and
 * frontier sizes vary a lot from level to level. */
static void bfs_generate(bfs_graph *g, int n, wl_rng *rng)
{
    g->n = n;
    g->row_ptr = g_new(int, n + 1);
    GArray *cols = g_array_new(FALSE, FALSE, sizeof(int));
    g->row_ptr[0] = 0;
    for (int i = 0; i < n; i++) {
        unsigned deg = 1 + wl_rng_below(rng, 10);
        for (unsigned e = 0; e < deg; e++) {
            int dst = (int)wl_rng_below(rng, (uint32_t)n);
            g_array_append_val(cols, dst);
        }
        g->row_ptr[i + 1] = (int)cols->len;
    }
    g->col_idx = (int *)g_array_free(cols, FALSE);
}

static void bfs_reference(const bfs_graph *g, int src, int *cost)
{
    g_autofree int *queue = g_new(int, g->n);
    int head = 0, tail = 0;
    for (int i = 0; i < g->n; i++)
        cost[i] = INT32_MAX;
    cost[src] = 0;
    queue[tail++] = src;
    while (head < tail) {
        int u = queue[head++];
        for (int e = g->row_ptr[u]; e < g->row_ptr[u + 1]; e++) {
            int v = g->col_idx[e];
            if (cost[v] == INT32_MAX) {
                cost[v] = cost[u] + 1;
                queue[tail++] = v;
            }
        }
    }
}

static int bfs_device(const bfs_graph *g, int src, wl_device *dev, int *cost, GString *err)
{
    int n = g->n;
    size_t nb = (size_t)n;
    g_autofree unsigned char *mask = g_new0(unsigned char, nb);
    for (int i = 0; i < n; i++)
        cost[i] = INT32_MAX;
    cost[src] = 0;
    mask[src] = 1;
    uint64_t drow, dcol, dfront, dvisited, dnext, dcost, dagain;
    if (wl_upload(dev, g->row_ptr, (nb + 1) * 4, &drow, err) ||
        wl_upload(dev, g->col_idx, (size_t)g->row_ptr[n] * 4, &dcol, err) ||
        wl_upload(dev, mask, nb, &dfront, err) || wl_upload(dev, mask, nb, &dvisited, err) ||
        wl_upload(dev, NULL, nb, &dnext, err) || wl_upload(dev, cost, nb * 4, &dcost, err) ||
        wl_upload(dev, NULL, 4, &dagain, err))
        return -1;
    unsigned grid = wl_div_up((unsigned)n, BLOCK);
    /* At most n levels; the bound only matters if the device misbehaves. */
    for (int level = 0; level <= n; level++) {
        int again = 0;
        if (wl_write(dev, dagain, &again, 4, err) ||
            WL_LAUNCH(dev, err, "bfs_expand", grid, 1, 1, BLOCK, 1, 1, WL_PTR(drow), WL_PTR(dcol),
                      WL_PTR(dfront), WL_PTR(dvisited), WL_PTR(dnext), WL_PTR(dcost), WL_S32(n)) ||
            WL_LAUNCH(dev, err, "bfs_update", grid, 1, 1, BLOCK, 1, 1, WL_PTR(dfront), WL_PTR(dvisited),
                      WL_PTR(dnext), WL_PTR(dagain), WL_S32(n)) ||
            wl_download(dev, dagain, &again, 4, err))
            return -1;
        if (!again)
            break;
    }
    return wl_download(dev, dcost, cost, nb * 4, err);
}

static int bfs_run(wl_size size, uint32_t seed, wl_device *dev, GString *err)
{
    g_assert((unsigned)size < G_N_ELEMENTS(NODES));
    int n = (int)NODES[size];
    wl_rng rng;
    wl_rng_seed(&rng, seed, 0);
    bfs_graph g;
    bfs_generate(&g, n, &rng);
    int src = (int)wl_rng_below(&rng, (uint32_t)n);
    g_autofree int *got = g_new(int, n);
    g_autofree int *want = g_new(int, n);
    int rc = bfs_device(&g, src, dev, got, err);
    if (rc == 0) {
        bfs_reference(&g, src, want);
        rc = wl_check_i32("cost", want, got, (size_t)n, err);
    }
    g_free(g.row_ptr);
    g_free(g.col_idx);
    return rc;
}

const workload wl_bfs = {
    .name = "bfs",
    .blurb = "level-synchronous BFS on a random CSR graph: irregular, divergent, atomicMin, host loop",
    .ptx = "bfs.ptx",
    .tags = "irregular,divergent,atomics,warp-vote,byte-access,cache-sensitive,multi-launch,limit-threads",
    .run = bfs_run,
};
