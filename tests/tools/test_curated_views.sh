#!/bin/sh
# The curated GTKWave views in waveforms/ still fit the waveforms they are made for (TAP). Each view
# names, in its header, the testbench run it is a view of ("Run from the top of the tree:" and the
# command on the next line). That run is made in a temporary directory; then every signal of the
# view must be declared in the VCD the run wrote (same hierarchical name and width), and every
# translate filter the view uses must have been written beside it. A signal renamed, removed or
# resized in a block makes its views fail here instead of opening with empty rows. A curated view's
# first line is "[*] gpusc curated view: ..."; a row may carry an alias ("+{name shown} tb.x.y"); other .gtkw files there (views a testbench wrote beside
# its waveform) are skipped.
set -u
src=${top_srcdir:-.}
bld=${top_builddir:-.}
python3 - "$src" "$bld" <<'PY'
import glob, os, re, shlex, subprocess, sys, tempfile

src, bld = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
sys.path.insert(0, os.path.join(src, "tests", "tools"))
from vcd_decl import signal_names
# A curated view starts with "[*] gpusc curated view" (a testbench run from the top of the tree
# writes its generated views there too: those are not checked)
views = sorted(v for v in glob.glob(os.path.join(src, "waveforms", "*.gtkw"))
               if open(v).readline().startswith("[*] gpusc curated view"))
print("1..%d" % len(views))
if not views:
    sys.exit(0)

failed = 0
for n, view in enumerate(views, 1):
    name = os.path.basename(view)
    lines = open(view).read().splitlines()
    cmd = None
    for i, l in enumerate(lines):
        if "Run from the top of the tree" in l and i + 1 < len(lines):
            cmd = lines[i + 1].lstrip("[*]").strip()
            break
    if not cmd or not cmd.startswith("build/testbench/"):
        print("not ok %d - %s: no 'Run from the top of the tree:' line followed by a build/testbench/ command" % (n, name))
        failed += 1
        continue
    argv = shlex.split(cmd)
    argv[0] = os.path.join(bld, argv[0][len("build/"):])
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run(argv, cwd=tmp, capture_output=True, text=True)
        prog = os.path.basename(argv[0])
        vcd = os.path.join(tmp, "waveforms", prog + ".vcd")
        if p.returncode != 0 or not os.path.exists(vcd):
            print("not ok %d - %s: '%s' failed (exit %d) or wrote no %s" % (n, name, cmd, p.returncode, "waveforms/%s.vcd" % prog))
            for e in p.stderr.splitlines()[-3:]:
                print("# " + e)
            failed += 1
            continue
        have = signal_names(vcd)
        missing, filters = [], []
        # a row shown under another name: "+{name shown} tb.sm0...."
        lines = [re.sub(r"^\+\{[^}]*\} ", "", l) for l in lines]
        for l in lines:
            if l.startswith("tb."):
                if l not in have:
                    missing.append(l)
            elif l.startswith("^"):
                m = re.match(r"\^\d+ waveforms/(.*)$", l)
                if not m or not os.path.exists(os.path.join(tmp, "waveforms", m.group(1))):
                    filters.append(l)
        signals = sum(1 for l in lines if l.startswith("tb."))
        if missing or filters or signals == 0:
            failed += 1
            print("not ok %d - %s: %d of %d signals not in the run's VCD, %d filters not written%s"
                  % (n, name, len(missing), signals, len(filters), " (no signals)" if signals == 0 else ""))
            for m in (missing + filters)[:10]:
                print("# " + m)
        else:
            print("ok %d - %s: all %d signals and %d filters found in the waveform of '%s'"
                  % (n, name, signals, sum(1 for l in lines if l.startswith("^")), cmd))
sys.exit(1 if failed else 0)
PY
