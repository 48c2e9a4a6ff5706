#!/usr/bin/env python3
"""Checks of the per-warp traced state and of the pipeline log against the issue log (a second
record of the same run, written by issue as it issues: cycle, SM, warp, pc, opcode, mask).

  warp_trace_check.py warps VCD ISSUE_LOG PERIOD SM_SCOPE
      every logged issue of warp w at cycle c: tb...issue.warp<w>.stall is "issued" at c, pc holds
      the logged pc just before c (the warp's next instruction) and mask the logged lanes (the log's
      are those whose guard was true too); every cycle a warp's stall is "issued" is a logged issue of it; a warp issuing a
      barrier shows at_barrier at that cycle, and while at_barrier is set and it does not issue,
      its stall is "barrier".
  warp_trace_check.py pipeview PIPEVIEW ISSUE_LOG PERIOD N_SMS WARP_INSTRS
      seven lines per instruction in gem5's order, stamps that never go back, unique sequence
      numbers, one record per logged issue (the rename / dispatch stamp is the logged cycle, per SM
      and warp in the log's order, with the logged pc) and WARP_INSTRS records in all.
  warp_trace_check.py insides VCD STATS_JSON SM_SCOPE MSHRS
      the blocks' insides: ldst.coalesced summed over the run is every transaction the L1D saw
      (l1_hits + l1_misses + l1_merged + store_txns + atomic_txns), ldst.mshr_used stays within
      1..MSHRS, opcoll.occupied holds busy_collectors collectors and ready only occupied ones.
  warp_trace_check.py stalls VCD [PERIOD]
      a stall signal is a reason only in cycles without issue: every scheduler's arbiter<k>.stall
      reads "issued" exactly in the cycles its grants pulse is high (it granted a warp), and an
      SM's issue.stall (scheduler 0's) exactly in the cycles arbiter0 granted; at least one
      arbiter must be traced and have issued. PERIOD (ps) defaults to the time of cycle 1 on the
      cycle counter tb.cycle.
Prints nothing when every check holds, else the first problems (one line each)."""
import bisect
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
import vcd_decl  # noqa: E402

ISSUED, BARRIER = 9, 4  # issue_warp_stall_enum: "issued"; issue_stall: ISSUE_STALL_BARRIER
DECISION_ISSUED = 8  # a scheduler's stall that is not a reason: "issued" (ISSUE_STALL_COUNT)


def read_log(path):
    out = []
    for line in open(path):
        w = line.split()
        # "<cycle> issue sm <sm> warp <w> pc <pc> <op> mask 0x<mask>"
        out.append((int(w[0]), int(w[3]), int(w[5]), int(w[7]), w[8], int(w[10], 16)))
    return out


def read_vcd(path, scope_prefix):
    """{(warp, field): (times, values)} for <scope_prefix>.warp<N>.<field>."""
    def key(v):
        path_ = ".".join(v.scope)
        if path_.startswith(scope_prefix + ".warp") and path_.count(".") == scope_prefix.count(".") + 1:
            return (int(path_[len(scope_prefix) + 5:]), v.name)
        return None
    return vcd_decl.series(path, key)


def at(s, t):
    i = bisect.bisect_right(s[0], t)
    return s[1][i - 1] if i else 0


