/* gsc_channel.cc — latches, FIFOs and typed ports.
 *
 * Both channels stamp every write with the cycle it happened in and answer reads by comparing
 * stamps with the current cycle, so the result of a cycle does not depend on the order of the
 * activations inside it nor on delta cycles:
 *   - a latch keeps two slots (the latest write and the one before); a read in cycle R returns the
 *     latest value written in a cycle < R;
 *   - a FIFO item carries its put cycle (gettable from the next cycle); slots freed by gets in
 *     cycle N are counted apart and become free in N+1.
 */
#include "sc/gsc_impl.h"

#include <glib.h>

#include <cstring>

using namespace sc_core;

static const int64_t NEVER = INT64_MIN / 2;

std::string gsc_new_name(const char *what, gsc_module *m, const char *name)
{
    if (!gsc_g.inited)
        gsc_fatal("%s('%s') called before gsc_init", what, name ? name : "");
    if (!name || !*name)
        gsc_fatal("%s: a name is needed (in '%s')", what, m ? m->name() : "(top)");
    std::string full = m ? std::string(m->name()) + "." + name : std::string(name);
    if (!gsc_g.names.insert(full).second || sc_find_object(full.c_str()))
        gsc_fatal("%s: the name '%s' is already used", what, full.c_str());
    return full;
}

static size_t round_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

static void need_elab(const char *what, const std::string &name)
{
    if (gsc_g.elaborated)
        gsc_fatal("%s '%s': only allowed during elaboration", what, name.c_str());
}

/* ---------------------------------------------------------------------------------------------
 * Latches
 * ------------------------------------------------------------------------------------------- */

extern "C" gsc_latch *gsc_latch_new(gsc_module *m, const char *name, const gsc_type *type)
{
    gsc_latch *l = new gsc_latch;
    l->name = gsc_new_name("gsc_latch_new", m, name);
    need_elab("gsc_latch_new", l->name);
    if (!type || type->size == 0)
        gsc_fatal("latch '%s': no type (or a type of size 0)", l->name.c_str());
    l->type = type;
    l->size = type->size;
    size_t stride = round_up(type->size, 16);
    unsigned char *mem = (unsigned char *)g_malloc0(2 * stride);
    l->buf[0] = mem;
    l->buf[1] = mem + stride;
    l->stamp[0] = l->stamp[1] = NEVER;
    l->w = 0;
    l->tr = nullptr;
    l->writer = nullptr;
    gsc_traceable t{};
    t.latch = l;
    gsc_g.traceables.push_back(t);
    return l;
}

extern "C" void gsc_latch_write(gsc_latch *l, const void *value)
{
    int64_t now = gsc_write_cycle();
    unsigned w = l->w;
    /* visible: the slot readers of this cycle see (written before `now`) */
    const unsigned char *visible;
    if (l->stamp[w] != now) {
        visible = l->buf[w];
        w ^= 1;
        l->w = w;
        l->stamp[w] = now;
    } else {
        visible = l->buf[w ^ 1];
    }
    if (l->on_change && memcmp(visible, value, l->size) != 0)
        gsc_wake(l->on_change, now + 1);
    memcpy(l->buf[w], value, l->size);
    if (__builtin_expect(l->tr != nullptr, 0))
        gsc_trace_latch_write(l, value);
}

extern "C" const void *gsc_latch_read(const gsc_latch *l)
{
    int64_t now = (int64_t)gsc_now_cycle();
    unsigned w = l->w;
    return l->stamp[w] < now ? l->buf[w] : l->buf[w ^ 1];
}

extern "C" bool gsc_latch_fresh(const gsc_latch *l)
{
    int64_t now = (int64_t)gsc_now_cycle();
    unsigned w = l->w;
    int64_t s = l->stamp[w] < now ? l->stamp[w] : l->stamp[w ^ 1];
    return s == now - 1;
}

extern "C" const gsc_type *gsc_latch_type(const gsc_latch *l)
{
    return l->type;
}

