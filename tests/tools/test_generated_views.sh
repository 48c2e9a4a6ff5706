#!/bin/sh
# The views that mechanism testbenches write beside their waveforms at run time (tb-renaming's
# renaming.gtkw, tb-sharing's tb-sharing-locks.gtkw, tb-greener's tb-greener-power.gtkw) fit their
# waveforms and stay focused (TAP): every signal of the view is declared in the VCD of the same run
# (name and width), every translate filter it uses was written, it has signals, at most 150, and none
# of the per-warp groups (<sm>.issue.warpN.*: a view showing issue's last warp must not take every
# warp slot's state with it), and a group the program's full view marks idle (none of its signals
# moved: closed, "(idle)") is marked idle in it too.
set -u
src=${top_srcdir:-.}
bld=${top_builddir:-.}
python3 - "$src" "$bld" <<'PY'
import os, re, subprocess, sys, tempfile

src, bld = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(src, "tests", "tools"))
from vcd_decl import signal_names
runs = [("tb-renaming", "renaming.gtkw"), ("tb-sharing", "tb-sharing-locks.gtkw"),
        ("tb-greener", "tb-greener-power.gtkw")]
print("1..%d" % len(runs))



def block_groups(lines):
    """The groups of a view that hold signals themselves (a block's or a channel's, not the SM's
    that nests them), with their "(idle)" mark."""
    out, stack, flags = set(), [], ""
    for l in lines:
        if l.startswith("@"):
            flags = l
        elif l.startswith("-"):  # a group's first line, its last, or a comment
            if int(flags[1:], 16) & 0x1000000:
                stack.pop()
            elif int(flags[1:], 16) & 0x800000:
                stack.append(l[1:])
        elif l.startswith("tb.") and stack:
            out.add(stack[-1])
    return out


failed = 0
for n, (prog, view) in enumerate(runs, 1):
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([os.path.join(bld, "testbench", prog), "--workload", "vecadd", "--size", "tiny"],
                           cwd=tmp, capture_output=True, text=True)
        vcd, gtkw = os.path.join(tmp, "waveforms", prog + ".vcd"), os.path.join(tmp, "waveforms", view)
        if p.returncode != 0 or not os.path.exists(vcd) or not os.path.exists(gtkw):
            print("not ok %d - %s: the run failed (exit %d) or wrote no %s" % (n, prog, p.returncode, view))
            failed += 1
            continue
        have = signal_names(vcd)
        lines = open(gtkw).read().splitlines()
        sigs = [l for l in lines if l.startswith("tb.")]
        missing = [l for l in sigs if l not in have]
        filters = [l for l in lines if l.startswith("^") and not os.path.exists(os.path.join(tmp, l.split(" ", 1)[1]))]
        warps = [l for l in sigs if re.search(r"\.issue\.warp\d+\.", l)]
        full = open(os.path.join(tmp, "waveforms", prog + ".gtkw")).read().splitlines()
        idle_full = {g[:-7] for g in block_groups(full) if g.endswith(" (idle)")}
        groups = block_groups(lines)
        unmarked = sorted(g for g in groups if g in idle_full)
        idle = sum(1 for g in groups if g.endswith(" (idle)"))
        if missing or filters or warps or unmarked or not sigs or len(sigs) > 150:
            failed += 1
            print("not ok %d - %s: %d signals, %d not in the VCD, %d filters not written, %d per-warp, "
                  "%d idle groups not marked" % (n, view, len(sigs), len(missing), len(filters), len(warps),
                                                  len(unmarked)))
            for m in (missing + filters + warps + unmarked)[:5]:
                print("# " + m)
        else:
            print("ok %d - %s: %d signals, all in %s's waveform, %d filters written, %d groups idle"
                  % (n, view, len(sigs), prog, sum(1 for l in lines if l.startswith("^")), idle))
sys.exit(1 if failed else 0)
PY
