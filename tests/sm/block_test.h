/* block_test.h — helpers of the harness tests of the SM's passive blocks (test_scoreboard,
 * test_ibuffer, test_barrier, test_arbiter, test_decode): the block under test with its export
 * looked up, a VCD written in a temporary directory and read back, traced values by cycle. */
#ifndef GPUSC_TESTS_SM_BLOCK_TEST_H
#define GPUSC_TESTS_SM_BLOCK_TEST_H

#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "kernels/run/kload.h"
#include "models/core/harness.h"
#include "models/core/vcd.h"
#include "models/sm/sm_env.h"

/* The block in its harness and its export as a client sees it (m: the method table, cast by the
 * test to the interface's type). */
typedef struct {
    harness *h;
    const void *m;
    void *self;
} block_dut;

/* harness_new(desc, make, settings, vcd_path) and the export `export`; `step`: run the first step
 * (elaboration) now, else the test does it after stubbing imports. */
static inline block_dut block_dut_new(const blk_desc *desc, harness_ctor make, const char *export,
                                      const char *const *settings, const char *vcd_path, bool step)
{
    block_dut d;
    d.h = harness_new(desc, make, settings, vcd_path);
    blk_iref r = harness_export(d.h, export);
    d.m = r.methods;
    d.self = r.self;
    if (step)
        harness_step(d.h);
    return d;
}

static inline uint64_t block_stat(const block_dut *d, unsigned i)
{
    return blk_stat_get(harness_inst(d->h), i);
}

/* An environment for blocks of one SM (the tests keep it in a static): module `mod` laid out in a new
 * memory image, the launch's entry the kernel named `entry`. */
static inline void block_env_init(sm_env *env, ir_module *mod, const char *entry)
{
    env->mod = mod;
    env->mem = fmem_new();
    GString *e = g_string_new(NULL);
    env->k = kload_module_new(env->mod, env->mem, e);
    g_assert_nonnull(env->k);
    g_string_free(e, TRUE);
    env->n_sms = 1;
    env->error = g_string_new(NULL);
    env->launch.entry = kload_find_entry(env->k, entry);
    g_assert_cmpuint(env->launch.entry, !=, IR_NONE);
}

/* A path for a VCD in a new temporary directory (free it with block_vcd_load). */
static inline char *block_vcd_path(void)
{
    char *dir = g_dir_make_tmp("gpusc-block-XXXXXX", NULL);
    g_assert_nonnull(dir);
    char *path = g_build_filename(dir, "t.vcd", NULL);
    g_free(dir);
    return path;
}

/* Loads the VCD at path (from block_vcd_path, after harness_free closed it), then removes it and its
 * directory and frees path. */
static inline vcd *block_vcd_load(char *path)
{
    GError *err = NULL;
    vcd *v = vcd_load(path, &err);
    g_assert_no_error(err);
    char *dir = g_path_get_dirname(path);
    g_unlink(path);
    g_rmdir(dir);
    g_free(dir);
    g_free(path);
    return v;
}

/* The value of traced signal `name` in cycle `cycle` as the block's clients see it: at the cycle's
 * start (time cycle x period). What the test's calls between two steps change belongs to the next
 * cycle (written at its time, with its changes), as a latch written between runs is read in the
 * next cycle. */
static inline uint64_t block_vcd_at(const vcd *v, const char *name, uint64_t cycle)
{
    int s = vcd_find(v, name);
    if (s < 0)
        g_error("no signal %s in the VCD", name);
    const char *x = vcd_value_at_time(v, (unsigned)s, cycle * HARNESS_PERIOD_PS);
    g_assert_nonnull(x);
    g_assert_true(strspn(x, "01") == strlen(x));
    return g_ascii_strtoull(x, NULL, 2);
}

#endif /* GPUSC_TESTS_SM_BLOCK_TEST_H */
