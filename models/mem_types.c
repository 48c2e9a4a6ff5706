/* mem_types.c — field tables of the memory payloads (mem_types.h). */
#include "models/mem_types.h"

#include <stddef.h>
#include <string.h>

#include "kernels/semantics/ir_exec.h"

static const char *kind_name(unsigned v)
{
    static const char *const n[] = {"read", "write", "atomic", "writeback"};
    return v < G_N_ELEMENTS(n) ? n[v] : "?";
}
static const char *client_name(unsigned v)
{
    static const char *const n[] = {"ldst", "fetch", "const", "iu"};
    return v < G_N_ELEMENTS(n) ? n[v] : "?";
}
const gsc_enum mem_kind_enum = {"kind", 4, kind_name};
const gsc_enum mem_client_enum = {"client", 4, client_name};

static const gsc_field mem_req_fields[] = {
    GSC_FIELD(mem_req_t, addr, GSC_U64, 48),
    GSC_FIELD(mem_req_t, id, GSC_U64, 64),
    GSC_FIELD(mem_req_t, mask_lo, GSC_U64, 64),
    GSC_FIELD(mem_req_t, mask_hi, GSC_U64, 64),
    GSC_FIELD(mem_req_t, bytes, GSC_U32, 8),
    GSC_FIELD(mem_req_t, src, GSC_U16, 8),
    GSC_FIELD(mem_req_t, warp, GSC_U16, 8),
    GSC_FIELD_ENUM(mem_req_t, kind, GSC_U8, 2, mem_kind_enum),
    GSC_FIELD_ENUM(mem_req_t, client, GSC_U8, 2, mem_client_enum),
    GSC_FIELD(mem_req_t, data, GSC_OPAQUE, 0),
    GSC_FIELD(mem_req_t, atom, GSC_OPAQUE, 0),
};
/* What a request carries, by kind (gsc_type.used_by_key): a read its header only, a write its data too, an
 * atomic everything. A FIFO copies no more. */
static const size_t mem_req_used[] = {
    [MEM_READ] = offsetof(mem_req_t, data),
    [MEM_WRITE] = offsetof(mem_req_t, atom),
    [MEM_ATOMIC] = sizeof(mem_req_t),
    [MEM_WRITEBACK] = offsetof(mem_req_t, atom),
};
const gsc_type mem_req_type = GSC_TYPE_USED_BY_KEY(mem_req_t, mem_req_fields, kind, mem_req_used);

static const gsc_field mem_resp_fields[] = {
    GSC_FIELD(mem_resp_t, addr, GSC_U64, 48),
    GSC_FIELD(mem_resp_t, id, GSC_U64, 64),
    GSC_FIELD(mem_resp_t, bytes, GSC_U32, 8),
    GSC_FIELD(mem_resp_t, dst, GSC_U16, 8),
    GSC_FIELD(mem_resp_t, warp, GSC_U16, 8),
    GSC_FIELD_ENUM(mem_resp_t, kind, GSC_U8, 2, mem_kind_enum),
    GSC_FIELD_ENUM(mem_resp_t, client, GSC_U8, 2, mem_client_enum),
    GSC_FIELD(mem_resp_t, data, GSC_OPAQUE, 0),
    GSC_FIELD(mem_resp_t, atom_old, GSC_OPAQUE, 0),
};
/* A write's acknowledgement carries its header, a read's reply the line too, an atomic's reply the
 * old values as well. */
static const size_t mem_resp_used[] = {
    [MEM_READ] = offsetof(mem_resp_t, atom_old),
    [MEM_WRITE] = offsetof(mem_resp_t, data),
    [MEM_ATOMIC] = sizeof(mem_resp_t),
    [MEM_WRITEBACK] = offsetof(mem_resp_t, data),
};
const gsc_type mem_resp_type = GSC_TYPE_USED_BY_KEY(mem_resp_t, mem_resp_fields, kind, mem_resp_used);

void mem_line_read(fmem *m, uint64_t addr, unsigned bytes, uint8_t *dst)
{
    uint64_t pos = addr, end = addr + bytes;
    while (pos < end) {
        const fmem_region *r = m ? fmem_find(m, pos) : NULL;
        if (!r) {
            dst[pos - addr] = 0; /* unmapped: one byte at a time, rare (a line's head before a region) */
            pos++;
            continue;
        }
        uint64_t stop = MIN(end, r->base + r->size);
        memcpy(dst + (pos - addr), r->data + (pos - r->base), stop - pos);
        pos = stop;
    }
}

bool mem_atomic_perform(fmem *m, const mem_req_t *req, uint64_t old_out[MEM_ATOM_LANES], GString *err)
{
    const mem_atom_t *a = &req->atom;
    if (a->lanes == 0)
        return true; /* the SM performed the operation itself (at issue) and sends it for timing */
    if (a->esize != 4 && a->esize != 8) {
        g_string_append_printf(err, "atomic element size %u is not 4 or 8", a->esize);
        return false;
    }
    /* ir_exec_atom reads only the operation, the type and the flags of the instruction. */
    ir_instr in;
    memset(&in, 0, sizeof in);
    in.atom = a->op;
    in.type = a->type;
    in.flags = a->flags;
    uint32_t lanes = a->lanes;
    while (lanes) {
        unsigned l = (unsigned)__builtin_ctz(lanes);
        lanes &= lanes - 1;
        uint64_t ea = req->addr + a->offset[l];
        uint8_t *p = m ? fmem_translate(m, ea, a->esize, true) : NULL;
        if (!p) {
            g_string_append_printf(err, "atomic on lane %u at 0x%" G_GINT64_MODIFIER "x: ", l, ea);
            if (m)
                fmem_describe_fault(m, ea, a->esize, true, err);
            else
                g_string_append(err, "no memory image");
            return false;
        }
        uint64_t old = ir_exec_load_value((ir_type)a->type, p);
        ir_exec_store_value((ir_type)a->type, ir_exec_atom(&in, old, a->b[l], a->c[l]), p);
        old_out[l] = old;
    }
    return true;
}