extern "C" const char *gsc_latch_name(const gsc_latch *l)
{
    return l->name.c_str();
}

/* ---------------------------------------------------------------------------------------------
 * FIFOs
 * ------------------------------------------------------------------------------------------- */

extern "C" gsc_fifo *gsc_fifo_new(gsc_module *m, const char *name, const gsc_type *type, unsigned depth)
{
    gsc_fifo *f = new gsc_fifo;
    /* gsc.h's inline queries read the base through the handle itself */
    g_assert((const void *)static_cast<gsc_fifo_hdr *>(f) == (const void *)f);
    f->name = gsc_new_name("gsc_fifo_new", m, name);
    need_elab("gsc_fifo_new", f->name);
    if (!type || type->size == 0)
        gsc_fatal("fifo '%s': no type (or a type of size 0)", f->name.c_str());
    if (depth == 0)
        gsc_fatal("fifo '%s': depth must be at least 1", f->name.c_str());
    /* <fifo>.put, .get, .full and .occupancy are the trace's own signals beside <fifo>.<field> */
    for (unsigned i = 0; i < type->n_fields; i++)
        if (!strcmp(type->fields[i].name, "put") || !strcmp(type->fields[i].name, "get") ||
            !strcmp(type->fields[i].name, "full") || !strcmp(type->fields[i].name, "occupancy"))
            gsc_fatal("fifo '%s': type '%s' has a field named '%s', a name the FIFO's trace uses for itself",
                      f->name.c_str(), type->name, type->fields[i].name);
    if (type->used_by_key) {
        if (type->used)
            gsc_fatal("fifo '%s': type '%s' has both a used function and a used_by_key table", f->name.c_str(),
                      type->name);
        if (type->used_key >= type->size)
            gsc_fatal("fifo '%s': type '%s': used_key %zu is not inside the item (%zu bytes)", f->name.c_str(),
                      type->name, type->used_key, type->size);
        for (unsigned k = 0; k < type->n_used_by_key; k++)
            if (type->used_by_key[k] <= type->used_key || type->used_by_key[k] > type->size)
                gsc_fatal("fifo '%s': type '%s': used_by_key[%u] = %zu must hold the key and fit the item "
                          "(%zu bytes)",
                          f->name.c_str(), type->name, k, type->used_by_key[k], type->size);
    }
    f->type = type;
    f->size = type->size;
    if (type->size > (size_t)UINT32_MAX / 2)
        gsc_fatal("fifo '%s': items of %zu bytes are too large", f->name.c_str(), type->size);
    f->copy = type->used || type->used_by_key || type->size > UINT16_MAX ? 0 : (uint16_t)type->size;
    f->used = type->used;
    f->stride = (unsigned)round_up(sizeof(int64_t) + type->size, sizeof(int64_t));
    f->depth = depth;
    /* line-aligned: slot 0, where an emptied ring restarts, has its stamp and the item's first bytes
     * on one line and crosses as few lines as the item needs */
    f->ring = (unsigned char *)g_aligned_alloc0(depth, f->stride, 64);
    f->head = f->n = 0;
    f->freed_at = NEVER;
    f->freed_n = 0;
    f->arrival = nullptr;
    f->refused = false;
    f->open_slot = 0;
    f->put_first = f->get_first = nullptr;
    f->put_more = f->get_more = nullptr;
    f->tr = nullptr;
    f->rare = 0;
    f->producer = f->consumer = nullptr;
    /* what a put or a get reads is on the first line */
    g_assert((const char *)&f->get_first + sizeof f->get_first <= (const char *)f + 64);
    gsc_traceable t{};
    t.fifo = f;
    gsc_g.traceables.push_back(t);
    return f;
}

void gsc_fifo_note_rare(gsc_fifo *f)
{
    f->rare = (uint8_t)((f->tr || f->arrival || f->put_more ? GSC_FIFO_RARE_PUT : 0) |
                        (f->tr || f->get_more ? GSC_FIFO_RARE_GET : 0));
}

