/* mem_types.c — field tables of the memory payloads (mem_types.h). */
#include "models/mem_types.h"

static const gsc_field mem_req_fields[] = {
    GSC_FIELD(mem_req_t, addr, GSC_U64, 48),   GSC_FIELD(mem_req_t, id, GSC_U64, 32),
    GSC_FIELD(mem_req_t, mask_lo, GSC_U64, 64), GSC_FIELD(mem_req_t, mask_hi, GSC_U64, 64),
    GSC_FIELD(mem_req_t, bytes, GSC_U32, 8),   GSC_FIELD(mem_req_t, src, GSC_U16, 8),
    GSC_FIELD(mem_req_t, warp, GSC_U16, 8),    GSC_FIELD(mem_req_t, kind, GSC_U8, 2),
    GSC_FIELD(mem_req_t, client, GSC_U8, 2),   GSC_FIELD(mem_req_t, data, GSC_OPAQUE, 0),
};
const gsc_type mem_req_type = GSC_TYPE(mem_req_t, mem_req_fields);

static const gsc_field mem_resp_fields[] = {
    GSC_FIELD(mem_resp_t, addr, GSC_U64, 48), GSC_FIELD(mem_resp_t, id, GSC_U64, 32),
    GSC_FIELD(mem_resp_t, bytes, GSC_U32, 8), GSC_FIELD(mem_resp_t, dst, GSC_U16, 8),
    GSC_FIELD(mem_resp_t, warp, GSC_U16, 8),  GSC_FIELD(mem_resp_t, kind, GSC_U8, 2),
    GSC_FIELD(mem_resp_t, client, GSC_U8, 2), GSC_FIELD(mem_resp_t, data, GSC_OPAQUE, 0),
};
const gsc_type mem_resp_type = GSC_TYPE(mem_resp_t, mem_resp_fields);
