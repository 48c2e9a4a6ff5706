/* gsc_host.cc — host memory: the simulator's anonymous memory backed by the host's 2 MiB pages.
 *
 * A machine of 80 SMs keeps about 34 MiB of state (blocks, FIFO rings, the warps' registers,
 * SystemC's process and event records) and each cycle touches a few KiB of every SM's share of it.
 * In 4 KiB pages that is thousands of distinct pages per simulated cycle, more than the host's TLB
 * maps, so many of those accesses also walk the page tables; in 2 MiB pages the whole of it is a few
 * dozen TLB entries. At every run start (the state is built by then) of a machine whose malloc holds
 * GSC_HUGE_AUTO_MIN bytes or more (any, with GPUSC_HUGEPAGES=on) the kernel sets malloc's policy once
 * (grow_heap: what a run allocates later stays in the heap), reads /proc/self/maps, and for each
 * private anonymous read-write mapping (the malloc heap and the mappings malloc made for large
 * blocks) asks the host to use 2 MiB pages for its whole 2 MiB extents: madvise(MADV_HUGEPAGE), so
 * that pages touched later come as 2 MiB pages too, then madvise(MADV_COLLAPSE) of the touched
 * pieces, which moves what is already there into 2 MiB pages now. Either may be refused (a host
 * without transparent huge pages, one before Linux 6.1 for the collapse, no free 2 MiB page): the
 * run goes on in 4 KiB pages. Nothing the model computes depends on it.
 *
 * Every function here is cold (the linker puts them with the other rarely run code, out of the way
 * of the blocks' and the kernel's hot code). */
#include "sc/gsc_impl.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25 /* Linux 6.1 */
#endif

static const uint64_t HUGE_PAGE = UINT64_C(2) << 20;
static const uint64_t MAX_EXTENT = UINT64_C(16) << 30;

/* Under AddressSanitizer malloc is the sanitizer's (its own mappings, its shadow memory): the host
 * memory step does nothing there. */
#if defined(__SANITIZE_ADDRESS__)
#define GSC_HOST_ALLOCATOR_OURS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GSC_HOST_ALLOCATOR_OURS 0
#endif
#endif
#ifndef GSC_HOST_ALLOCATOR_OURS
#define GSC_HOST_ALLOCATOR_OURS 1
#endif

namespace {
uint64_t huge_bytes(const gsc_huge_extent *e, size_t n);
}

/* "auto", "on" or "off" as 0, 1, 2 (the order of gsc_huge_mode and gsc_prefetch_mode). */
[[gnu::cold]] static bool parse_auto_on_off(const char *text, int *mode)
{
    static const char *const names[] = {"auto", "on", "off"};
    for (int i = 0; text && i < 3; i++)
        if (!strcmp(text, names[i])) {
            *mode = i;
            return true;
        }
    return false;
}

/* The environment variable `var`, when set and not empty, as an auto/on/off mode into *mode; any
 * other value is a fatal error naming it. */
[[gnu::cold]] static void auto_on_off_from_env(const char *var, int *mode)
{
    const char *v = getenv(var);
    if (v && *v && !parse_auto_on_off(v, mode))
        gsc_fatal("%s=%s: expected auto, on or off", var, v);
}

extern "C" [[gnu::cold]] bool gsc_huge_parse(const char *text, gsc_huge_mode *mode)
{
    static_assert(GSC_HUGE_AUTO == 0 && GSC_HUGE_ON == 1 && GSC_HUGE_OFF == 2, "parse_auto_on_off");
    int m;
    if (!parse_auto_on_off(text, &m))
        return false;
    *mode = (gsc_huge_mode)m;
    return true;
}

extern "C" [[gnu::cold]] void gsc_set_huge(gsc_huge_mode mode)
{
    gsc_g.huge = mode;
}

extern "C" [[gnu::cold]] gsc_huge_mode gsc_huge(void)
{
    return gsc_g.huge;
}

extern "C" [[gnu::cold]] gsc_huge_report gsc_huge_last(void)
{
    gsc_huge_report r = gsc_g.huge_last;
    if (r.done)
        r.collapsed = huge_bytes(gsc_g.huge_extents, gsc_g.n_huge_extents);
    return r;
}

