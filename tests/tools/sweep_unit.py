#!/usr/bin/env python3
# Unit tests of gpusc-sweep and gpusc-plot (TAP): the sweep file reader, the expansion into points,
# the resume rule, the local runner with a stand-in testbench, the table, the Slurm script, and the
# normalisation of the bar plots. Run by tests/tools/test_sweep_unit.sh.
import csv
import importlib.machinery
import importlib.util
import io
import json
import math
import os
import shutil
import sqlite3
import sys
import tempfile
import traceback

top = os.environ.get("top_srcdir") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def load(name, path):
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


gs = load("gpusc_sweep", os.path.join(top, "tools", "gpusc-sweep"))
gp = load("gpusc_plot", os.path.join(top, "tools", "gpusc-plot"))
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def check(cond, what):
    if not cond:
        raise AssertionError(what)


def raises(fn, text):
    try:
        fn()
    except (gs.SweepError, gp.PlotError) as e:
        check(text in str(e), "error %r does not contain %r" % (str(e), text))
        return
    raise AssertionError("no error (expected one containing %r)" % text)


BASIC = """# a comment
[sweep]
name=t
testbench=tb-sm
workloads=vecadd;bfs;
sizes=tiny
args=--preset gtx480 --set 'tb.x=a b'\\s--no-trace

[axis policy]
gto=--set arbiter.policy=gto
lrr=--set arbiter.policy=lrr

[axis banks]
b2=--set regfile.banks=2
b4=--set regfile.banks=4 --watchdog 0 --config {sweep_dir}/x.ini
"""


@test
def keyfile_lists_and_escapes():
    check(gs.split_list("a;b\\;c; d ;") == ["a", "b;c", "d"], gs.split_list("a;b\\;c; d ;"))
    check(gs.unescape("x\\sy\\tz\\\\") == "x y\tz\\", gs.unescape("x\\sy\\tz\\\\"))
    kf = gs.KeyFile("f", "[g]\n k = v w \n#c\n[h]\nk=1\n")
    check(kf.group("g")[2]["k"] == ("v w", 2), kf.group("g"))
    check(kf.where("h", "k") == "f:5", kf.where("h", "k"))


# (file text, what the error says); the sweep cases start with "[sweep]\ntestbench=tb\nworkloads=a\n"
# where the text begins with "+"
BAD = [
    ("k=v\n", "f:1: key outside any group"),
    ("[g]\nnovalue\n", "f:2: expected key=value"),
    ("[g]\n[g]\n", "f:2: group [g] appears twice"),
    ("[g\n", "f:1: malformed group header"),
    ("[sweep]\nworkloads=a\n", "needs testbench="),
    ("[sweep]\ntestbench=tb\n", "needs workloads="),
    ("+bogus=1\n", "f:4: unknown key 'bogus'"),
    ("+[axis x]\n", "f:4: axis [x] has no point"),
    ("+[axis size]\nq=1\n", "axis name 'size' is taken"),
    ("+[axes x]\n", "f:4: unknown group [axes x]"),
    ("+[axis x]\na b=1\n", "f:5: point name 'a b'"),
    ("+seeds=1;x\n", "seed 'x' is not a number"),
    ("[sweep]\ntestbench=tb\nworkloads=a;a\n", "a value appears twice"),
    ("+[axis x]\nq='1\n", "f:5:"),
    ("+[plot p]\ncolour=red\n", "unknown key 'colour'"),
    ("+sizes=tiny;huge\n", "f:4: unknown size 'huge'"),
]


@test
def errors_name_file_and_line():
    for text, want in BAD:
        if text.startswith("+"):
            text = "[sweep]\ntestbench=tb\nworkloads=a\n" + text[1:]
        raises(lambda: gs.Sweep("f", text), want)


