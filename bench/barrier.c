/* bench/barrier: the cost of synchronising simulation threads once per simulated cycle, the price a
 * parallel simulation of SMs (one thread per group of SMs, a barrier at each cycle edge) pays on
 * this machine. Each of T threads runs C cycles; in each it does W iterations of dependent integer
 * work (a stand-in for its SMs' activations) and then waits at a sense-reversing spin barrier.
 * Prints the wall time per cycle with and without the barrier work split, and the barrier's cost.
 *
 *     bench/barrier [THREADS [CYCLES [WORK]]]     (defaults 2, 200000, 0)
 *
 * With WORK 0 the figure is the bare barrier round trip. Part of the GPU-scale study in
 * docs/performance.md; not part of `make check`. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static unsigned n_threads = 2, n_cycles = 200000, work = 0;
static atomic_uint arrived;
static atomic_uint sense;
static volatile uint64_t sink;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t do_work(uint64_t x, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x;
}

static void barrier_wait(unsigned *local_sense)
{
    *local_sense ^= 1u;
    if (atomic_fetch_add(&arrived, 1) + 1 == n_threads) {
        atomic_store(&arrived, 0);
        atomic_store(&sense, *local_sense);
    } else {
        while (atomic_load(&sense) != *local_sense)
            ;
    }
}

static void *worker(void *arg)
{
    uint64_t x = (uintptr_t)arg;
    unsigned s = 0;
    for (unsigned c = 0; c < n_cycles; c++) {
        x = do_work(x, work);
        barrier_wait(&s);
    }
    sink = x;
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        n_threads = (unsigned)strtoul(argv[1], NULL, 10);
    if (argc > 2)
        n_cycles = (unsigned)strtoul(argv[2], NULL, 10);
    if (argc > 3)
        work = (unsigned)strtoul(argv[3], NULL, 10);
    if (n_threads < 1 || n_threads > 256 || n_cycles < 1) {
        fprintf(stderr, "bench/barrier: THREADS in 1..256, CYCLES >= 1\n");
        return 2;
    }
    /* the same total work on one thread, no barrier */
    double t0 = now_s();
    uint64_t x = 1;
    for (unsigned c = 0; c < n_cycles; c++)
        x = do_work(x, work * n_threads);
    sink = x;
    double serial = now_s() - t0;

    pthread_t th[256];
    t0 = now_s();
    for (unsigned i = 0; i < n_threads; i++)
        pthread_create(&th[i], NULL, worker, (void *)(uintptr_t)(i + 1));
    for (unsigned i = 0; i < n_threads; i++)
        pthread_join(th[i], NULL);
    double par = now_s() - t0;
    printf("threads %u, cycles %u, work %u per thread-cycle\n", n_threads, n_cycles, work);
    printf("one thread, all work: %.3f us per cycle\n", 1e6 * serial / n_cycles);
    printf("%u threads + barrier: %.3f us per cycle (speed-up %.2f)\n", n_threads, 1e6 * par / n_cycles,
           serial / par);
    return 0;
}
