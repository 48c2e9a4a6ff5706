/* test_regalloc_frun.c — the rewrites of the analysis passes preserve what kernels compute: every
 * workload is run on the functional runner (tiny size) after rematerialization + allocation
 * (regalloc_module) and after critical-edge splitting, and checked against its CPU reference. */
#include "kernels/cfg.h"
#include "kernels/frun.h"
#include "kernels/ptx_parse.h"
#include "kernels/regalloc.h"
#include "kernels/workload.h"

typedef enum { REWRITE_NONE, REWRITE_REGALLOC, REWRITE_SPLIT } rewrite;

static int run_workload(const workload *w, rewrite rw, GString *err)
{
    const char *src = g_getenv("top_srcdir");
    char *path = g_build_filename(src ? src : ".", "kernels", "ptx", w->ptx, NULL);
    GError *gerr = NULL;
    ir_module *m = ptx_parse_file(path, &gerr);
    g_assert_no_error(gerr);
    g_free(path);
    for (guint i = 0; i < m->funcs->len; i++) {
        ir_func *f = g_ptr_array_index(m->funcs, i);
        if (!f->is_defined)
            continue;
        if (rw == REWRITE_SPLIT)
            cfg_split_critical_edges(f);
    }
    if (rw == REWRITE_REGALLOC) {
        regalloc_module(m, NULL);
        for (guint i = 0; i < m->funcs->len; i++) {
            ir_func *f = g_ptr_array_index(m->funcs, i);
            if (f->is_defined)
                g_assert_true(regalloc_check(f, NULL));
        }
    }
    wl_device *dev = frun_device_new(m, err);
    g_assert_nonnull(dev);
    int rc = w->run(WL_SIZE_TINY, 1, dev, err);
    frun_device_free(dev);
    ir_module_free(m);
    return rc;
}

static void test_workloads(void)
{
    unsigned checked = 0;
    for (unsigned i = 0; i < workload_count(); i++) {
        const workload *w = workload_get(i);
        GString *err = g_string_new(NULL);
        if (run_workload(w, REWRITE_NONE, err) != 0) {
            /* The runner itself fails here: nothing to compare the rewrites with. */
            g_test_message("%s: fails unmodified (%s), skipped", w->name, err->str);
            g_string_free(err, TRUE);
            continue;
        }
        for (rewrite rw = REWRITE_REGALLOC; rw <= REWRITE_SPLIT; rw++) {
            g_string_truncate(err, 0);
            int rc = run_workload(w, rw, err);
            if (rc != 0)
                g_test_message("%s after %s: %s", w->name, rw == REWRITE_REGALLOC ? "regalloc" : "split", err->str);
            g_assert_cmpint(rc, ==, 0);
        }
        g_string_free(err, TRUE);
        checked++;
    }
    g_test_message("%u workloads checked", checked);
    g_assert_cmpuint(checked, >, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/regalloc/frun-workloads", test_workloads);
    return g_test_run();
}