@test
def expansion_is_the_product_in_order():
    s = gs.Sweep("s", BASIC)
    pts = s.expand()
    check(len(pts) == 2 * 1 * 2 * 2, len(pts))
    check([p.name for p in pts[:4]] == ["vecadd.tiny.gto.b2", "vecadd.tiny.gto.b4", "vecadd.tiny.lrr.b2",
                                        "vecadd.tiny.lrr.b4"], [p.name for p in pts[:4]])
    p = pts[1]
    check(p.params == {"workload": "vecadd", "size": "tiny", "policy": "gto", "banks": "b4"}, p.params)
    check(p.argv == ["--preset", "gtx480", "--set", "tb.x=a b", "--no-trace", "--workload", "vecadd", "--size", "tiny",
                     "--set", "arbiter.policy=gto", "--set", "regfile.banks=4", "--watchdog", "0",
                     "--config", os.path.join(os.getcwd(), "x.ini")], p.argv)
    check(s.param_names() == ["workload", "size", "policy", "banks"], s.param_names())
    s2 = gs.Sweep("s", BASIC.replace("sizes=tiny", "sizes=tiny;default\nseeds=1;7"))
    pts2 = s2.expand()
    check(len(pts2) == 2 * 2 * 2 * 2 * 2, len(pts2))
    check(pts2[0].name == "vecadd.tiny.s1.gto.b2" and "--seed" in pts2[0].argv, pts2[0].name)
    check(s2.param_names() == ["workload", "size", "seed", "policy", "banks"], s2.param_names())


@test
def key_follows_the_configuration():
    with tempfile.TemporaryDirectory() as d:
        tb, tb2 = os.path.join(d, "tb"), os.path.join(d, "tb2")
        for f in (tb, tb2):
            with open(f, "w") as fh:
                fh.write("#!/bin/sh\n")
        a, b = gs.Sweep("s", BASIC).expand()[:2]
        check(a.key(tb) != b.key(tb), "two points, one key")
        check(a.key(tb) == gs.Sweep("s", BASIC).expand()[0].key(tb), "key not stable")
        check(a.key(tb) != a.key(tb2), "key ignores the testbench")
        c = gs.Sweep("s", BASIC.replace("policy=gto", "policy=oldest")).expand()[0]
        check(c.name == a.name and c.key(tb) != a.key(tb), "changed point value, same key")
        check(gs.testbench_sha256(os.path.join(d, "gone")) is None, "a missing testbench has contents")


FAKE_TB = """#!/bin/sh
# a stand-in testbench: lists its workloads, writes --stats-json, counts its runs, fails on --workload bad
if [ "$1" = --list-workloads ]; then printf 'vecadd\\tv\\nbfs\\tb\\nbad\\tb\\na\\ta\\nb\\tb\\nc\\tc\\n'; exit 0; fi
echo run >> "$FAKE_COUNT"
out=; w=; banks=2
while [ $# -gt 0 ]; do
    case $1 in
    --stats-json) out=$2; shift ;;
    --workload) w=$2; shift ;;
    --set) case $2 in regfile.banks=*) banks=${2#regfile.banks=} ;; esac; shift ;;
    esac
    shift
done
if [ "$w" = bad ]; then echo "line one"; echo "gpusc: workload bad: it failed" >&2; exit 1; fi
c=$((100 * banks))
[ "$w" = bfs ] && c=$((c * 3))
printf '{"program": "fake", "cycles": %d, "instances": [{"path": "tb.sm0.issue", "type": "issue", "stats": {"warp_instrs": {"value": 50, "unit": "instructions", "meaning": "m"}}}], "derived": {"tb.ipc": {"value": %s, "unit": "i/c", "meaning": "ipc"}}}\\n' $c $(echo "scale=4; 50 / $c" | bc -l 2>/dev/null || echo 0.5) > "$out"
"""


def fake_sweep(d, workloads="vecadd;bfs"):
    tb = os.path.join(d, "tb-fake")
    with open(tb, "w") as f:
        f.write(FAKE_TB.replace("$(echo \"scale=4; 50 / $c\" | bc -l 2>/dev/null || echo 0.5)", "0.5"))
    os.chmod(tb, 0o755)
    os.environ["FAKE_COUNT"] = os.path.join(d, "count")
    text = ("[sweep]\nname=f\ntestbench=%s\nworkloads=%s\n[axis banks]\nb2=--set regfile.banks=2\n"
            "b4=--set regfile.banks=4\n" % (tb, workloads))
    path = os.path.join(d, "f.sweep")
    with open(path, "w") as f:
        f.write(text)
    return path, tb


def runs(d):
    try:
        with open(os.path.join(d, "count")) as f:
            return len(f.read().splitlines())
    except OSError:
        return 0


def quiet(fn):
    old_out, old_err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
    try:
        rc = fn()
        return rc, sys.stdout.getvalue(), sys.stderr.getvalue()
    finally:
        sys.stdout, sys.stderr = old_out, old_err