[[gnu::cold]] void gsc_huge_from_env(void)
{
    int m = gsc_g.huge;
    auto_on_off_from_env("GPUSC_HUGEPAGES", &m);
    gsc_g.huge = (gsc_huge_mode)m;
}

namespace {

typedef gsc_huge_extent extent;

/* The whole 2 MiB extents of the private anonymous read-write mappings: the heap ("[heap]", its
 * top pad included) and the unnamed ones, blocks malloc mapped on their own before grow_heap (at
 * most `cap`; the rest ignored). */
[[gnu::cold]] size_t anonymous_extents(extent *out, size_t cap)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return 0;
    size_t n = 0;
    char line[512];
    while (n < cap && fgets(line, sizeof line, f)) {
        char *end;
        uintptr_t lo = strtoul(line, &end, 16), hi = *end == '-' ? strtoul(end + 1, &end, 16) : 0;
        /* "lo-hi rw-p 00000000 00:00 0", then "[heap]" or nothing: private and anonymous */
        if (hi <= lo || strncmp(end, " rw-p 00000000 00:00 0", 22) != 0)
            continue;
        for (end += 22; *end == ' '; end++)
            ;
        if (*end != '\n' && *end != '\0' && strncmp(end, "[heap]", 6) != 0)
            continue;
        uintptr_t a = (lo + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1), b = hi & ~(HUGE_PAGE - 1);
        /* (a reservation of address space larger than any simulator state is somebody else's) */
        if (a < b && b - a <= MAX_EXTENT)
            out[n++] = extent{a, b};
    }
    fclose(f);
    return n;
}

/* Whether any 4 KiB page of the 2 MiB piece at `a` has been touched (a piece never touched is left
 * to be faulted in as a 2 MiB page when it is). */
[[gnu::cold]] bool touched(uintptr_t a)
{
    static uint64_t vec[HUGE_PAGE / 4096 / 8];
    if (sysconf(_SC_PAGESIZE) != 4096 || mincore((void *)a, HUGE_PAGE, (unsigned char *)vec))
        return true;
    for (uint64_t v : vec)
        if (v & UINT64_C(0x0101010101010101))
            return true;
    return false;
}

/* Bytes of the extents the host maps with 2 MiB pages (/proc/self/smaps: AnonHugePages of the
 * mappings that overlap them). */
[[gnu::cold]] uint64_t huge_bytes(const extent *e, size_t n)
{
    FILE *f = fopen("/proc/self/smaps", "r");
    if (!f)
        return 0;
    uint64_t total = 0;
    bool inside = false;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        unsigned long lo, hi, kb;
        const char *dash = strchr(line, '-'), *space = strchr(line, ' ');
        if (dash && space && dash < space && sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {
            inside = false;
            for (size_t i = 0; i < n; i++)
                if (lo < e[i].hi && e[i].lo < hi)
                    inside = true;
        } else if (inside && sscanf(line, "AnonHugePages: %lu kB", &kb) == 1) {
            total += (uint64_t)kb << 10;
        }
    }
    fclose(f);
    return total;
}

/* From the first run start that asks on: malloc takes every block from its heap (not a mapping of
 * its own for a large one), grows the heap by GSC_HUGE_TOP_PAD more than it needs and never gives
 * its top back, and the heap is grown by that much now (address space only: a page costs memory
 * when first touched). What a run allocates from then on (a CTA's warps, their registers) lands in
 * the part of the heap the run start advises, not in a new mapping after it. A machine too small
 * for the auto mode keeps malloc's own policy (its memory layout, and so its cache behaviour,
 * unchanged). */
[[gnu::cold]] void grow_heap()
{
    static bool grown;
    if (grown)
        return;
    grown = true;
    mallopt(M_MMAP_THRESHOLD, GSC_HUGE_MMAP_THRESHOLD);
    mallopt(M_TRIM_THRESHOLD, INT_MAX);
    mallopt(M_TOP_PAD, GSC_HUGE_TOP_PAD);
    free(malloc(GSC_HUGE_TOP_PAD / 2));
}

} // namespace