static inline unsigned fifo_freed(const gsc_fifo *f, int64_t now)
{
    return f->freed_at == now ? f->freed_n : 0;
}

/* A refused can_put: room appears in the cycle after a get. If a get in this cycle freed a slot,
 * that is the next cycle; otherwise the next get wakes the room listeners (gsc_fifo_get). */
static void fifo_refused(const gsc_fifo *f, int64_t now)
{
    if (fifo_freed(f, now))
        gsc_wake(f->on_room, now + 1);
    else
        const_cast<gsc_fifo *>(f)->refused = true;
}

extern "C" bool gsc_fifo_can_put_slow(const gsc_fifo *f)
{
    int64_t now = gsc_write_cycle();
    if (f->n + fifo_freed(f, now) < f->depth)
        return true;
    if (f->on_room)
        fifo_refused(f, now);
    return false;
}

/* The slot the next put fills; a put on a full FIFO is fatal. */
__attribute__((always_inline)) static inline unsigned fifo_tail(const gsc_fifo *f, int64_t now)
{
    if (f->n + fifo_freed(f, now) >= f->depth)
        gsc_fatal("fifo '%s': put on a full FIFO at cycle %" G_GINT64_FORMAT " (depth %u; a model bug: check "
                  "gsc_fifo_can_put)",
                  f->name.c_str(), now, f->depth);
    unsigned tail = f->head + f->n; /* both below depth */
    if (tail >= f->depth)
        tail -= f->depth;
    return tail;
}

/* The rest of a put on a FIFO that is traced, has an arrival hook or more than one put listener. The
 * traced side reads the item back from the ring, so that nothing more stays live in the put. */
static __attribute__((noinline)) void fifo_put_rare(gsc_fifo *f, int64_t now)
{
    if (f->tr)
        gsc_trace_fifo_put(f);
    if (f->arrival)
        gsc_arrival(f->arrival, now + 1);
    if (f->put_first)
        gsc_wake_one(f->put_first, now + 1);
    gsc_wake_more(f->put_more, now + 1);
}

/* The item in slot `tail` becomes the newest (the rest of gsc_fifo_put and gsc_fifo_put_commit). */
__attribute__((always_inline)) static inline void fifo_push(gsc_fifo *f, unsigned tail, int64_t now)
{
    memcpy(f->ring + (size_t)tail * f->stride, &now, sizeof now); /* the slot's stamp, before its item */
    f->n++;
    /* one not-taken branch when there is nothing more to do than wake the first listener */
    if (__builtin_expect(f->rare & GSC_FIFO_RARE_PUT, 0))
        fifo_put_rare(f, now);
    else if (f->put_first)
        gsc_wake_one(f->put_first, now + 1);
}

extern "C" void gsc_fifo_put(gsc_fifo *f, const void *item)
{
    int64_t now = gsc_write_cycle();
    unsigned tail = fifo_tail(f, now);
    memcpy(gsc_fifo_item(f, tail), item, gsc_fifo_used_bytes(f, item));
    fifo_push(f, tail, now);
}

extern "C" void *gsc_fifo_put_slot(gsc_fifo *f)
{
    unsigned tail = fifo_tail(f, gsc_write_cycle());
    f->open_slot = tail + 1;
    return gsc_fifo_item(f, tail);
}

extern "C" void gsc_fifo_put_commit(gsc_fifo *f)
{
    int64_t now = gsc_write_cycle();
    unsigned tail = f->head + f->n;
    if (tail >= f->depth)
        tail -= f->depth;
    /* a put, or a get that emptied the ring (which restarts it at slot 0), since the slot was handed out
     * would make another slot the newest */
    if (f->open_slot != tail + 1 || f->n + fifo_freed(f, now) >= f->depth)
        gsc_fatal("fifo '%s': gsc_fifo_put_commit at cycle %" G_GINT64_FORMAT " without the slot of a "
                  "gsc_fifo_put_slot (none open, or the FIFO was put or emptied since; a model bug)",
                  f->name.c_str(), now);
    f->open_slot = 0;
    fifo_push(f, tail, now);
}