@test
def local_run_resumes_and_reports_failures():
    with tempfile.TemporaryDirectory() as d:
        path, tb = fake_sweep(d, "vecadd;bad;bfs")
        out = os.path.join(d, "out")
        rc, so, se = quiet(lambda: gs.main(["run", path, "--out", out, "-j", "2"]))
        check(rc == 1, "a failed point must make the exit status 1, got %r" % rc)
        check(runs(d) == 6, "6 points, %d runs" % runs(d))
        check("point bad.tiny.b2 failed (exit status 1)" in se, se)
        check("command: " + tb in se and "--workload bad" in se, se)
        check("| gpusc: workload bad: it failed" in se, "log tail missing: " + se)
        check("4 run, 0 reused, 2 failed" in so, so)
        # resume: the 4 results are reused, the 2 failures run again
        rc, so, se = quiet(lambda: gs.main([path, "--out", out, "-j", "2"]))
        check(runs(d) == 8, "resume ran %d more" % (runs(d) - 6))
        check("0 run, 4 reused, 2 failed" in so, so)
        # a changed point runs again, the others do not
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace("workloads=vecadd;bad;bfs", "workloads=vecadd;bfs").replace(
                "b4=--set regfile.banks=4", "b4=--set regfile.banks=8"))
        rc, so, se = quiet(lambda: gs.main([path, "--out", out]))
        check(rc == 0 and runs(d) == 10, "changed configuration: rc %r, %d runs" % (rc, runs(d) - 8))
        # --force runs all
        rc, so, se = quiet(lambda: gs.main([path, "--out", out, "--force"]))
        check(runs(d) == 14, "--force ran %d" % (runs(d) - 10))
        # the table: one row per point, the parameters, every statistic
        with open(os.path.join(out, "results.csv")) as f:
            rows = list(csv.DictReader(f))
        check([r["point"] for r in rows] == ["vecadd.tiny.b2", "vecadd.tiny.b4", "bfs.tiny.b2", "bfs.tiny.b4"],
              [r["point"] for r in rows])
        check(list(rows[0].keys()) == ["point", "workload", "size", "banks", "status", "cycles",
                                       "tb.sm0.issue.warp_instrs", "tb.ipc"], list(rows[0].keys()))
        check(rows[3]["cycles"] == "2400" and rows[3]["banks"] == "b4", rows[3])
        db = sqlite3.connect(os.path.join(out, "results.sqlite"))
        got = db.execute('SELECT point, cycles FROM points WHERE workload = "bfs" ORDER BY cycles').fetchall()
        check(got == [("bfs.tiny.b2", 600), ("bfs.tiny.b4", 2400)], got)
        unit = db.execute("SELECT unit FROM stats WHERE name = 'tb.sm0.issue.warp_instrs'").fetchone()
        check(unit == ("instructions",), unit)
        db.close()


@test
def more_statistics_than_sqlite_has_columns():
    # a machine of many SMs with its mechanisms has more statistics than SQLite's 2000 columns:
    # the CSV has them all, `points` the first that fit (cycles and tb.* first), `point_stats` all
    with tempfile.TemporaryDirectory() as d:
        path, tb = fake_sweep(d, "vecadd")
        out = os.path.join(d, "out")
        rc, so, se = quiet(lambda: gs.main(["run", path, "--out", out]))
        check(rc == 0, se)
        n = 2100
        for p in gs.Sweep(path).expand():
            sj = os.path.join(gs.point_dir(out, p), "stats.json")
            js = json.load(open(sj))
            js["instances"] = [{"path": "tb.sm%d.issue" % i, "type": "issue",
                                "stats": {"warp_instrs": {"value": i, "unit": "instructions", "meaning": "m"}}}
                               for i in range(n)]
            json.dump(js, open(sj, "w"))
        rc, so, se = quiet(lambda: gs.main(["collect", path, "--out", out]))
        check(rc == 0, "collect failed: %r %s" % (rc, se))
        with open(os.path.join(out, "results.csv")) as f:
            rows = list(csv.DictReader(f))
        check(len(rows[0]) == 5 + n + 2 and rows[0]["tb.sm2099.issue.warp_instrs"] == "2099", len(rows[0]))
        db = sqlite3.connect(os.path.join(out, "results.sqlite"))
        cols = [r[1] for r in db.execute("PRAGMA table_info(points)")]
        check(len(cols) == 2000 and "cycles" in cols and "tb.ipc" in cols and "tb.sm0.issue.warp_instrs" in cols
              and "tb.sm2099.issue.warp_instrs" not in cols, (len(cols), cols[:8]))
        got = db.execute("SELECT value FROM point_stats WHERE point = 'vecadd.tiny.b4' "
                         "AND name = 'tb.sm2099.issue.warp_instrs'").fetchone()
        check(got == (2099,), got)
        count = db.execute("SELECT count(*) FROM point_stats WHERE point = 'vecadd.tiny.b2'").fetchone()
        check(count == (n + 2,), count)
        db.close()


