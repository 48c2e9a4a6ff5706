/* bench/activation_c.c — the C side of bench/activation: N method processes through the C API, each
 * doing a small fixed amount of work per activation (read a latch, add to a counter): clocked (the
 * kernel's scheduler runs them) or unclocked, asking for the next cycle each time (the lane runs
 * them, docs/sc-api.md "The lane"). */
#include "sc/gsc.h"

#include <glib.h>

#include <time.h>

typedef struct {
    uint32_t v;
} word;
static const gsc_field word_fields[] = {GSC_FIELD(word, v, GSC_U32, 0)};
static const gsc_type word_type = GSC_TYPE(word, word_fields);

typedef struct {
    gsc_latch *in;
    uint64_t count;
    uint64_t sum;
} worker;

static void work(void *ctx)
{
    worker *w = ctx;
    w->count++;
    w->sum += ((const word *)gsc_latch_read(w->in))->v;
}

static void work_unclocked(void *ctx)
{
    work(ctx);
    gsc_run_within(1);
}

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Build n processes (clocked, or unclocked ones that run at cycle 0 and ask for every next cycle), run
 * `cycles` (the run alone is timed, into *run_ns), return the number of activations; the total of the
 * workers' counters goes to *check. */
uint64_t bench_c_run(unsigned n, uint64_t cycles, int unclocked, uint64_t *check, double *run_ns);

uint64_t bench_c_run(unsigned n, uint64_t cycles, int unclocked, uint64_t *check, double *run_ns)
{
    gsc_init("bench-activation");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "top");
    gsc_latch *in = gsc_latch_new(top, "in", &word_type);
    word one = {1};
    gsc_latch_write(in, &one);
    worker *ws = g_new0(worker, n);
    for (unsigned i = 0; i < n; i++) {
        char name[32];
        g_snprintf(name, sizeof name, "w%u", i);
        ws[i].in = in;
        gsc_process *p = gsc_process_new(top, name, unclocked ? work_unclocked : work, &ws[i]);
        if (unclocked)
            gsc_process_initialize(p);
        else
            gsc_sensitive_clock(p, clk);
    }
    gsc_elaborate();
    double t0 = now_ns();
    gsc_run_cycles(cycles);
    *run_ns = now_ns() - t0;
    uint64_t total = 0;
    for (unsigned i = 0; i < n; i++)
        total += ws[i].count + ws[i].sum;
    *check = total;
    g_free(ws);
    return gsc_activations();
}
