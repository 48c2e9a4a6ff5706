// bfs: level-synchronous breadth-first search over a CSR graph, in the spirit of Rodinia's bfs.
// bfs_expand: every node of the frontier visits its neighbours (irregular, data-dependent loop
// trip counts: divergent) and proposes cost + 1 with atomicMin; bfs_update turns the proposed nodes
// into the next frontier and raises a flag so the host knows to iterate again (one store per warp:
// the warp votes with __ballot_sync, which every lane reaches).
extern "C" __global__ void bfs_expand(const int *__restrict__ row_ptr, const int *__restrict__ col_idx,
                                      unsigned char *frontier, const unsigned char *visited,
                                      unsigned char *next, int *cost, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= n || !frontier[id])
        return;
    frontier[id] = 0;
    int c = cost[id] + 1;
    for (int e = row_ptr[id]; e < row_ptr[id + 1]; e++) {
        int nb = col_idx[e];
        if (!visited[nb]) {
            atomicMin(&cost[nb], c);
            next[nb] = 1;
        }
    }
}

extern "C" __global__ void bfs_update(unsigned char *frontier, unsigned char *visited, unsigned char *next,
                                      int *again, int n)
{
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    bool added = id < n && next[id];
    if (added) {
        frontier[id] = 1;
        visited[id] = 1;
        next[id] = 0;
    }
    unsigned votes = __ballot_sync(0xffffffffu, added);
    if (votes != 0 && (threadIdx.x & 31) == 0)
        *again = 1;
}
