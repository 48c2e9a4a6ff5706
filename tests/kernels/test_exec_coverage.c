/* test_exec_coverage.c — every ALU/SFU/warp instruction of every committed PTX file (the
 * workloads' kernels/ptx/ and the runner tests' tests/kernels/ptx/) is implemented by ir_exec:
 * executed on a full warp with random sources, it never reports IR_EXEC_UNSUPPORTED, writes
 * dst[0], and writes predicates as 0/1. */
#include "tests/kernels/test_exec_util.h"
#include "kernels/frontend/ptx_parse.h"

static unsigned check_module(const ir_module *m, const char *path, GRand *rng)
{
    unsigned n_alu = 0;
    for (unsigned fi = 0; fi < m->funcs->len; fi++) {
        const ir_func *f = g_ptr_array_index(m->funcs, fi);
        for (uint32_t i = 0; i < ir_func_n_instrs(f); i++) {
            const ir_instr *in = ir_func_instr(f, i);
            ir_exec_ctx x;
            memset(&x, 0, sizeof x);
            x.in = in;
            x.active = g_rand_int(rng) | 1u;
            x.cc_in = g_rand_int(rng);
            for (unsigned s = 0; s < IR_MAX_SRC; s++)
                for (unsigned l = 0; l < IR_WARP_SIZE; l++)
                    x.src[s].v[l] = ((uint64_t)g_rand_int(rng) << 32) | g_rand_int(rng);
            for (unsigned s = 0; s < in->n_src; s++)
                if (in->src[s].kind == IR_OPND_IMM)
                    for (unsigned l = 0; l < IR_WARP_SIZE; l++)
                        x.src[s].v[l] = in->src[s].u.imm;
            ir_exec_status st = ir_exec(&x);
            if (st == IR_EXEC_NOT_ALU)
                continue;
            if (st != IR_EXEC_OK) {
                GString *s = g_string_new(NULL);
                ir_print_instr(s, m, f, in);
                g_error("%s:%u: ir_exec does not implement `%s`", path, in->line, s->str);
            }
            g_assert_true(x.dst_written & 1u);
            bool pred_dst = in->op == IR_OP_SETP || in->op == IR_OP_TESTP ||
                            ((in->op == IR_OP_AND || in->op == IR_OP_OR || in->op == IR_OP_XOR ||
                              in->op == IR_OP_NOT || in->op == IR_OP_MOV || in->op == IR_OP_VOTE) &&
                             in->type == IR_T_PRED);
            if (pred_dst)
                for (unsigned l = 0; l < IR_WARP_SIZE; l++)
                    if ((x.active >> l) & 1)
                        g_assert_cmphex(x.dst[0].v[l], <=, 1);
            n_alu++;
        }
    }
    return n_alu;
}

static void check_dir(const char *sub)
{
    const char *top = g_getenv("top_srcdir");
    char *dir = g_build_filename(top ? top : ".", sub, NULL);
    GError *err = NULL;
    GDir *d = g_dir_open(dir, 0, &err);
    g_assert_no_error(err);
    GRand *rng = g_rand_new_with_seed(12345);
    unsigned files = 0, instrs = 0;
    const char *name;
    while ((name = g_dir_read_name(d))) {
        if (!g_str_has_suffix(name, ".ptx"))
            continue;
        char *path = g_build_filename(dir, name, NULL);
        ir_module *m = ptx_parse_file(path, &err);
        if (!m) { /* files meant to be rejected by the front end are not our concern */
            g_clear_error(&err);
            g_free(path);
            continue;
        }
        instrs += check_module(m, path, rng);
        files++;
        ir_module_free(m);
        g_free(path);
    }
    g_test_message("%s: %u files, %u ALU instructions", sub, files, instrs);
    g_assert_cmpuint(files, >, 0);
    g_assert_cmpuint(instrs, >, 0);
    g_rand_free(rng);
    g_dir_close(d);
    g_free(dir);
}

static void test_workload_ptx(void)
{
    check_dir("kernels/ptx");
}

static void test_runner_ptx(void)
{
    check_dir("tests/kernels/ptx");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/exec/coverage/workload-ptx", test_workload_ptx);
    g_test_add_func("/exec/coverage/runner-test-ptx", test_runner_ptx);
    return g_test_run();
}
