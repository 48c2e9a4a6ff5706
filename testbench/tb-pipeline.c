/* tb-pipeline — the block framework's demo testbench: demo_source -> demo_alu -> demo_sink
 * through two FIFOs. The sink checks every result against a reference computed here from the
 * source's seed and the ALU's operation; a mismatch, a missing item or a run that does not finish
 * is a nonzero exit. Writes waveforms/tb-pipeline.vcd and .gtkw and prints statistics. */
#include <stdio.h>
#include <stdlib.h>

#include "models/core/cli.h"
#include "models/core/stats.h"
#include "models/demo/demo.h"

static const blk_param_desc tb_params[] = {
    {"period_ps", BLK_PARAM_UINT, "1000", "2", "1000000", NULL, "ps", "core clock period"},
    {"timeout", BLK_PARAM_UINT, "100000", "1", "1000000000", NULL, "cycles",
     "give up (failure) if the sink has not received everything by then"},
    {"selftest_corrupt", BLK_PARAM_INT, "-1", "-1", "1000000", NULL, "",
     "corrupt the expected value of this item, to check the checker (-1: off)"},
};

static const blk_desc tb_pipeline_desc = {
    "tb_pipeline",
    "testbench: the framework demo pipeline (source -> ALU -> sink)",
    "",
    NULL,
    0,
    tb_params,
    BLK_N(tb_params),
    NULL,
    0,
    NULL,
    0,
};

typedef struct {
    demo_source *src;
    demo_alu *alu;
    demo_sink *sink;
} pipeline;

/* The one wiring place: FIFO depths come from the consumer's input port. */
static pipeline build(cli_run *run)
{
    blk_ctx *ctx = run->ctx;
    gsc_module *top = run->top->mod;
    pipeline p;
    p.src = demo_source_new(ctx, top, "src");
    p.alu = demo_alu_new(ctx, top, "alu");
    p.sink = demo_sink_new(ctx, top, "sink");
    gsc_fifo *src_alu =
        gsc_fifo_new(top, "src_alu", &demo_word_type, blk_port_fifo_depth(p.alu->inst, DEMO_ALU_IN));
    gsc_fifo *alu_sink =
        gsc_fifo_new(top, "alu_sink", &demo_word_type, blk_port_fifo_depth(p.sink->inst, DEMO_SINK_IN));
    gsc_port_bind_fifo(blk_port(p.src->inst, DEMO_SOURCE_OUT), src_alu);
    gsc_port_bind_fifo(blk_port(p.alu->inst, DEMO_ALU_IN), src_alu);
    gsc_port_bind_fifo(blk_port(p.alu->inst, DEMO_ALU_OUT), alu_sink);
    gsc_port_bind_fifo(blk_port(p.sink->inst, DEMO_SINK_IN), alu_sink);
    return p;
}

/* Expected results: the source's values through the ALU's operation. */
static uint32_t *reference(const pipeline *p)
{
    uint64_t n = blk_param_uint(p->src->inst, "count");
    uint32_t *v = demo_source_values(blk_param_uint(p->src->inst, "seed"), n);
    for (uint64_t i = 0; i < n; i++)
        v[i] = demo_alu_compute(p->alu->op, p->alu->imm, v[i]);
    return v;
}

static double activations_per_cycle(const blk_ctx *ctx, void *data)
{
    (void)ctx;
    (void)data;
    return stats_ratio(gsc_activations(), gsc_cycle());
}

int main(int argc, char **argv)
{
    demo_register();
    cli_run *run = cli_new("tb-pipeline", "The block framework's demo pipeline: source -> ALU -> sink.",
                           &tb_pipeline_desc, "tb", "demo");
    cli_parse(run, &argc, &argv);
    pipeline p = build(run);
    uint32_t *expected = reference(&p);
    uint64_t n = blk_param_uint(p.src->inst, "count");
    int64_t corrupt = blk_param_int(run->top, "selftest_corrupt");
    if (corrupt >= 0 && (uint64_t)corrupt < n)
        expected[corrupt] ^= 1;
    demo_sink_expect(p.sink, expected, n);
    blk_ctx_add_derived(run->ctx, "tb.activations_per_cycle", "activations/cycle",
                        "process activations per cycle (idle blocks sleep)", activations_per_cycle, NULL);
    cli_elaborate(run);

    uint64_t timeout = blk_param_uint(run->top, "timeout");
    uint64_t limit = run->max_cycles ? MIN((uint64_t)run->max_cycles, timeout) : timeout;
    uint64_t cycles = gsc_run(limit);
    cli_finish(run, cycles);

    int status = 0;
    uint64_t received = blk_stat_get(p.sink->inst, DEMO_SINK_STAT_RECEIVED);
    uint64_t mismatches = blk_stat_get(p.sink->inst, DEMO_SINK_STAT_MISMATCHES);
    if (mismatches) {
        fprintf(stderr,
                "gpusc: tb-pipeline: %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT " results are wrong\n",
                mismatches, received);
        status = 1;
    } else if (received != n) {
        fprintf(stderr,
                "gpusc: tb-pipeline: the sink received %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                " items in %" G_GUINT64_FORMAT " cycles\n",
                received, n, cycles);
        status = 1;
    } else {
        printf("tb-pipeline: PASS: %" G_GUINT64_FORMAT " results checked in %" G_GUINT64_FORMAT " cycles\n",
               n, cycles);
    }
    g_free(expected);
    return status;
}