@test
def a_testbench_that_cannot_run_is_a_failed_point():
    with tempfile.TemporaryDirectory() as d:
        path, tb = fake_sweep(d, "vecadd")
        os.chmod(tb, 0o755)
        out = os.path.join(d, "o")
        pts = gs.Sweep(path).expand()
        j = gs.Job(out, pts[0], os.path.join(d, "missing-tb"), 0)
        j.start()
        check(j.poll() and not j.ok and j.rc == 127, "rc %r" % j.rc)
        check("cannot run" in open(j.log).read(), open(j.log).read())
        check(gs.point_state(out, pts[0], os.path.join(d, "missing-tb")) == "failed", "state")


@test
def unknown_workloads_are_refused_before_running():
    with tempfile.TemporaryDirectory() as d:
        path, tb = fake_sweep(d, "vecadd;nosuch")
        raises(lambda: gs.main(["run", path, "--out", os.path.join(d, "o")]),
               "f.sweep:4: unknown workload 'nosuch' (tb-fake has: vecadd, bfs, bad, a, b, c)")
        check(runs(d) == 0, "ran %d points" % runs(d))


@test
def dry_run_runs_nothing():
    with tempfile.TemporaryDirectory() as d:
        path, tb = fake_sweep(d)
        rc, so, _ = quiet(lambda: gs.main(["run", path, "--out", os.path.join(d, "o"), "--dry-run"]))
        check(rc == 0 and runs(d) == 0, "dry run ran the testbench")
        check("vecadd.tiny.b2" in so and "# 4 points, 4 to run" in so and "--set regfile.banks=4" in so, so)


@test
def key_follows_the_testbench_binary():
    # a rebuilt testbench (other contents, same path) runs every point again; the same contents
    # with a new modification time (a `touch`, a relink that changed nothing) reuse them
    with tempfile.TemporaryDirectory() as d:
        path, tb = fake_sweep(d)
        out = os.path.join(d, "o")
        quiet(lambda: gs.main([path, "--out", out]))
        check(runs(d) == 4, "first run: %d runs" % runs(d))
        st = os.stat(tb)
        os.utime(tb, ns=(st.st_atime_ns, st.st_mtime_ns + 5 * 10**9))
        rc, so, _ = quiet(lambda: gs.main([path, "--out", out]))
        check(rc == 0 and runs(d) == 4 and "0 run, 4 reused" in so, "touched testbench: " + so)
        with open(tb, "a") as f:
            f.write("# rebuilt\n")
        pts = gs.Sweep(path).expand()
        check(gs.point_state(out, pts[0], tb) == "stale", gs.point_state(out, pts[0], tb))
        rc, so, _ = quiet(lambda: gs.main([path, "--out", out]))
        check(rc == 0 and runs(d) == 8 and "4 run, 0 reused" in so, "changed testbench: " + so)
        meta = json.load(open(os.path.join(out, "points", pts[0].name, "point.json")))
        check(meta.get("testbench_sha256") == gs.testbench_sha256(tb), meta)


@test
def collect_marks_missing_and_stale():
    with tempfile.TemporaryDirectory() as d:
        path, tb = fake_sweep(d)
        out = os.path.join(d, "o")
        quiet(lambda: gs.main([path, "--out", out]))
        s = gs.Sweep(path)
        pts = s.expand()
        os.remove(os.path.join(out, "points", pts[0].name, "stats.json"))
        meta = os.path.join(out, "points", pts[1].name, "point.json")
        m = json.load(open(meta))
        m["key"] = "0" * 64
        json.dump(m, open(meta, "w"))
        check(gs.point_state(out, pts[1], tb) == "stale", gs.point_state(out, pts[1], tb))
        rows, cols = gs.collect(s, out, tb, pts)
        check([r["status"] for r in rows] == ["missing", "missing", "ok", "ok"], [r["status"] for r in rows])