extern "C" bool gsc_fifo_can_get_slow(const gsc_fifo *f)
{
    return f->n > 0 && gsc_fifo_hdr_stamp(f, f->head) < (int64_t)gsc_now_cycle();
}

extern "C" const void *gsc_fifo_peek(const gsc_fifo *f)
{
    return gsc_fifo_can_get(f) ? gsc_fifo_item(f, f->head) : nullptr;
}

/* The wake-ups of a get on a FIFO that is traced or has more than one get listener. */
static __attribute__((noinline)) void fifo_get_rare(gsc_fifo *f, int64_t now)
{
    if (f->tr)
        gsc_trace_fifo_get(f);
    if (f->get_first)
        gsc_wake_one(f->get_first, now + 1);
    gsc_wake_more(f->get_more, now + 1);
}

/* The get of gsc_fifo_get and gsc_fifo_take: the head leaves the ring (copied to item_out first
 * unless it is NULL); its slot keeps the item until the next put. Inlined into both (the compiler
 * kept it out of line: a call more per get). */
__attribute__((always_inline)) static inline const unsigned char *fifo_pop(gsc_fifo *f, void *item_out)
{
    if (!gsc_fifo_can_get(f))
        gsc_fatal("fifo '%s': get on an empty FIFO at cycle %" G_GUINT64_FORMAT " (a model bug: check "
                  "gsc_fifo_can_get)",
                  f->name.c_str(), gsc_now_cycle());
    int64_t now = gsc_write_cycle();
    const unsigned char *slot = gsc_fifo_item(f, f->head);
    if (item_out)
        memcpy(item_out, slot, gsc_fifo_used_bytes(f, slot));
    /* An emptied ring starts again at slot 0, so a FIFO that holds an item or two at a time reuses
     * its first slots instead of walking its whole ring (each slot touched once every depth puts,
     * its lines cold by then on a machine of many SMs). A slot freed in this cycle may then be
     * refilled in this cycle (room still counts it from the next): gsc_fifo_peek's pointer is valid
     * until the get, gsc_fifo_take's until the next put (gsc.h). */
    unsigned next = f->head + 1;
    f->n--;
    f->head = next == f->depth || f->n == 0 ? 0 : next;
    if (f->freed_at != now) {
        f->freed_at = now;
        f->freed_n = 0;
    }
    f->freed_n++;
    if (__builtin_expect(f->rare & GSC_FIFO_RARE_GET, 0))
        fifo_get_rare(f, now);
    else if (f->get_first)
        gsc_wake_one(f->get_first, now + 1);
    if (f->refused) {
        f->refused = false;
        gsc_wake(f->on_room, now + 1);
    }
    return slot;
}

extern "C" void gsc_fifo_get(gsc_fifo *f, void *item_out)
{
    fifo_pop(f, item_out);
}

extern "C" const void *gsc_fifo_take(gsc_fifo *f)
{
    return fifo_pop(f, nullptr);
}

extern "C" void gsc_fifo_on_arrival(gsc_fifo *f, gsc_process_fn fn, void *ctx)
{
    need_elab("gsc_fifo_on_arrival: fifo", f->name);
    if (!fn)
        gsc_fatal("fifo '%s': gsc_fifo_on_arrival without a function", f->name.c_str());
    if (f->arrival)
        gsc_fatal("fifo '%s': it has an arrival hook already", f->name.c_str());
    f->arrival = new gsc_event;
    if (!gsc_g.cal.arrivals) {
        gsc_g.cal.arrivals = new gsc_event;
        gsc_g.cal.arrivals->hook = gsc_run_arrivals;
        gsc_g.cal.hooks.push_back(nullptr); /* room for the hook in the ticker's list */
    }
    f->arrival->hook = fn;
    f->arrival->hook_ctx = ctx;
    gsc_fifo_note_rare(f);
}

