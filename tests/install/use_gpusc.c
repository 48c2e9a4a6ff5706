/* use_gpusc.c — a program outside the tree, built against an installed gpusc (pkg-config gpusc):
 * `make installcheck` (and so `make distcheck`) compiles, links and runs it. A counter block writes
 * a latch every cycle; a reader checks it sees cycle N's value in cycle N + 1, and the block
 * registry lists the framework's demo blocks. Exits 0 and prints "use_gpusc: ok" on success. */
#include <stdio.h>
#include <string.h>

#include "models/core/block.h"
#include "models/demo/demo.h"
#include "sc/gsc.h"

typedef struct {
    uint32_t value;
} word;
static const gsc_field word_fields[] = {GSC_FIELD(word, value, GSC_U32, 32)};
static const gsc_type word_type = GSC_TYPE(word, word_fields);

typedef struct {
    gsc_latch *l;
    unsigned errors;
} bench;

static void writer(void *ctx)
{
    bench *b = ctx;
    word w = {(uint32_t)gsc_cycle()};
    gsc_latch_write(b->l, &w);
}

static void reader(void *ctx)
{
    bench *b = ctx;
    uint64_t c = gsc_cycle();
    const word *w = gsc_latch_read(b->l);
    if (c > 0 && w->value != c - 1) {
        fprintf(stderr, "use_gpusc: cycle %llu reads %u\n", (unsigned long long)c, w->value);
        b->errors++;
    }
}

int main(void)
{
    demo_register();
    if (!blk_registry_find("demo_alu")) {
        fprintf(stderr, "use_gpusc: demo_alu is not registered\n");
        return 1;
    }
    bench b = {0};
    gsc_init("use_gpusc");
    gsc_clock *clk = gsc_clock_new("clk", 1000);
    gsc_module *top = gsc_module_new(NULL, "top");
    b.l = gsc_latch_new(top, "l", &word_type);
    gsc_process *w = gsc_process_new(top, "writer", writer, &b);
    gsc_process *r = gsc_process_new(top, "reader", reader, &b);
    gsc_sensitive_clock(w, clk);
    gsc_sensitive_clock(r, clk);
    gsc_elaborate();
    gsc_run_cycles(10);
    if (b.errors || gsc_cycle() != 10) {
        fprintf(stderr, "use_gpusc: %u errors, ended at cycle %llu\n", b.errors,
                (unsigned long long)gsc_cycle());
        return 1;
    }
    printf("use_gpusc: ok\n");
    return 0;
}