[[gnu::cold]] void gsc_huge_run_starts(void)
{
    gsc_huge_report r = {};
    gsc_g.n_huge_extents = 0;
    if (gsc_g.huge != GSC_HUGE_OFF && !GSC_HOST_ALLOCATOR_OURS) {
        r.err = ENOSYS;
    } else if (gsc_g.huge != GSC_HUGE_OFF) {
        struct mallinfo2 mi = mallinfo2();
        r.eligible = mi.uordblks + mi.hblkhd;
        r.done = gsc_g.huge == GSC_HUGE_ON || r.eligible >= GSC_HUGE_AUTO_MIN;
    }
    if (r.done) {
        grow_heap();
        extent *e = gsc_g.huge_extents;
        size_t n = gsc_g.n_huge_extents = anonymous_extents(e, sizeof gsc_g.huge_extents / sizeof *e);
        for (size_t i = 0; i < n; i++) {
            /* the whole extent advised (later touches come as 2 MiB pages), its touched 2 MiB pieces
             * collapsed now */
            if (madvise((void *)e[i].lo, e[i].hi - e[i].lo, MADV_HUGEPAGE) && !r.err)
                r.err = errno;
            for (uintptr_t a = e[i].lo; a < e[i].hi; a += HUGE_PAGE)
                if (touched(a) && madvise((void *)a, HUGE_PAGE, MADV_COLLAPSE) && !r.err)
                    r.err = errno;
        }
    }
    gsc_g.huge_last = r;
    if (r.done && getenv("GPUSC_HUGEPAGES_REPORT")) {
        gsc_huge_report now = gsc_huge_last();
        fprintf(stderr, "gpusc: host memory: %.1f MiB in use, %.1f MiB in 2 MiB pages%s%s\n",
                now.eligible / 1048576.0, now.collapsed / 1048576.0, now.err ? "; refused: " : "",
                now.err ? strerror(now.err) : "");
    }
}

/* ---- Prefetching the next activation (gsc.h) ---------------------------------------------------- */

extern "C" [[gnu::cold]] bool gsc_prefetch_parse(const char *text, gsc_prefetch_mode *mode)
{
    static_assert(GSC_PREFETCH_AUTO == 0 && GSC_PREFETCH_ON == 1 && GSC_PREFETCH_OFF == 2, "parse_auto_on_off");
    int m;
    if (!parse_auto_on_off(text, &m))
        return false;
    *mode = (gsc_prefetch_mode)m;
    return true;
}

extern "C" [[gnu::cold]] void gsc_set_prefetch(gsc_prefetch_mode mode)
{
    gsc_g.prefetch_mode = mode;
}

extern "C" [[gnu::cold]] gsc_prefetch_mode gsc_prefetch(void)
{
    return gsc_g.prefetch_mode;
}

extern "C" bool gsc_prefetch_active(void)
{
    return gsc_hot.prefetch;
}

extern "C" uint64_t gsc_prefetch_hits(void)
{
    return gsc_g.prefetch_hits;
}

[[gnu::cold]] void gsc_prefetch_from_env(void)
{
    int m = gsc_g.prefetch_mode;
    auto_on_off_from_env("GPUSC_PREFETCH", &m);
    gsc_g.prefetch_mode = (gsc_prefetch_mode)m;
}

extern "C" [[gnu::cold]] void gsc_set_lane(bool on)
{
    if (gsc_g.elaborated)
        gsc_fatal("gsc_set_lane: only allowed during elaboration (before gsc_elaborate / the first run)");
    gsc_g.lane_off = !on;
}

extern "C" bool gsc_lane_active(void)
{
    return gsc_g.lane_on;
}

extern "C" uint64_t gsc_lane_activations(void)
{
    return gsc_g.lane_activations;
}

/* GPUSC_LANE: "on" (or "auto", the default) or "off". */
[[gnu::cold]] void gsc_lane_from_env(void)
{
    int m = gsc_g.lane_off ? 2 : 0;
    auto_on_off_from_env("GPUSC_LANE", &m);
    gsc_g.lane_off = m == 2;
}

/* The auto mode counts processes, what each cycle walks through (the baseline SM has four, the
 * 15-SM GTX480-like machine 81 and runs its cycles in the host's caches, the 80-SM one 341 and does
 * not); not memory in use, which a kernel's data arrays dominate. */
[[gnu::cold]] void gsc_prefetch_run_starts(void)
{
    gsc_hot.prefetch = gsc_g.prefetch_mode == GSC_PREFETCH_ON ||
                       (gsc_g.prefetch_mode == GSC_PREFETCH_AUTO && gsc_g.rts.size() >= GSC_PREFETCH_AUTO_PROCESSES);
}
