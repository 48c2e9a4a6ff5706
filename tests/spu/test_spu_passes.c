/* test_spu_passes — the SPU runtime's pass decomposition and unit-step timelines
 * (models/spu/spu_passes.h) against the spec's worked examples, exactly: UT-2 (pass grids and
 * partial flags of every Table 6.2 / A.1 row, 10 x 10 CTAs on 4 x 4, the CTA -> SM map), UT-4 (the
 * 4 x 4 x 4-tile timelines on 4 x 4 and 2 x 2 SPUs: 10, 40, 24 and 18 steps, every start listed
 * in the spec) and UT-5 (spills per VIU per pass). */
#include <glib.h>

#include "models/spu/spu_passes.h"

static void test_ut2_example(void)
{
    spu_passes ps;
    spu_passes_init(&ps, 2, 4); /* 4 x 4 CTAs on a 2 x 2 SPU */
    g_assert_cmpuint(ps.P, ==, 2);
    g_assert_false(ps.partial);
    static const unsigned want[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}}; /* row-wise */
    for (unsigned q = 0; q < 4; q++) {
        unsigned px, py;
        spu_passes_coord(&ps, q, &px, &py);
        g_assert_cmpuint(px, ==, want[q][0]);
        g_assert_cmpuint(py, ==, want[q][1]);
        g_assert_cmpuint(spu_passes_occupancy(&ps, px, py), ==, 4);
    }
    for (unsigned j = 0; j < 4; j++)
        for (unsigned i = 0; i < 4; i++) {
            g_assert_cmpuint(spu_passes_sm_of(&ps, i, j), ==, (j % 2) * 2 + i % 2);
            g_assert_cmpuint(spu_passes_pass_of(&ps, i, j), ==, (j / 2) * 2 + i / 2);
        }
}

static void test_ut2_tables(void)
{
    /* Table 6.2 (b = 32) and A.1 (b = 64): N, b, passes per dimension, partial */
    static const struct {
        unsigned N, b, P;
        bool partial;
    } rows[] = {{128, 32, 1, false}, {256, 32, 2, false}, {320, 32, 3, true},
                {384, 32, 3, false}, {512, 32, 4, false}, {256, 64, 1, false},
                {512, 64, 2, false}, {768, 64, 3, false}, {1024, 64, 4, false}};
    for (unsigned r = 0; r < G_N_ELEMENTS(rows); r++) {
        spu_passes ps;
        spu_passes_init(&ps, 4, rows[r].N / rows[r].b);
        g_assert_cmpuint(ps.P, ==, rows[r].P);
        g_assert_cmpint(ps.partial, ==, rows[r].partial);
    }
    spu_passes ps; /* N = 320, b = 32: spans 4, 4, 2; occupancies 16, 8, 8 and 4 (corner) */
    spu_passes_init(&ps, 4, 10);
    g_assert_cmpuint(spu_passes_span(&ps, 0), ==, 4);
    g_assert_cmpuint(spu_passes_span(&ps, 1), ==, 4);
    g_assert_cmpuint(spu_passes_span(&ps, 2), ==, 2);
    g_assert_cmpuint(spu_passes_occupancy(&ps, 0, 0), ==, 16);
    g_assert_cmpuint(spu_passes_occupancy(&ps, 2, 0), ==, 8);
    g_assert_cmpuint(spu_passes_occupancy(&ps, 0, 2), ==, 8);
    g_assert_cmpuint(spu_passes_occupancy(&ps, 2, 2), ==, 4);
    g_assert_cmpuint(spu_passes_sm_of(&ps, 9, 6), ==, 2 * 4 + 1);
}

/* SPU spec §4.3 with its default (§17 item 9): 10 x 10 CTAs (N = 320, b = 32) on 4 x 4. Every SM's
 * role in every one of the 3 x 3 passes, as a map: C runs a CTA, E acts as the east interface unit,
 * S as the south one, . idles (row y = 0..3 of the grid, x = 0..3 left to right). */
static void test_partial_roles(void)
{
    spu_passes ps;
    spu_passes_init(&ps, 4, 10);
    static const char *const want[3][3] = {
        /* py = 0 */ {"CCCC CCCC CCCC CCCC", "CCCC CCCC CCCC CCCC", "CCE. CCE. CCE. CCE."},
        /* py = 1 */ {"CCCC CCCC CCCC CCCC", "CCCC CCCC CCCC CCCC", "CCE. CCE. CCE. CCE."},
        /* py = 2 */ {"CCCC CCCC SSSS ....", "CCCC CCCC SSSS ....", "CCE. CCE. SS.. ...."},
    };
    static const char code[] = {
        [SPU_ROLE_NONE] = '.', [SPU_ROLE_CTA] = 'C', [SPU_ROLE_IU_EAST] = 'E', [SPU_ROLE_IU_SOUTH] = 'S'};
    unsigned ctas = 0;
    for (unsigned py = 0; py < 3; py++)
        for (unsigned px = 0; px < 3; px++) {
            char got[20] = {0};
            unsigned n = 0, c = 0;
            for (unsigned y = 0; y < 4; y++) {
                for (unsigned x = 0; x < 4; x++) {
                    spu_role r = spu_passes_role(&ps, x, y, px, py);
                    got[n++] = code[r];
                    c += r == SPU_ROLE_CTA;
                }
                if (y < 3)
                    got[n++] = ' ';
            }
            g_assert_cmpstr(got, ==, want[py][px]);
            g_assert_cmpuint(c, ==, spu_passes_occupancy(&ps, px, py)); /* 16, 8, 8, 4 */
            ctas += c;
        }
    g_assert_cmpuint(ctas, ==, 100);
    /* full passes: every SM runs a CTA in every pass */
    spu_passes full;
    spu_passes_init(&full, 2, 4);
    for (unsigned q = 0; q < 4; q++)
        for (unsigned sm = 0; sm < 4; sm++)
            g_assert_cmpint(spu_passes_role(&full, sm % 2, sm / 2, q % 2, q / 2), ==, SPU_ROLE_CTA);
}

