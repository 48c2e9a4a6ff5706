/* test_renaming_pass — register renaming's compiler passes (kernels/passes/renaming.h) on small functions
 * built by hand, with the register-renaming spec's unit tests (§14) as exact checks: Eq. 1 (1), the
 * encodings and RFC sizes (3), the exemption loop and ranking (5), Figure 6(a)'s pir "001" (10), the
 * pbr at a reconvergence point and more than 9 registers (13), loops (14), the layout of pirs every
 * 18 instructions and branch targets re-laid out; Eq. 1 and the exemption over the frames of the
 * functions a kernel calls. Registers are not allocated: R<n> is register n. */
#include "kernels/frontend/ptx_parse.h"
#include "kernels/passes/renaming.h"
#include "tests/kernels/test_cfg_build.h"

#include <string.h>

static const ren_opts opts48 = {48, 8192, 10, false};
static const ren_opts no_budget = {48, 0, 10, false};

static uint32_t u32(ir_func *f)
{
    return tb_reg(f, IR_T_U32);
}

/* §14.1, §14.2, §14.3 */
static void test_sizes(void)
{
    g_assert_cmpuint(ren_eq1_bits(48, 63, 10), ==, 30240);
    g_assert_cmpuint(ren_eq1_bits(48, 63, 10) / 8, ==, 3780); /* 3.69 KB */
    g_assert_cmpuint((ren_eq1_bits(48, 63, 10) + 1024) / 8, ==, 3908);
    /* 1024 physical registers of 32 lanes x 4 B in 128 KB: 10-bit IDs */
    g_assert_cmpuint(ren_renamed_fit(1, 10, 1024 * 10, true), ==, REN_MAX_ARCH);
    /* pir = 10 + 18 x 3 = 64 bits, pbr = 10 + 9 x 6: the payload keeps all 54 bits and the opcode its 10 */
    uint64_t all = (1ull << 54) - 1;
    uint64_t w = ren_encode(REN_OPCODE_PIR, all);
    g_assert_cmpuint(ren_payload(w), ==, all);
    g_assert_cmpuint(ren_opcode(w), ==, REN_OPCODE_PIR);
    g_assert_cmpuint(w & 0xf, ==, REN_OPCODE_PIR & 0xf); /* 4 bits at the LSB end */
    g_assert_cmpuint(w >> 58, ==, REN_OPCODE_PIR >> 4);  /* 6 at the MSB end */
    g_assert_cmpuint(REN_PIR_SLOTS * 3 + 10, ==, 64);
    g_assert_cmpuint(REN_PBR_SLOTS * 6 + 10, ==, 64);
    g_assert_cmpuint(48 * REN_PIR_SLOTS * 3 / 8, ==, 324); /* RFC: 48 x 54 bits */
}

