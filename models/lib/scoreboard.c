/* scoreboard.c — register reservations; see scoreboard.h. */
#include "models/lib/scoreboard.h"

typedef struct {
    uint16_t writes, reads, long_writes;
} sb_entry;

/* One allocation, aligned to a cache line: the header, each warp's count of reservations, then the
 * warps' entries (warp by warp). A check, reservation or release reads the header and the warp's
 * count from the same line (the first 8 warps' counts share the header's line). */
struct scoreboard {
    sb_entry *e; /* warps * regs, after reserved[] */
    unsigned warps, regs;
    bool source_reservations;
    unsigned reserved[]; /* per warp: total pending reservations */
};

scoreboard *scoreboard_new(unsigned warps, unsigned regs, bool source_reservations)
{
    g_return_val_if_fail(warps > 0 && regs > 0, NULL);
    gsize head = sizeof(scoreboard) + warps * sizeof(unsigned);
    head = (head + G_ALIGNOF(sb_entry) - 1) / G_ALIGNOF(sb_entry) * G_ALIGNOF(sb_entry);
    gsize bytes = head + (gsize)warps * regs * sizeof(sb_entry);
    scoreboard *sb = g_aligned_alloc0(1, (bytes + 63) / 64 * 64, 64);
    sb->warps = warps;
    sb->regs = regs;
    sb->source_reservations = source_reservations;
    sb->e = (sb_entry *)(void *)((char *)sb + head);
    return sb;
}

void scoreboard_free(scoreboard *sb)
{
    g_aligned_free(sb);
}

bool scoreboard_source_reservations(const scoreboard *sb)
{
    return sb->source_reservations;
}

static sb_entry *entry(const scoreboard *sb, unsigned warp, unsigned reg)
{
    g_assert(warp < sb->warps && reg < sb->regs);
    return &sb->e[(gsize)warp * sb->regs + reg];
}

unsigned scoreboard_check(const scoreboard *sb, unsigned warp, const unsigned *srcs, unsigned nsrc,
                          const unsigned *dsts, unsigned ndst)
{
    unsigned h = 0;
    for (unsigned i = 0; i < nsrc; i++) {
        const sb_entry *x = entry(sb, warp, srcs[i]);
        if (x->writes)
            h |= SCOREBOARD_RAW | (x->long_writes ? SCOREBOARD_LONG : 0);
    }
    for (unsigned i = 0; i < ndst; i++) {
        const sb_entry *x = entry(sb, warp, dsts[i]);
        if (x->writes)
            h |= SCOREBOARD_WAW | (x->long_writes ? SCOREBOARD_LONG : 0);
        if (sb->source_reservations && x->reads)
            h |= SCOREBOARD_WAR;
    }
    return h;
}

void scoreboard_reserve(scoreboard *sb, unsigned warp, const unsigned *srcs, unsigned nsrc,
                        const unsigned *dsts, unsigned ndst, bool long_op)
{
    for (unsigned i = 0; i < ndst; i++) {
        sb_entry *x = entry(sb, warp, dsts[i]);
        g_assert(x->writes < UINT16_MAX);
        x->writes++;
        x->long_writes += long_op;
        sb->reserved[warp]++;
    }
    if (!sb->source_reservations)
        return;
    for (unsigned i = 0; i < nsrc; i++) {
        sb_entry *x = entry(sb, warp, srcs[i]);
        g_assert(x->reads < UINT16_MAX);
        x->reads++;
        sb->reserved[warp]++;
    }
}

void scoreboard_release_write(scoreboard *sb, unsigned warp, unsigned reg, bool long_op)
{
    sb_entry *x = entry(sb, warp, reg);
    g_assert(x->writes > 0);
    g_assert(!long_op || x->long_writes > 0);
    x->writes--;
    x->long_writes -= long_op;
    sb->reserved[warp]--;
}

void scoreboard_release_read(scoreboard *sb, unsigned warp, unsigned reg)
{
    sb_entry *x = entry(sb, warp, reg);
    g_assert(sb->source_reservations && x->reads > 0);
    x->reads--;
    sb->reserved[warp]--;
}

unsigned scoreboard_pending_writes(const scoreboard *sb, unsigned warp, unsigned reg)
{
    return entry(sb, warp, reg)->writes;
}

unsigned scoreboard_pending_reads(const scoreboard *sb, unsigned warp, unsigned reg)
{
    return entry(sb, warp, reg)->reads;
}

bool scoreboard_warp_idle(const scoreboard *sb, unsigned warp)
{
    g_assert(warp < sb->warps);
    return sb->reserved[warp] == 0;
}

unsigned scoreboard_reserved(const scoreboard *sb, unsigned warp)
{
    g_assert(warp < sb->warps);
    return sb->reserved[warp];
}

void scoreboard_clear_warp(scoreboard *sb, unsigned warp)
{
    g_assert(warp < sb->warps);
    for (unsigned r = 0; r < sb->regs; r++)
        *entry(sb, warp, r) = (sb_entry){0};
    sb->reserved[warp] = 0;
}