/* The border units a pass of the 10 x 10-CTA example uses (N, W, S, E: which of the 4 units of the
 * side serve it, 1 = serves): loaders where the pass occupies their column or row; storers only where
 * the pass reaches the grid's edge on their side (else the SMs stand in). */
static void test_border_serves(void)
{
    spu_passes ps;
    spu_passes_init(&ps, 4, 10);
    static const char *const want[3][3] = {
        /* py = 0 */ {"1111 1111 1111 1111", "1111 1111 1111 1111", "1100 1111 1100 0000"},
        /* py = 1 */ {"1111 1111 1111 1111", "1111 1111 1111 1111", "1100 1111 1100 0000"},
        /* py = 2 */ {"1111 1100 0000 1100", "1111 1100 0000 1100", "1100 1100 0000 0000"},
    };
    for (unsigned py = 0; py < 3; py++)
        for (unsigned px = 0; px < 3; px++) {
            char got[20] = {0};
            unsigned n = 0;
            for (unsigned side = 0; side < 4; side++) { /* N, W, S, E */
                for (unsigned k = 0; k < 4; k++)
                    got[n++] = spu_passes_border_serves(&ps, side % 2 == 0, side >= 2, k, px, py) ? '1' : '0';
                if (side < 3)
                    got[n++] = ' ';
            }
            g_assert_cmpstr(got, ==, want[py][px]);
        }
}

static void test_ut4(void)
{
    unsigned st[16];
    spu_passes one;
    spu_passes_init(&one, 4, 4); /* Fig. 4.1: 4 x 4 SPU, global sync */
    g_assert_cmpuint(spu_passes_timeline(&one, 4, SPU_TL_GLOBAL, st), ==, 10);
    for (unsigned j = 0; j < 4; j++)
        for (unsigned i = 0; i < 4; i++)
            g_assert_cmpuint(st[j * 4 + i], ==, i + j);

    spu_passes ps;
    spu_passes_init(&ps, 2, 4);
    /* global, pass by pass: 40 steps; in pass 1, (2,0) computes at 2..5 and (3,1) at 4..7 */
    g_assert_cmpuint(spu_passes_timeline(&ps, 4, SPU_TL_GLOBAL, st), ==, 40);
    g_assert_cmpuint(st[0 * 4 + 2] - 10, ==, 2);
    g_assert_cmpuint(st[1 * 4 + 3] - 10, ==, 4);
    g_assert_cmpuint(st[0 * 4 + 0], ==, 0);
    g_assert_cmpuint(st[1 * 4 + 1] + 3, ==, 5); /* pass 0's last tile at t = 5 */

    /* localized, pass by pass: 24 steps; pass 1 starts at t = 6 */
    g_assert_cmpuint(spu_passes_timeline(&ps, 4, SPU_TL_LOCAL, st), ==, 24);
    g_assert_cmpuint(st[0 * 4 + 2], ==, 6);
    g_assert_cmpuint(st[0 * 4 + 0] + 3, ==, 3); /* SM (0,0) done with pass 0 by t = 3 */

    /* localized + overlapped: every start the spec lists; 18 steps */
    static const unsigned want[16] = {
        /* j = 0 */ 0, 1,  4,  5,
        /* j = 1 */ 1, 2,  5,  6,
        /* j = 2 */ 8, 9,  12, 13,
        /* j = 3 */ 9, 10, 13, 14,
    };
    g_assert_cmpuint(spu_passes_timeline(&ps, 4, SPU_TL_OVERLAP, st), ==, 18);
    for (unsigned c = 0; c < 16; c++)
        g_assert_cmpuint(st[c], ==, want[c]);
    /* utilisation: 64 tile-steps over 4 SMs: 88.9 %, 66.7 %, 40 % */
    g_assert_cmpuint(64 * 1000 / (4 * 18), ==, 888);
    g_assert_cmpuint(64 * 1000 / (4 * 24), ==, 666);
    g_assert_cmpuint(64 * 1000 / (4 * 40), ==, 400);
}

static void test_ut5(void)
{
    spu_passes ps;
    spu_passes_init(&ps, 2, 4);
    unsigned useful;
    g_assert_cmpuint(spu_passes_spills(&ps, 4, SPU_TL_GLOBAL, &useful), ==, 10);
    g_assert_cmpuint(useful, ==, 4);
    g_assert_cmpuint(spu_passes_spills(&ps, 4, SPU_TL_OVERLAP, &useful), ==, 4);
    g_assert_cmpuint(useful, ==, 4);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/spu/passes/ut2-example", test_ut2_example);
    g_test_add_func("/spu/passes/ut2-tables", test_ut2_tables);
    g_test_add_func("/spu/passes/partial-roles", test_partial_roles);
    g_test_add_func("/spu/passes/border-serves", test_border_serves);
    g_test_add_func("/spu/passes/ut4-timelines", test_ut4);
    g_test_add_func("/spu/passes/ut5-spills", test_ut5);
    return g_test_run();
}