/* §14.5: 40 warps, 30 registers: 12000 bits > 8192; R' = 20 (8000 bits), 10 exempt. */
static void test_exemption_loop(void)
{
    g_assert_cmpuint(ren_renamed_fit(40, 10, 8192, false), ==, 20);
    ir_func *f = tb_func();
    uint32_t r[30];
    for (unsigned i = 0; i < 30; i++) {
        r[i] = u32(f);
        tb_movi(f, r[i], i);
    }
    uint32_t acc = r[0];
    for (unsigned i = 29; i >= 1; i--) /* read in reverse: r[i] lives 59 - 2i instructions */
        tb_op(f, IR_OP_ADD, IR_T_U32, acc, acc, r[i]);
    tb_ret(f);
    ren_opts o = {40, 8192, 10, false};
    ren_info *ri = ren_analyze(f, &o, NULL);
    g_assert_nonnull(ri);
    g_assert_cmpuint(ri->n_arch, ==, 30);
    g_assert_cmpuint(ri->eq1_bits, ==, 12000);
    g_assert_cmpuint(ri->n_exempt, ==, 10);
    g_assert_cmpuint(ri->eq1_bits_after, ==, 8000);
    /* the longest-lived first: R1 (57 instructions), R2 (55) ... R10 (39); R0's values live 30 */
    g_assert_cmpuint(ri->lifetime[1], ==, 57);
    g_assert_cmpuint(ri->lifetime[10], ==, 39);
    g_assert_cmpuint(ri->lifetime[0], ==, 30);
    g_assert_cmpuint(ri->writes[0], ==, 30);
    g_assert_cmpuint(ri->exempt_order[0], ==, 1);
    g_assert_cmpuint(ri->exempt_order[1], ==, 2);
    g_assert_cmpuint(ri->exempt_order[9], ==, 10);
    g_assert_true(ri->exempt >> 10 & 1);
    g_assert_false(ri->exempt >> 11 & 1);
    g_assert_false(ri->exempt & 1);
    /* exempt registers have no release bit */
    for (uint32_t i = 0; i < ri->n_instrs; i++)
        g_assert_cmpuint(ri->rel[i] & ri->exempt, ==, 0);
    ren_info_free(ri);
    /* "<=": 40 x 20 x 10 = 8000 <= 8000 keeps 20 too; with a budget of 8000, "<" keeps 19 */
    g_assert_cmpuint(ren_renamed_fit(40, 10, 8000, true), ==, 20);
    g_assert_cmpuint(ren_renamed_fit(40, 10, 8000, false), ==, 19);
    tb_free(f);

    /* the ranking: rA 100, rB 50 (5 writes), rC 50 (2 writes), rD 10 -> rA, rB, rC, rD */
    uint32_t regs[4] = {3, 2, 1, 0}; /* D, C, B, A by register number */
    uint32_t life[4] = {100, 50, 50, 10}, writes[4] = {1, 5, 2, 1}, order[4];
    ren_rank(regs, 4, life, writes, order);
    g_assert_cmpuint(order[0], ==, 0);
    g_assert_cmpuint(order[1], ==, 1);
    g_assert_cmpuint(order[2], ==, 2);
    g_assert_cmpuint(order[3], ==, 3);
}

static unsigned pir_bits(const ren_info *r, uint32_t instr)
{
    for (guint k = 0; k < r->layout->len; k++) {
        const ren_slot *s = &g_array_index(r->layout, ren_slot, k);
        if (s->kind == REN_SLOT_PIR && s->pc == r->pir_pc[instr])
            return (unsigned)(ren_payload(s->word) >> (3 * r->pir_slot[instr]) & 7);
    }
    g_assert_not_reached();
}

/* §14.10 Figure 6(a): add rX, r0, r5 with r0 dead and r5 live: "001". */
static void test_fig6a(void)
{
    ir_func *f = tb_func();
    uint32_t r0 = u32(f), r5 = u32(f), rx = u32(f), ry = u32(f);
    tb_movi(f, r0, 1);
    tb_movi(f, r5, 2);
    uint32_t add = tb_op(f, IR_OP_ADD, IR_T_U32, rx, r0, r5);
    uint32_t last = tb_op(f, IR_OP_ADD, IR_T_U32, ry, r5, rx);
    tb_ret(f);
    ren_info *ri = ren_analyze(f, &no_budget, NULL);
    g_assert_cmpuint(ri->pir[add], ==, 1);
    g_assert_cmpuint(pir_bits(ri, add), ==, 1); /* as encoded in the pir */
    g_assert_cmpuint(ri->rel[add], ==, 1ull << r0);
    g_assert_cmpuint(ri->pir[last], ==, 3); /* r5 and rX both read for the last time */
    g_assert_cmpuint(ri->n_pbr, ==, 0);
    ren_info_free(ri);
    tb_free(f);
}

/* §14.13 (Figure 4b): r defined before a divergent branch and read in both paths is released by a
 * pbr at the immediate post-dominator, not by a pir; 10 such registers need two pbrs. */