def warps(vcd, log_path, period, prefix):
    bad = []
    series = read_vcd(vcd, prefix)
    log = read_log(log_path)
    if not series:
        return ["no %s.warp<N>.* signal in the VCD" % prefix]
    logged = set()
    for c, _sm, warp, pc, op, mask in log:
        logged.add((warp, c))
        st, p, m, b = (series.get((warp, f)) for f in ("stall", "pc", "mask", "at_barrier"))
        if st is None or p is None or m is None or b is None:
            bad.append("warp%u: not traced" % warp)
            break
        if at(st, c * period) != ISSUED:
            bad.append("cycle %u: warp%u issued (log), stall is %u" % (c, warp, at(st, c * period)))
        if at(p, c * period - 1) != pc:
            bad.append("cycle %u: warp%u issued pc %u (log), its pc before was %u" % (c, warp, pc, at(p, c * period - 1)))
        if mask & ~at(m, c * period - 1):  # the log's lanes: active and guard true
            bad.append("cycle %u: warp%u issued lanes %#x (log), its mask before was %#x" % (c, warp, mask, at(m, c * period - 1)))
        if op == "bar" and at(b, c * period) != 1:
            bad.append("cycle %u: warp%u issued a barrier, at_barrier is 0" % (c, warp))
        if len(bad) > 5:
            return bad
    for (warp, f), s in series.items():
        if f == "stall":
            for t, v in zip(*s):
                if v == ISSUED and (warp, t // period) not in logged:
                    bad.append("cycle %u: warp%u shows issued, the log has no issue of it" % (t // period, warp))
                    break
        if f == "at_barrier":
            st = series[(warp, "stall")]
            times = sorted(set(s[0] + st[0]))
            for t in times:
                if at(s, t) == 1 and at(st, t) not in (ISSUED, BARRIER):
                    bad.append("time %u: warp%u at a barrier with stall %u" % (t, warp, at(st, t)))
                    break
    return bad[:6]


def pipeview(pv, log_path, period, n_sms, warp_instrs):
    order = ["fetch", "decode", "rename", "dispatch", "issue", "complete", "retire"]
    bad, recs, cur = [], [], None
    for n, line in enumerate(open(pv), 1):
        w = line.rstrip("\n").split(":")
        if w[0] != "O3PipeView" or len(w) < 3:
            return ["line %u: not O3PipeView text" % n]
        stage = w[1]
        if stage == "fetch":
            if cur is not None:
                return ["line %u: a fetch before the previous instruction's retire" % n]
            seq = int(w[5])
            cur = {"seq": seq, "pc": int(w[3], 16), "text": w[6], "t": [int(w[2])]}
            continue
        if cur is None or order[len(cur["t"])] != stage:
            return ["line %u: %s out of order" % (n, stage)]
        cur["t"].append(int(w[2]))
        if stage == "retire":
            recs.append(cur)
            cur = None
    if cur is not None:
        bad.append("the last instruction has no retire")
    seqs = set()
    for r in recs:
        if r["t"] != sorted(r["t"]):
            bad.append("seq %u: stamps go back %s" % (r["seq"], r["t"]))
        if any(t % period for t in r["t"]):
            bad.append("seq %u: a stamp off the clock %s" % (r["seq"], r["t"]))
        if r["seq"] in seqs:
            bad.append("seq %u twice" % r["seq"])
        seqs.add(r["seq"])
        if len(bad) > 5:
            return bad
    if len(recs) != warp_instrs:
        bad.append("%u records, warp_instrs is %u" % (len(recs), warp_instrs))
    # per SM and warp, in sequence order: the log's issues of that warp, in its order
    by = {}
    for r in sorted(recs, key=lambda r: r["seq"]):
        sm = r["seq"] % n_sms
        warp = int(r["text"].split()[1][1:])
        by.setdefault((sm, warp), []).append((r["t"][2] // period, r["pc"] & 0xFFFF))
    lg = {}
    for c, sm, warp, pc, _op, _m in read_log(log_path):
        lg.setdefault((sm, warp), []).append((c, pc))
    for k in sorted(set(by) | set(lg)):
        if by.get(k) != lg.get(k):
            a, b = by.get(k, []), lg.get(k, [])
            i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
            bad.append("sm %u warp %u: instruction %u issued at (cycle, pc) %s in the pipeline log, %s in the issue log"
                       % (k[0], k[1], i, a[i] if i < len(a) else None, b[i] if i < len(b) else None))
            break
    return bad[:6]


def all_series(path, prefix):
    """{"block.name": (times, values)} for the variables directly under <prefix>.<block>."""
    return vcd_decl.series(path, lambda v: v.scope[-1] + "." + v.name if ".".join(v.scope[:-1]) == prefix else None)


def insides(vcd, stats_json, prefix, mshrs):
    import json
    bad = []
    ser = all_series(vcd, prefix)
    need = ["ldst.coalesced", "ldst.mshr_used", "opcoll.occupied", "opcoll.ready", "opcoll.busy_collectors"]
    missing = [n for n in need if n not in ser]
    if missing:
        return ["not traced: " + " ".join(missing)]
    st = {}
    for inst in json.load(open(stats_json))["instances"]:
        for name, v in inst.get("stats", {}).items():
            if isinstance(v, dict) and "value" in v:
                st[inst["path"] + "." + name] = v["value"]
    txns = 0
    for k in ("l1_hits", "l1_misses", "l1_merged", "store_txns", "atomic_txns"):
        v = [val for key, val in st.items() if key.endswith("ldst." + k)]
        if len(v) != 1:
            return ["statistic ldst.%s not found once in the JSON" % k]
        txns += v[0]
    got = sum(ser["ldst.coalesced"][1])
    if got != txns or txns == 0:
        bad.append("ldst.coalesced sums to %u, the L1D saw %u transactions" % (got, txns))
    m = ser["ldst.mshr_used"][1]
    if not m or max(m) == 0 or max(m) > mshrs:
        bad.append("ldst.mshr_used peaks at %u (mshrs %u)" % (max(m) if m else 0, mshrs))
    occ, rdy, busy = ser["opcoll.occupied"], ser["opcoll.ready"], ser["opcoll.busy_collectors"]
    for t in sorted(set(occ[0] + rdy[0] + busy[0])):
        o, r, b = at(occ, t), at(rdy, t), at(busy, t)
        if bin(o).count("1") != b or r & ~o:
            bad.append("time %u: occupied %#x, ready %#x, busy_collectors %u" % (t, o, r, b))
            break
    return bad


def cycle_period(vcd):
    """The clock period: the time at which the cycle counter (<top>.cycle) reads 1."""
    cyc = vcd_decl.series(vcd, lambda v: 1 if len(v.scope) == 1 and v.name == "cycle" else None).get(1)
    return next((t for t, v in zip(*cyc) if v == 1), 0) if cyc else 0


def stalls(vcd, period):
    """Per scope with a stall: the cycles it reads "issued" are those its scheduler granted."""
    period = period or cycle_period(vcd)
    if not period:
        return ["no cycle counter to read the clock period from"]
    ser = vcd_decl.series(vcd, lambda v: (v.scope, v.name) if v.name in ("stall", "grants") and not v.scope[-1].startswith("warp") else None)
    pairs = []  # (name, stall series, grants series)
    for (scope, name), s in ser.items():
        if name != "stall":
            continue
        if scope[-1].startswith("arbiter"):
            g = ser.get((scope, "grants"))
        elif scope[-1] == "issue":
            g = ser.get((scope[:-1] + ("arbiter0",), "grants"))
        else:
            continue
        if g is None:
            return [".".join(scope) + ".stall traced without its scheduler's grants"]
        pairs.append((".".join(scope), s, g))
    if not pairs or not any(any(v) for _n, _s, g in pairs for v in [g[1]]):
        return ["no scheduler's stall and grants traced, or no grant"]
    bad = []
    for name, st, g in sorted(pairs):
        # values hold from one change to the next: look at the first cycle at or after each change
        for t in sorted(set(st[0] + g[0])):
            c = (t + period - 1) // period
            issued, decision = at(g, c * period) > 0, at(st, c * period)
            if issued != (decision == DECISION_ISSUED):
                bad.append("%s: cycle %u: %s, stall reads %u" % (name, c, "granted" if issued else "no grant", decision))
                break
    return bad[:6]


if __name__ == "__main__":
    if sys.argv[1] == "stalls":
        problems = stalls(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 0)
    elif sys.argv[1] == "insides":
        problems = insides(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif sys.argv[1] == "warps":
        problems = warps(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
    else:
        problems = pipeview(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]))
    for p in problems:
        print(p)
