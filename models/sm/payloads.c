/* payloads.c — field tables of the SM payloads (payloads.h). */
#include "models/sm/payloads.h"

#include <stddef.h>
#include <string.h>

/* The enumerations the waveform views show by name (GTKWave translate filters, from the name
 * tables of kernels/frontend/ir.c and this file). */
static const char *op_name(unsigned v)
{
    return ir_op_name((ir_opcode)v);
}
static const char *class_name(unsigned v)
{
    return ir_class_name((ir_class)v);
}
static const char *space_name(unsigned v)
{
    return v ? ir_space_name((ir_space)v) : "generic";
}
static const char *unit_name(unsigned v)
{
    return sm_unit_name((sm_unit)v);
}
static const char *access_name(unsigned v)
{
    static const char *const n[] = {"load", "store", "atomic", "reduction"};
    return v < G_N_ELEMENTS(n) ? n[v] : "?";
}
const gsc_enum sm_op_enum = {"op", IR_OP_COUNT, op_name};
const gsc_enum sm_class_enum = {"class", IR_CLASS_COUNT, class_name};
const gsc_enum sm_space_enum = {"space", IR_SPACE_COUNT, space_name};
const gsc_enum sm_unit_enum = {"unit", SM_UNIT_COUNT, unit_name};
const gsc_enum sm_access_enum = {"access", 4, access_name};

static const gsc_field cta_launch_fields[] = {
    GSC_FIELD(cta_launch_t, kernel, GSC_U32, 16),  GSC_FIELD(cta_launch_t, cta, GSC_U32, 32),
    GSC_FIELD(cta_launch_t, slot, GSC_U16, 6),     GSC_FIELD(cta_launch_t, first_warp, GSC_U16, 7),
    GSC_FIELD(cta_launch_t, warps, GSC_U16, 7),    GSC_FIELD(cta_launch_t, sm, GSC_U16, 8),
    GSC_FIELD(cta_launch_t, threads, GSC_U32, 12), GSC_FIELD(cta_launch_t, smem_bytes, GSC_U32, 20),
    GSC_FIELD(cta_launch_t, regs, GSC_U32, 20),    GSC_FIELD(cta_launch_t, ctaid, GSC_OPAQUE, 0),
};
const gsc_type cta_launch_type = GSC_TYPE(cta_launch_t, cta_launch_fields);

static const gsc_field cta_done_fields[] = {
    GSC_FIELD(cta_done_t, cta, GSC_U32, 32),  GSC_FIELD(cta_done_t, slot, GSC_U16, 6),
    GSC_FIELD(cta_done_t, sm, GSC_U16, 8),    GSC_FIELD(cta_done_t, warps, GSC_U16, 7),
    GSC_FIELD(cta_done_t, regs, GSC_U32, 20), GSC_FIELD(cta_done_t, smem_bytes, GSC_U32, 20),
    GSC_FIELD(cta_done_t, failed, GSC_U8, 1),
};
const gsc_type cta_done_type = GSC_TYPE(cta_done_t, cta_done_fields);

static const gsc_field decoded_fields[] = {
    GSC_FIELD(decoded_t, warp, GSC_U16, 7),
    GSC_FIELD(decoded_t, epoch, GSC_U16, 16),
    GSC_FIELD(decoded_t, func, GSC_U32, 8),
    GSC_FIELD(decoded_t, pc, GSC_U32, 16),
    GSC_FIELD_ENUM(decoded_t, cls, GSC_U8, 4, sm_class_enum),
    GSC_FIELD_ENUM(decoded_t, op, GSC_U8, 8, sm_op_enum),
    GSC_FIELD(decoded_t, ctrl, GSC_U8, 1),
    GSC_FIELD(decoded_t, n_src, GSC_U16, 4),
    GSC_FIELD(decoded_t, n_dst, GSC_U16, 3),
    GSC_FIELD(decoded_t, src, GSC_OPAQUE, 0),
    GSC_FIELD(decoded_t, dst, GSC_OPAQUE, 0),
    GSC_FIELD(decoded_t, annot, GSC_U64, 64),
    GSC_FIELD(decoded_t, n_bank_src, GSC_U8, 5),
    GSC_FIELD(decoded_t, n_bank_dst, GSC_U8, 4),
    GSC_FIELD(decoded_t, bank_src, GSC_OPAQUE, 0),
    GSC_FIELD(decoded_t, bank_dst, GSC_OPAQUE, 0),
};
const gsc_type decoded_type = GSC_TYPE(decoded_t, decoded_fields);

static const gsc_field redirect_fields[] = {
    GSC_FIELD(redirect_t, warp, GSC_U16, 7), GSC_FIELD(redirect_t, epoch, GSC_U16, 16),
    GSC_FIELD(redirect_t, func, GSC_U32, 8), GSC_FIELD(redirect_t, pc, GSC_U32, 16),
    GSC_FIELD(redirect_t, done, GSC_U8, 1),
};
const gsc_type redirect_type = GSC_TYPE(redirect_t, redirect_fields);