static void test_pbr_reconvergence(void)
{
    ir_func *f = tb_func();
    uint32_t p = tb_reg(f, IR_T_PRED), t = u32(f);
    uint32_t r[10];
    for (unsigned i = 0; i < 10; i++) {
        r[i] = u32(f);
        tb_movi(f, r[i], i);
    }
    tb_movi(f, t, 5);
    tb_op(f, IR_OP_SETP, IR_T_S32, p, t, t);
    uint32_t br = tb_bra(f, p, 0); /* to the else path */
    uint32_t a[10], b[10];
    for (unsigned i = 0; i < 10; i++)
        a[i] = tb_op(f, IR_OP_ADD, IR_T_U32, t, r[i], t);
    uint32_t jmp = tb_bra(f, IR_NONE, 0);
    tb_set_target(f, br, tb_label(f));
    for (unsigned i = 0; i < 10; i++)
        b[i] = tb_op(f, IR_OP_ADD, IR_T_U32, t, r[i], t);
    uint32_t join = tb_label(f);
    tb_set_target(f, jmp, join);
    uint32_t st = tb_op(f, IR_OP_ADD, IR_T_U32, t, t, t);
    tb_ret(f);
    ren_info *ri = ren_analyze(f, &no_budget, NULL);
    uint64_t rs = 0;
    for (unsigned i = 0; i < 10; i++) {
        rs |= 1ull << r[i];
        g_assert_cmpuint(ri->rel[a[i]] & (1ull << r[i]), ==, 0); /* no pir bit on either path */
        g_assert_cmpuint(ri->rel[b[i]] & (1ull << r[i]), ==, 0);
    }
    g_assert_cmpuint(ri->pbr[join], ==, rs);
    g_assert_cmpuint(ri->n_pbr, ==, 2); /* 10 IDs: 9 + 1 */
    /* the layout at the join: pbr, pbr, pir, then the instruction; the jump lands on the first pbr */
    uint32_t pc_join = ri->pc[join];
    const ren_slot *s = NULL;
    for (guint k = 0; k < ri->layout->len; k++) {
        s = &g_array_index(ri->layout, ren_slot, k);
        if (s->kind == REN_SLOT_INSTR && s->instr == jmp)
            break;
    }
    g_assert_cmpuint(s->word, ==, pc_join - 3 * REN_INSTR_BYTES);
    const ren_slot *first = &g_array_index(ri->layout, ren_slot, (pc_join / REN_INSTR_BYTES) - 3);
    g_assert_cmpuint(first->kind, ==, REN_SLOT_PBR);
    uint64_t pl = ren_payload(first->word);
    for (unsigned i = 0; i < 9; i++)
        g_assert_cmpuint(pl >> (6 * i) & 63, ==, r[i]);
    const ren_slot *second = &g_array_index(ri->layout, ren_slot, (pc_join / REN_INSTR_BYTES) - 2);
    g_assert_cmpuint(ren_payload(second->word) & 63, ==, r[9]);
    g_assert_cmpuint(ren_payload(second->word) >> 6 & 63, ==, REN_PBR_UNUSED);
    g_assert_cmpuint(ri->pir[st], ==, 0); /* t read and written: the mapping is kept, no release */
    ren_info_free(ri);
    tb_free(f);
}

/* §14.14 (Figure 4d/e): a loop-carried register is released only after the loop; a register written
 * and read inside each iteration is released at its last read in the body. The loop's branch is
 * divergent (its predicate depends on the loop counter, which is all the test knows). */