extern "C" unsigned gsc_fifo_occupancy(const gsc_fifo *f)
{
    return f->n;
}

extern "C" unsigned gsc_fifo_room(const gsc_fifo *f)
{
    unsigned used = f->n + fifo_freed(f, gsc_write_cycle());
    return used < f->depth ? f->depth - used : 0;
}

extern "C" unsigned gsc_fifo_depth(const gsc_fifo *f)
{
    return f->depth;
}

extern "C" const char *gsc_fifo_name(const gsc_fifo *f)
{
    return f->name.c_str();
}

/* ---------------------------------------------------------------------------------------------
 * Ports
 * ------------------------------------------------------------------------------------------- */

extern "C" gsc_port *gsc_port_new(gsc_module *m, const char *name, gsc_dir dir, const gsc_type *type)
{
    gsc_port *p = new gsc_port;
    p->name = gsc_new_name("gsc_port_new", m, name);
    need_elab("gsc_port_new", p->name);
    if (!type)
        gsc_fatal("port '%s': no type", p->name.c_str());
    if (dir != GSC_IN && dir != GSC_OUT)
        gsc_fatal("port '%s': direction %d is neither GSC_IN nor GSC_OUT", p->name.c_str(), (int)dir);
    p->m = m;
    p->dir = dir;
    p->kind = GSC_CHAN_ANY;
    p->type = type;
    p->latch = nullptr;
    p->fifo = nullptr;
    gsc_g.ports.push_back(p);
    return p;
}

static bool same_type(const gsc_type *a, const gsc_type *b)
{
    if (a == b)
        return true;
    if (strcmp(a->name, b->name) != 0 || a->size != b->size || a->n_fields != b->n_fields ||
        a->used != b->used || a->used_key != b->used_key || a->n_used_by_key != b->n_used_by_key ||
        (a->n_used_by_key &&
         memcmp(a->used_by_key, b->used_by_key, a->n_used_by_key * sizeof *a->used_by_key) != 0))
        return false;
    for (unsigned i = 0; i < a->n_fields; i++) {
        const gsc_field *x = &a->fields[i], *y = &b->fields[i];
        if (strcmp(x->name, y->name) != 0 || x->ctype != y->ctype || x->offset != y->offset ||
            x->width != y->width || x->size != y->size)
            return false;
    }
    return true;
}

extern "C" void gsc_port_set_kind(gsc_port *p, gsc_chan_kind kind)
{
    if (gsc_g.elaborated || p->latch || p->fifo)
        gsc_fatal("port '%s': gsc_port_set_kind is only allowed during elaboration, before binding",
                  p->name.c_str());
    if (kind != GSC_CHAN_ANY && kind != GSC_CHAN_LATCH && kind != GSC_CHAN_FIFO)
        gsc_fatal("port '%s': channel kind %d is not a gsc_chan_kind", p->name.c_str(), (int)kind);
    p->kind = kind;
}

static const char *dir_name(gsc_dir d)
{
    return d == GSC_IN ? "in" : "out";
}

/* The checks common to both kinds; `kind` is "latch" or "fifo", as in the messages. */
static void check_bind(gsc_port *p, gsc_chan_kind kind, const std::string &chan, const gsc_type *t)
{
    const char *kname = kind == GSC_CHAN_LATCH ? "latch" : "fifo";
    if (gsc_g.elaborated)
        gsc_fatal("port '%s': binding is only allowed during elaboration", p->name.c_str());
    if (p->latch || p->fifo)
        gsc_fatal("port '%s' is already bound (to '%s'); cannot bind it to %s '%s'", p->name.c_str(),
                  p->latch ? p->latch->name.c_str() : p->fifo->name.c_str(), kname, chan.c_str());
    if (p->kind != GSC_CHAN_ANY && p->kind != kind)
        gsc_fatal("kind mismatch binding port '%s' (declared for a %s) to %s '%s'", p->name.c_str(),
                  p->kind == GSC_CHAN_LATCH ? "latch" : "FIFO", kname, chan.c_str());
    if (!same_type(p->type, t))
        gsc_fatal("type mismatch binding port '%s' (type '%s') to %s '%s' (type '%s')", p->name.c_str(),
                  p->type->name, kname, chan.c_str(), t->name);
}