static const gsc_field credit_fields[] = {
    GSC_FIELD(credit_t, warp, GSC_U16, 7),
    GSC_FIELD(credit_t, epoch, GSC_U16, 16),
    GSC_FIELD(credit_t, count, GSC_U16, 4),
};
const gsc_type credit_type = GSC_TYPE(credit_t, credit_fields);

static const gsc_field issued_fields[] = {
    GSC_FIELD(issued_t, seq, GSC_U64, 64),
    GSC_FIELD(issued_t, issue_cycle, GSC_U64, 64),
    GSC_FIELD(issued_t, warp, GSC_U16, 7),
    GSC_FIELD(issued_t, sched, GSC_U16, 3),
    GSC_FIELD(issued_t, pc, GSC_U32, 16),
    GSC_FIELD(issued_t, func, GSC_U32, 8),
    GSC_FIELD(issued_t, mask, GSC_U32, 32),
    GSC_FIELD_ENUM(issued_t, cls, GSC_U8, 4, sm_class_enum),
    GSC_FIELD_ENUM(issued_t, op, GSC_U8, 8, sm_op_enum),
    GSC_FIELD_ENUM(issued_t, space, GSC_U8, 3, sm_space_enum),
    GSC_FIELD_ENUM(issued_t, kind, GSC_U8, 2, sm_access_enum),
    GSC_FIELD(issued_t, bytes, GSC_U8, 6),
    GSC_FIELD(issued_t, long_op, GSC_U8, 1),
    GSC_FIELD(issued_t, report_reads, GSC_U8, 1),
    GSC_FIELD(issued_t, n_src, GSC_U16, 4),
    GSC_FIELD(issued_t, n_dst, GSC_U16, 3),
    GSC_FIELD(issued_t, src, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, dst, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, n_bank_src, GSC_U8, 5),
    GSC_FIELD(issued_t, n_bank_dst, GSC_U8, 4),
    GSC_FIELD(issued_t, bank_src, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, bank_dst, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, atom_lanes, GSC_U32, 32),
    GSC_FIELD(issued_t, atom_flags, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, atom_op, GSC_U8, 4),
    GSC_FIELD(issued_t, atom_type, GSC_U8, 5),
    GSC_FIELD(issued_t, atom_dst, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, atom_vmask, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, store_lanes, GSC_U32, 32),
    GSC_FIELD(issued_t, annot, GSC_U64, 64),
    GSC_FIELD(issued_t, lane_space, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, addr, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, atom_b, GSC_OPAQUE, 0),
    GSC_FIELD(issued_t, atom_c, GSC_OPAQUE, 0),
};
/* What an issued instruction carries (gsc_type.used): issued_bytes. */
static size_t issued_used(const void *item)
{
    return issued_bytes(item);
}
const gsc_type issued_type = GSC_TYPE_USED(issued_t, issued_fields, issued_used);

static const gsc_field release_fields[] = {
    GSC_FIELD(release_t, seq, GSC_U64, 64),      GSC_FIELD(release_t, warp, GSC_U16, 7),
    GSC_FIELD(release_t, n_dst, GSC_U16, 3),     GSC_FIELD(release_t, dst, GSC_OPAQUE, 0),
    GSC_FIELD(release_t, long_op, GSC_U8, 1),    GSC_FIELD_ENUM(release_t, unit, GSC_U8, 3, sm_unit_enum),
    GSC_FIELD(release_t, n_bank_dst, GSC_U8, 4), GSC_FIELD(release_t, bank_dst, GSC_OPAQUE, 0),
    GSC_FIELD(release_t, atomic, GSC_U8, 1),     GSC_FIELD(release_t, val_reg, GSC_OPAQUE, 0),
    GSC_FIELD(release_t, val_mask, GSC_U32, 32), GSC_FIELD(release_t, val_vmask, GSC_OPAQUE, 0),
    GSC_FIELD(release_t, vals, GSC_OPAQUE, 0),   GSC_FIELD(release_t, reads, GSC_U8, 1),
    GSC_FIELD(release_t, n_src, GSC_U16, 4),     GSC_FIELD(release_t, src, GSC_OPAQUE, 0),
};
static size_t release_used(const void *item)
{
    return release_bytes(item);
}
const gsc_type release_type = GSC_TYPE_USED(release_t, release_fields, release_used);

void release_init_reads(release_t *r, const issued_t *it, sm_unit unit)
{
    release_clear(r);
    r->seq = it->seq;
    r->warp = it->warp;
    r->reads = 1;
    r->unit = (uint8_t)unit;
    r->n_src = it->n_src;
    memcpy(r->src, it->src, sizeof r->src);
}

sm_unit sm_unit_of_class(ir_class c)
{
    switch (c) {
    case IR_CLASS_SFU:
        return SM_UNIT_SFU;
    case IR_CLASS_INT:
        return SM_UNIT_INT;
    case IR_CLASS_DP:
        return SM_UNIT_DP;
    case IR_CLASS_MEM:
        return SM_UNIT_LDST;
    default:
        return SM_UNIT_SP; /* ALU, CTRL, SYNC, WARP: the SP pipe */
    }
}

const char *sm_unit_name(sm_unit u)
{
    static const char *const names[] = {"sp", "sfu", "int", "dp", "ldst"};
    g_assert(u < SM_UNIT_COUNT);
    return names[u];
}