static void test_loops(void)
{
    ir_func *f = tb_func();
    uint32_t p = tb_reg(f, IR_T_PRED), i = u32(f), sum = u32(f), tmp = u32(f), out = u32(f), inv = u32(f);
    tb_movi(f, i, 0);
    tb_movi(f, sum, 0);
    tb_movi(f, inv, 7); /* read in the loop, not after it */
    uint32_t head = tb_label(f);
    uint32_t ld = tb_op(f, IR_OP_ADD, IR_T_U32, tmp, i, inv);    /* tmp: not loop-carried */
    uint32_t use = tb_op(f, IR_OP_ADD, IR_T_U32, sum, sum, tmp); /* sum: loop-carried */
    tb_op(f, IR_OP_ADD, IR_T_U32, i, i, IR_NONE);
    ir_func_instr(f, f->instrs->len - 1)->src[1].kind = IR_OPND_IMM;
    ir_func_instr(f, f->instrs->len - 1)->n_src = 2;
    tb_op(f, IR_OP_SETP, IR_T_U32, p, i, i);
    tb_bra(f, p, head);
    uint32_t after = tb_label(f);
    uint32_t fin = tb_op(f, IR_OP_ADD, IR_T_U32, out, sum, sum);
    tb_ret(f);
    ren_info *ri = ren_analyze(f, &no_budget, NULL);
    g_assert_cmpuint(ri->rel[use], ==, 1ull << tmp); /* tmp at its last read, every iteration */
    g_assert_cmpuint(ri->rel[use] & (1ull << sum), ==, 0);
    g_assert_cmpuint(ri->rel[ld] & (1ull << inv), ==, 0); /* inv is live around the back edge */
    g_assert_cmpuint(ri->rel[ld] & (1ull << i), ==, 0);
    g_assert_cmpuint(ri->rel[fin], ==, 1ull << sum); /* sum: its first read after the loop */
    g_assert_true(ri->pbr[after] >> inv & 1);        /* inv: a pbr at the loop's exit */
    g_assert_true(ri->pbr[after] >> i & 1);
    for (uint32_t k = head; k < after; k++)
        g_assert_cmpuint(ri->pbr[k], ==, 0);
    ren_info_free(ri);
    tb_free(f);
}

/* A release inside one path of a divergent if is deferred when the other path reads the register;
 * a register defined and dead inside one path (nothing else reads it) keeps its pir. */
static void test_divergent_path(void)
{
    ir_func *f = tb_func();
    uint32_t p = tb_reg(f, IR_T_PRED), r = u32(f), x = u32(f), y = u32(f), z = u32(f);
    tb_movi(f, r, 3);
    tb_op(f, IR_OP_SETP, IR_T_U32, p, r, r);
    uint32_t br = tb_bra(f, p, 0);
    uint32_t a_def = tb_movi(f, x, 1);
    uint32_t a_use = tb_op(f, IR_OP_ADD, IR_T_U32, y, x, r); /* x dead, r read on the other path too */
    uint32_t jmp = tb_bra(f, IR_NONE, 0);
    tb_set_target(f, br, tb_label(f));
    uint32_t b_use = tb_op(f, IR_OP_ADD, IR_T_U32, y, r, r);
    uint32_t join = tb_label(f);
    tb_set_target(f, jmp, join);
    tb_op(f, IR_OP_ADD, IR_T_U32, z, y, y);
    tb_ret(f);
    (void)a_def;
    ren_info *ri = ren_analyze(f, &no_budget, NULL);
    g_assert_cmpuint(ri->rel[a_use], ==, 1ull << x); /* operand 0 only */
    g_assert_cmpuint(ri->pir[a_use], ==, 1);
    g_assert_cmpuint(ri->rel[b_use], ==, 0);
    g_assert_cmpuint(ri->pbr[join], ==, 1ull << r);
    ren_info_free(ri);
    tb_free(f);
}

/* pirs at every block head and every 18 instructions; the code grows by one word per flag
 * instruction. */
static void test_layout(void)
{
    ir_func *f = tb_func();
    uint32_t r = u32(f);
    tb_movi(f, r, 0);
    for (unsigned i = 0; i < 39; i++)
        tb_op(f, IR_OP_ADD, IR_T_U32, r, r, r);
    tb_ret(f); /* 41 instructions, one block: pirs before 0, 18, 36 */
    ren_info *ri = ren_analyze(f, &opts48, NULL);
    g_assert_cmpuint(ri->n_pir, ==, 3);
    g_assert_cmpuint(ri->layout->len, ==, 44);
    g_assert_cmpuint(ri->pc[0], ==, 8);
    g_assert_cmpuint(ri->pc[17], ==, 18 * 8);
    g_assert_cmpuint(ri->pc[18], ==, 20 * 8);
    g_assert_cmpuint(ri->pir_pc[18], ==, 19 * 8);
    g_assert_cmpuint(ri->pir_slot[20], ==, 2);
    g_assert_cmpuint(ri->pir_pc[40], ==, ri->pc[36] - 8);
    ren_info_free(ri);
    tb_free(f);
}

