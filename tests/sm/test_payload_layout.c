/* test_payload_layout — what a FIFO copies of the SM's hot items (models/sm/payloads.h): a non-memory
 * instruction's issued_t up to its last source bank register, a memory instruction's fields after that
 * cut, and the ring slots and I-buffer entries on whole cache lines. */
#include <glib.h>
#include <string.h>

#include "models/sm/payloads.h"
#include "sc/gsc.h"

/* Fields a memory instruction alone carries: after the cut that a non-memory instruction's copy makes. */
static const char *const mem_only[] = {"atom_lanes", "atom_flags", "atom_op",     "atom_type",
                                       "atom_dst",   "atom_vmask", "store_lanes", "lane_space",
                                       "addr",       "atom_b",     "atom_c"};

static bool is_mem_only(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(mem_only); i++)
        if (!strcmp(name, mem_only[i]))
            return true;
    return false;
}

/* issued_type's used prefix by class and kind, and every field on the right side of the cut. */
static void test_issued_used(void)
{
    issued_t it;
    memset(&it, 0, sizeof it);
    it.cls = IR_CLASS_ALU;
    size_t cut = offsetof(issued_t, bank_src);
    for (unsigned n = 0; n <= SM_MAX_BANK_READS; n++) {
        it.n_bank_src = (uint8_t)n;
        g_assert_cmpuint(issued_type.used(&it), ==, cut + n * sizeof it.bank_src[0]);
    }
    it.n_bank_src = 3; /* an FFMA's three 32-bit sources: with its ring stamp, two cache lines */
    g_assert_cmpuint(sizeof(int64_t) + issued_type.used(&it), <=, 128);
    it.cls = IR_CLASS_MEM;
    it.kind = 0; /* a load: the header, lane spaces and addresses */
    g_assert_cmpuint(issued_type.used(&it), ==, offsetof(issued_t, atom_b));
    for (uint8_t k = 1; k <= 3; k++) { /* a store, an atomic, a reduction: their operands too */
        it.kind = k;
        g_assert_cmpuint(issued_type.used(&it), ==, sizeof it);
    }
    size_t end = cut + sizeof it.bank_src;
    g_assert_cmpuint(issued_type.n_fields, >, G_N_ELEMENTS(mem_only));
    for (unsigned i = 0; i < issued_type.n_fields; i++) {
        const gsc_field *f = &issued_type.fields[i];
        if (!strcmp(f->name, "bank_src"))
            g_assert_cmpuint(f->offset, ==, cut);
        else if (is_mem_only(f->name))
            g_assert_cmpuint(f->offset, >=, end);
        else /* in every instruction's copy */
            g_assert_cmpuint(f->offset + f->size, <=, cut);
    }
}

/* decoded_t's 120 bytes: a FIFO's ring slot (its put cycle and the item) and an I-buffer or decode
 * cache entry (decoded_line_t) are two whole lines. The FIFOs' strides as sc/ makes them. */
static void test_lines(void)
{
    g_assert_cmpuint(sizeof(decoded_t), ==, 120);
    g_assert_cmpuint(sizeof(decoded_line_t), ==, 128);
    g_assert_cmpuint(_Alignof(decoded_line_t), ==, 64);
    gsc_init("test_payload_layout");
    gsc_module *top = gsc_module_new(NULL, "tb");
    gsc_fifo *d = gsc_fifo_new(top, "d", &decoded_type, 2), *i = gsc_fifo_new(top, "i", &issued_type, 2);
    const gsc_fifo_hdr *hd = (const gsc_fifo_hdr *)(const void *)d,
                       *hi = (const gsc_fifo_hdr *)(const void *)i;
    g_assert_cmpuint(hd->stride, ==, 128);
    g_assert_cmpuint(hi->stride % 64, ==, 0);
    g_assert_cmpuint((uintptr_t)hd->ring % 64, ==, 0);
    g_assert_cmpuint((uintptr_t)hi->ring % 64, ==, 0);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/payloads/issued-used", test_issued_used);
    g_test_add_func("/payloads/lines", test_lines);
    return g_test_run();
}
