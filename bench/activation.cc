/* bench/activation.cc — the cost of one method activation through the C API (sc/gsc.h) against a
 * native SystemC SC_METHOD doing the same work (read a pipeline register, add to a counter), with
 * the same number of processes and cycles, measured in one invocation. Each side runs in its own
 * forked child (SystemC 2.3 has one kernel per process).
 *
 *   bench/activation [processes] [cycles] [c|native|lane|both]
 *
 * Only the run is timed (not the elaboration). Prints ns per activation for both and the ratio C API /
 * native; then the same C processes unclocked, each asking for the next cycle (gsc_run_within(1)),
 * which the lane runs instead of the kernel's scheduler (docs/sc-api.md, "The lane"). With "c",
 * "native" or "lane" only that side runs in-process (for valgrind --tool=callgrind). See
 * docs/sc-api.md for the figures. */
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" uint64_t bench_c_run(unsigned n, uint64_t cycles, int unclocked, uint64_t *check, double *run_ns);

using namespace sc_core;

namespace
{
struct worker : sc_module {
    sc_in<bool> clk;
    const sc_signal<uint32_t> &in;
    uint64_t count = 0, sum = 0;
    SC_HAS_PROCESS(worker);
    worker(sc_module_name n, const sc_signal<uint32_t> &in_) : sc_module(n), in(in_)
    {
        SC_METHOD(work);
        sensitive << clk.pos();
        dont_initialize();
    }
    void work()
    {
        count++;
        sum += in.read();
    }
};

uint64_t native_run(unsigned n, uint64_t cycles, uint64_t *check, double *run_ns)
{
    sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", SC_DO_NOTHING);
    sc_clock clk("clk", sc_time(1000, SC_PS), 0.5, SC_ZERO_TIME, true);
    sc_signal<uint32_t> in("in", 1);
    std::vector<worker *> ws;
    for (unsigned i = 0; i < n; i++) {
        ws.push_back(new worker(sc_gen_unique_name("w"), in));
        ws.back()->clk(clk);
    }
    /* cycles 0 .. cycles-1, as gsc_run_cycles */
    auto t0 = std::chrono::steady_clock::now();
    sc_start(sc_time::from_value(cycles * 1000 - 1));
    *run_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    uint64_t total = 0, act = 0;
    for (worker *w : ws) {
        total += w->count + w->sum;
        act += w->count;
    }
    *check = total;
    return act;
}

struct result {
    double ns_per_act;
    uint64_t activations;
    uint64_t check;
};

enum side { SIDE_C, SIDE_NATIVE, SIDE_LANE };
const char *const side_name[] = {"C API", "native", "lane"};

result measure(side s, unsigned n, uint64_t cycles)
{
    result r{};
    double ns = 0;
    r.activations = s == SIDE_NATIVE ? native_run(n, cycles, &r.check, &ns)
                                     : bench_c_run(n, cycles, s == SIDE_LANE, &r.check, &ns);
    r.ns_per_act = ns / (double)r.activations;
    return r;
}

/* Run one side in a forked child (a fresh kernel) and read its result through a pipe. */
result measure_in_child(side s, unsigned n, uint64_t cycles)
{
    int fd[2];
    if (pipe(fd) != 0) {
        perror("pipe");
        exit(1);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
        result r = measure(s, n, cycles);
        if (write(fd[1], &r, sizeof r) != (ssize_t)sizeof r)
            _exit(1);
        _exit(0);
    }
    close(fd[1]);
    result r{};
    ssize_t got = read(fd[0], &r, sizeof r);
    int status = 0;
    waitpid(pid, &status, 0);
    close(fd[0]);
    if (got != (ssize_t)sizeof r || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench-activation: the %s child failed\n", side_name[s]);
        exit(1);
    }
    return r;
}
} // namespace

int main(int argc, char **argv)
{
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], nullptr, 10) : 1000;
    uint64_t cycles = argc > 2 ? strtoull(argv[2], nullptr, 10) : 5000;
    std::string mode = argc > 3 ? argv[3] : "both";
    if (mode == "c" || mode == "native" || mode == "lane") {
        setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
        result r = measure(mode == "c" ? SIDE_C : mode == "native" ? SIDE_NATIVE : SIDE_LANE, n, cycles);
        printf("%s: %u processes x %" PRIu64 " cycles: %.2f ns/activation (check %" PRIu64 ")\n",
               mode.c_str(), n, cycles, r.ns_per_act, r.check);
        return 0;
    }
    /* best of three for each side, interleaved */
    result c{}, nat{}, lane{};
    for (int i = 0; i < 3; i++) {
        result a = measure_in_child(SIDE_C, n, cycles);
        result b = measure_in_child(SIDE_NATIVE, n, cycles);
        result l = measure_in_child(SIDE_LANE, n, cycles);
        if (i == 0 || a.ns_per_act < c.ns_per_act)
            c = a;
        if (i == 0 || b.ns_per_act < nat.ns_per_act)
            nat = b;
        if (i == 0 || l.ns_per_act < lane.ns_per_act)
            lane = l;
    }
    if (c.activations != nat.activations || c.check != nat.check || lane.activations != c.activations ||
        lane.check != c.check) {
        fprintf(stderr,
                "bench-activation: the sides did different work (%" PRIu64 "/%" PRIu64 "/%" PRIu64
                " activations)\n",
                c.activations, nat.activations, lane.activations);
        return 1;
    }
    printf("processes %u, cycles %" PRIu64 ", activations %" PRIu64 " per side (best of 3)\n", n, cycles,
           c.activations);
    printf("C API (gsc_process + gsc_latch_read): %.2f ns/activation\n", c.ns_per_act);
    printf("native SC_METHOD (+ sc_signal read):  %.2f ns/activation\n", nat.ns_per_act);
    printf("ratio C API / native: %.2f\n", c.ns_per_act / nat.ns_per_act);
    printf("unclocked, run by the lane (+ gsc_run_within(1)): %.2f ns/activation\n", lane.ns_per_act);
    printf("ratio lane / native: %.2f\n", lane.ns_per_act / nat.ns_per_act);
    return 0;
}