/* A function of `n` registers for the frames test: R0 (and R1 when `l1`) written first and read
 * together at instruction `l0` (R0's value lives l0 instructions, R1's l1 = l0 - 1); every other
 * instruction writes one of R2..R(n-1) (dead values: lifetime 0), the calls among them. */
static void frame_func(GString *s, const char *name, bool entry, unsigned n, unsigned l0, bool l1,
                       const char *const *calls)
{
    g_string_append_printf(s, "%s %s()\n{\n.reg .b32 %%r<%u>;\n", entry ? ".visible .entry" : ".func", name,
                           n);
    g_string_append(s, "mov.u32 %r0, 7;\n");
    unsigned i = 1, x = 2;
    if (l1) {
        g_string_append(s, "mov.u32 %r1, 8;\n");
        i++;
    }
    for (; i < l0; i++) {
        if (calls && *calls) {
            g_string_append_printf(s, "call.uni %s;\n", *calls++);
            continue;
        }
        g_string_append_printf(s, "mov.u32 %%r%u, %u;\n", x, i);
        x = x + 1 < n ? x + 1 : 2;
    }
    g_string_append_printf(s, "add.u32 %%r2, %%r0, %%r%u;\nret;\n}\n", l1 ? 1 : 0);
}

/* Eq. 1 over the frames: kernel k (10 registers) calls f (6) and g (8), f calls h (5). The table
 * holds the frames of one call chain: k + f + h = 21 registers (k + g = 18), so Eq. 1 = 48 x 21 x 10
 * = 10080 bits (k's own registers alone: 4800, under the budget). The budget keeps 17 (48 x 17 x 10
 * = 8160 < 8192): 4 exempt. Lifetimes: h's R0 50, g's R0 45, f's R0 40, k's R0 30 and R1 29, every
 * other register 0. The loop exempts the top-ranked register of a function on a heaviest chain:
 * h.R0 (k+f+h 20, k+g 18), f.R0 (19), g.R0 is skipped (k+g = 18 is not the heaviest), k.R0 (18 and
 * 17), k.R1 (17 and 16): 17 fits. Exempt indices: the entry's first (k.R0 0, k.R1 1), then by
 * function order (h before f in the module): h.R0 2, f.R0 3. */