/* A channel takes one port of a direction (`*slot`): a second is an error naming both. */
static void take_slot(gsc_port *p, gsc_port **slot, const char *kname, const std::string &chan,
                      const char *why)
{
    if (*slot)
        gsc_fatal("port '%s' cannot be bound to %s '%s' as an %s port: '%s' already is (%s)", p->name.c_str(),
                  kname, chan.c_str(), dir_name(p->dir), (*slot)->name.c_str(), why);
    *slot = p;
}

extern "C" void gsc_port_bind_latch(gsc_port *p, gsc_latch *l)
{
    check_bind(p, GSC_CHAN_LATCH, l->name, l->type);
    if (p->dir == GSC_OUT)
        take_slot(p, &l->writer, "latch", l->name, "a latch has one writer");
    p->latch = l;
}

extern "C" void gsc_port_bind_fifo(gsc_port *p, gsc_fifo *f)
{
    check_bind(p, GSC_CHAN_FIFO, f->name, f->type);
    take_slot(p, p->dir == GSC_OUT ? &f->producer : &f->consumer, "fifo", f->name,
              "a FIFO has one producer and one consumer");
    p->fifo = f;
}

extern "C" const char *gsc_port_name(const gsc_port *p)
{
    return p->name.c_str();
}

extern "C" bool gsc_port_bound(const gsc_port *p)
{
    return p->latch || p->fifo;
}

extern "C" gsc_dir gsc_port_dir(const gsc_port *p)
{
    return p->dir;
}

extern "C" gsc_latch *gsc_port_latch(const gsc_port *p)
{
    if (__builtin_expect(p->fifo != nullptr, 0))
        gsc_fatal("gsc_port_latch: port '%s' is bound to fifo '%s', not to a latch", p->name.c_str(),
                  p->fifo->name.c_str());
    return p->latch;
}

extern "C" gsc_fifo *gsc_port_fifo(const gsc_port *p)
{
    if (__builtin_expect(p->latch != nullptr, 0))
        gsc_fatal("gsc_port_fifo: port '%s' is bound to latch '%s', not to a FIFO", p->name.c_str(),
                  p->latch->name.c_str());
    return p->fifo;
}

/* The latch behind a port used by `what` in direction `dir`, or a fatal error saying why not. */
static gsc_latch *port_latch_for(const gsc_port *p, gsc_dir dir, const char *what)
{
    if (__builtin_expect(p->dir != dir || !p->latch, 0)) {
        if (p->dir != dir)
            gsc_fatal("%s: port '%s' is an %s port", what, p->name.c_str(), dir_name(p->dir));
        if (p->fifo)
            gsc_fatal("%s: port '%s' is bound to fifo '%s', not to a latch (use gsc_port_fifo)", what,
                      p->name.c_str(), p->fifo->name.c_str());
        gsc_fatal("%s: port '%s' is not bound", what, p->name.c_str());
    }
    return p->latch;
}

extern "C" const void *gsc_in_read(const gsc_port *p)
{
    return gsc_latch_read(port_latch_for(p, GSC_IN, "gsc_in_read"));
}

extern "C" bool gsc_in_fresh(const gsc_port *p)
{
    return gsc_latch_fresh(port_latch_for(p, GSC_IN, "gsc_in_fresh"));
}

extern "C" void gsc_out_write(const gsc_port *p, const void *v)
{
    gsc_latch_write(port_latch_for(p, GSC_OUT, "gsc_out_write"), v);
}
