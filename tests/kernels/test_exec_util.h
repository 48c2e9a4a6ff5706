/* test_exec_util.h — helpers shared by the tests/kernels/test_exec_*.c semantics tests: build an
 * ir_instr by hand and run it on one lane or on a warp. Expected values in the tests are written
 * by hand (hex constants) or computed by an independent method, never with ir_exec itself. */
#ifndef GPUSC_TESTS_TEST_EXEC_UTIL_H
#define GPUSC_TESTS_TEST_EXEC_UTIL_H

#include "kernels/semantics/ir_exec.h"

#include <glib.h>
#include <math.h>
#include <string.h>

static inline ir_instr t_instr(ir_opcode op, ir_type t, unsigned n_src)
{
    ir_instr in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)t;
    in.vec = 1;
    in.n_dst = 1;
    in.n_src = (uint8_t)n_src;
    in.guard = IR_NONE;
    in.block = IR_NONE;
    in.reconv = IR_NONE;
    in.dst[0].kind = IR_OPND_REG;
    for (unsigned i = 0; i < n_src; i++)
        in.src[i].kind = IR_OPND_REG;
    return in;
}

/* Run on lane 0 only with sources a, b, c, d; returns dst[0]. */
static inline uint64_t t_run(const ir_instr *in, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    ir_exec_ctx x;
    memset(&x, 0, sizeof x);
    x.in = in;
    x.active = 1;
    x.src[0].v[0] = a;
    x.src[1].v[0] = b;
    x.src[2].v[0] = c;
    x.src[3].v[0] = d;
    g_assert_cmpint(ir_exec(&x), ==, IR_EXEC_OK);
    g_assert_true(x.dst_written & 1u);
    return x.dst[0].v[0];
}

#define T1(in, a) t_run((in), (a), 0, 0, 0)
#define T2(in, a, b) t_run((in), (a), (b), 0, 0)
#define T3(in, a, b, c) t_run((in), (a), (b), (c), 0)

static inline uint32_t fb(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static inline float bits_to_f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint64_t db(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

#define CHECK_HEX(got, want) g_assert_cmphex((uint64_t)(got), ==, (uint64_t)(want))

#endif