@test
def slurm_script_and_chunks():
    with tempfile.TemporaryDirectory() as d:
        path, tb = fake_sweep(d, "a;b;c")
        out = os.path.join(d, "o")
        rc, so, _ = quiet(lambda: gs.main(["slurm", path, "--out", out, "--per-task", "4", "--dry-run",
                                           "--sbatch-arg=--partition=debug"]))
        check(rc == 0, rc)
        check("#SBATCH --array=0-1\n" in so, "6 points, 4 per task: 2 tasks\n" + so)
        check("#SBATCH --partition=debug" in so and "task " in so and "$SLURM_ARRAY_TASK_ID" in so, so)
        check(not os.path.exists(os.path.join(out, "slurm")), "dry run wrote the job list")
        check("/slurm/jobs-" in so, so)
        # a task runs its points from the job list
        os.makedirs(os.path.join(out, "slurm"))
        pts = gs.Sweep(path).expand()
        gs.write_json(os.path.join(out, "slurm", "jobs.json"),
                      {"out": out, "testbench": tb, "tasks": [[{"name": p.name, "params": p.params, "argv": p.argv}
                                                               for p in pts[4:]]]})
        rc, so, _ = quiet(lambda: gs.cmd_task(os.path.join(out, "slurm", "jobs.json"), 0))
        check(rc == 0 and runs(d) == 2, "task: rc %r, %d runs" % (rc, runs(d)))
        check([gs.point_state(out, p, tb) for p in pts] == ["new"] * 4 + ["done"] * 2, "states after the task")


@test
def bars_normalise_with_geomean():
    fields = ["workload", "policy", "m"]
    rows = [dict(zip(fields, r)) for r in [("a", "base", "2"), ("a", "x", "4"), ("b", "base", "10"), ("b", "x", "2.5")]]
    groups, sers, t = gp.bars_table(fields, rows, "m", "policy", "base", "workload", "t")
    check(groups == ["a", "b", "gmean"] and sers == ["base", "x"], (groups, sers))
    check(t["a"]["x"] == 2.0 and t["b"]["x"] == 0.25 and t["a"]["base"] == 1.0, t)
    check(math.isclose(t["gmean"]["x"], math.sqrt(2.0 * 0.25)), t["gmean"])
    raises(lambda: gp.bars_table(fields, rows, "m", "policy", "nope", "workload", "t"), "baseline 'nope'")
    raises(lambda: gp.bars_table(fields, rows + rows[:1], "m", "policy", "base", "workload", "t"),
           "more than one row for workload=a, policy=base")


@test
def lines_sort_a_numeric_axis():
    fields = ["workload", "banks", "cycles"]
    rows = [dict(zip(fields, r)) for r in [("a", "16", "5"), ("a", "2", "9"), ("a", "4", "7"), ("b", "2", "3"),
                                           ("b", "16", "1")]]
    ran = []
    old = gp.run_gnuplot
    gp.run_gnuplot = lambda script, label: ran.append(script)
    try:
        with tempfile.TemporaryDirectory() as d:
            files = gp.plot_lines(fields, rows, "cycles", "banks", "workload", os.path.join(d, "l"))
            dat = open(os.path.join(d, "l.dat")).read().splitlines()
            gpfile = open(os.path.join(d, "l.gp")).read()
    finally:
        gp.run_gnuplot = old
    check(files[0].endswith("l.png") and files[1].endswith("l.svg") and len(ran) == 1, files)
    check(dat[2:] == ['0 2 9 3', '1 4 7 NaN', '2 16 5 1'], dat)  # a numeric x bare: gnuplot plots it
    check("set terminal pngcairo" in gpfile and "set terminal svg" in gpfile and "using 2:3" in gpfile, gpfile)
    if shutil.which("gnuplot"):  # the real gnuplot draws it (it refuses a quoted number as x: no point)
        with tempfile.TemporaryDirectory() as d:
            files = gp.plot_lines(fields, rows, "cycles", "banks", "workload", os.path.join(d, "l"))
            check(all(os.path.getsize(f) > 0 for f in files), files)


print("1..%d" % len(TESTS))
failed = 0
for i, fn in enumerate(TESTS, 1):
    try:
        fn()
        print("ok %d - %s" % (i, fn.__name__))
    except Exception:
        failed += 1
        print("not ok %d - %s" % (i, fn.__name__))
        for line in traceback.format_exc().splitlines():
            print("# " + line)
sys.exit(1 if failed else 0)