static void test_frames(void)
{
    GString *s = g_string_new(".version 7.0\n.target sm_70\n.address_size 64\n");
    const char *k_calls[] = {"f", "g", NULL}, *f_calls[] = {"h", NULL};
    frame_func(s, "h", false, 5, 50, false, NULL);
    frame_func(s, "f", false, 6, 40, false, f_calls);
    frame_func(s, "g", false, 8, 45, false, NULL);
    frame_func(s, "k", true, 10, 30, true, k_calls);
    GError *err = NULL;
    ir_module *m = ptx_parse_string(s->str, -1, "frames.ptx", &err);
    g_assert_no_error(err);
    g_string_free(s, TRUE);
    uint32_t fi[4]; /* h f g k */
    const char *names[] = {"h", "f", "g", "k"};
    for (unsigned j = 0; j < 4; j++) {
        fi[j] = IR_NONE;
        for (guint x = 0; x < m->funcs->len; x++)
            if (!strcmp(((ir_func *)g_ptr_array_index(m->funcs, x))->name, names[j]))
                fi[j] = x;
        g_assert_cmpuint(fi[j], !=, IR_NONE);
    }
    g_assert_cmpuint(fi[0], <, fi[1]);
    ren_frames *fr = ren_analyze_frames(m, fi[3], &opts48, &err);
    g_assert_no_error(err);
    const unsigned regs[] = {5, 6, 8, 10}, life0[] = {50, 40, 45, 30};
    for (unsigned j = 0; j < 4; j++) {
        g_assert_nonnull(fr->info[fi[j]]);
        g_assert_cmpuint(fr->info[fi[j]]->n_arch, ==, regs[j]);
        g_assert_cmpuint(fr->info[fi[j]]->lifetime[0], ==, life0[j]);
    }
    g_assert_cmpuint(fr->info[fi[3]]->lifetime[1], ==, 29);
    g_assert_cmpuint(fr->table_regs, ==, 21);
    g_assert_cmpuint(fr->eq1_bits, ==, 10080);
    g_assert_cmpuint(fr->n_exempt, ==, 4);
    g_assert_cmpuint(fr->table_regs_after, ==, 17);
    g_assert_cmpuint(fr->eq1_bits_after, ==, 8160);
    g_assert_cmpuint(fr->chain->len, ==, 3);
    g_assert_cmpuint(g_array_index(fr->chain, uint32_t, 0), ==, fi[3]);
    g_assert_cmpuint(g_array_index(fr->chain, uint32_t, 1), ==, fi[1]);
    g_assert_cmpuint(g_array_index(fr->chain, uint32_t, 2), ==, fi[0]);
    const ren_info *h = fr->info[fi[0]], *f = fr->info[fi[1]], *g = fr->info[fi[2]], *k = fr->info[fi[3]];
    g_assert_cmpuint(k->exempt, ==, 3);
    g_assert_cmpuint(h->exempt, ==, 1);
    g_assert_cmpuint(f->exempt, ==, 1);
    g_assert_cmpuint(g->exempt, ==, 0);
    g_assert_cmpuint(k->exempt_rank[0], ==, 0);
    g_assert_cmpuint(k->exempt_rank[1], ==, 1);
    g_assert_cmpuint(h->exempt_rank[0], ==, 2);
    g_assert_cmpuint(f->exempt_rank[0], ==, 3);
    /* exempt registers keep no release bit: k's last read of R0 and R1 releases nothing */
    for (unsigned j = 0; j < 4; j++) {
        const ren_info *in = fr->info[fi[j]];
        for (uint32_t i = 0; i < in->n_instrs; i++)
            g_assert_cmpuint(in->rel[i] & in->exempt, ==, 0);
    }
    g_assert_cmpuint(g->rel[45], ==, 1); /* g's R0 is renamed: released at its last read */
    ren_frames_free(fr);

    /* a budget that holds every frame: nothing exempt; "<=" at exactly 48 x 21 x 10 */
    ren_opts le = {48, 10080, 10, true};
    fr = ren_analyze_frames(m, fi[3], &le, &err);
    g_assert_cmpuint(fr->n_exempt, ==, 0);
    g_assert_cmpuint(fr->eq1_bits_after, ==, 10080);
    ren_frames_free(fr);
    le.le = false; /* "<": 21 no longer fits, the top-ranked register of the heaviest chain goes */
    fr = ren_analyze_frames(m, fi[3], &le, &err);
    g_assert_cmpuint(fr->n_exempt, ==, 1);
    g_assert_cmpuint(fr->info[fi[0]]->exempt, ==, 1);
    g_assert_cmpuint(fr->table_regs_after, ==, 20);
    ren_frames_free(fr);
    ir_module_free(m);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/renaming/sizes", test_sizes);
    g_test_add_func("/renaming/exemption", test_exemption_loop);
    g_test_add_func("/renaming/fig6a_pir", test_fig6a);
    g_test_add_func("/renaming/pbr_reconvergence", test_pbr_reconvergence);
    g_test_add_func("/renaming/loops", test_loops);
    g_test_add_func("/renaming/divergent_path", test_divergent_path);
    g_test_add_func("/renaming/layout", test_layout);
    g_test_add_func("/renaming/frames", test_frames);
    return g_test_run();
}
