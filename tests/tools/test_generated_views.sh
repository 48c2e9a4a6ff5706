#!/bin/sh
# The views that mechanism testbenches write beside their waveforms at run time (tb-renaming's
# renaming.gtkw, tb-sharing's tb-sharing-locks.gtkw, tb-greener's tb-greener-power.gtkw) fit their
# waveforms and stay focused (TAP): every signal of the view is declared in the VCD of the same run
# (name and width), every translate filter it uses was written, it has signals, at most 150, and none
# of the per-warp groups (<sm>.issue.warpN.*: a view showing issue's last warp must not take every
# warp slot's state with it).
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
        if missing or filters or warps or not sigs or len(sigs) > 150:
            failed += 1
            print("not ok %d - %s: %d signals, %d not in the VCD, %d filters not written, %d per-warp"
                  % (n, view, len(sigs), len(missing), len(filters), len(warps)))
            for m in (missing + filters + warps)[:5]:
                print("# " + m)
        else:
            print("ok %d - %s: %d signals, all in %s's waveform, %d filters written"
                  % (n, view, len(sigs), prog, sum(1 for l in lines if l.startswith("^"))))
sys.exit(1 if failed else 0)
PY
