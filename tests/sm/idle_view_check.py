#!/usr/bin/env python3
"""Check a generated .gtkw's idle groups against its VCD and the run's statistics (TAP).

usage: idle_view_check.py RUN.vcd RUN.gtkw RUN.stats

A group is idle when none of its signals changes after the VCD's $dumpvars; the view must label
exactly those groups "(idle)" and start them closed. The numbered SM groups (tb.gpu.smN) must be
idle exactly when the statistics count no CTA run on that SM (tb.gpu.smN.issue.ctas), and the
first SM that ran one must start open.
"""
import re
import sys

GROUP_BEGIN = ("@800200", "@c00200")
GROUP_END = "@1000200"


def vcd_changes(path):
    """The full names of the VCD's signals and the set of those that change after the dump."""
    names = {}  # code -> full name
    scope = []
    changed = set()
    with open(path) as f:
        for line in f:
            if line.startswith("$enddefinitions"):
                break
            w = line.split()
            if w[:1] == ["$scope"]:
                scope.append(w[2])
            elif w[:1] == ["$upscope"]:
                scope.pop()
            elif w[:1] == ["$var"]:
                names[w[3]] = ".".join(scope + [w[4]])
        in_dump = False
        for line in f:
            line = line.rstrip("\n")
            if not line or line[0] == "#":
                continue
            if line.startswith("$dumpvars"):
                in_dump = True
                continue
            if line.startswith("$end"):
                in_dump = False
                continue
            if in_dump:
                continue
            code = line.split()[1] if line[0] in "br" else line[1:]
            changed.add(code)
    return set(names.values()), {names[c] for c in changed if c in names}


def view_groups(path):
    """The view's groups in order: (label, begin flags, [signal names]), a signal in each group
    that encloses it."""
    groups, stack = [], []
    lines = open(path).read().split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        if line in GROUP_BEGIN or line == GROUP_END:
            label = lines[i + 1][1:]
            if line == GROUP_END:
                stack.pop()
            else:
                groups.append((label, line, []))
                stack.append(groups[-1])
            i += 2
            continue
        if line and line[0] not in "@-[*^":
            name = re.sub(r"\[\d+:\d+\]$", "", line)
            for g in stack:
                g[2].append(name)
        i += 1
    return groups


def main():
    vcd, gtkw, stats = sys.argv[1:4]
    traced, moved = vcd_changes(vcd)
    groups = view_groups(gtkw)
    ctas = {}
    for line in open(stats):
        m = re.match(r"tb\.gpu\.sm(\d+)\.issue\.ctas\s+(\d+)", line)
        if m:
            ctas[int(m.group(1))] = int(m.group(2))
    results = []

    def check(ok, what, detail=""):
        results.append((ok, what, detail))

    unknown = [n for g in groups for n in g[2] if n not in traced]
    check(not unknown, "every signal of the view is in the VCD", ", ".join(unknown[:3]))
    wrong = []
    for label, flags, sigs in groups:
        idle = label.endswith(" (idle)")
        acted = any(n in moved for n in sigs)
        if idle == acted or (idle and flags != "@c00200"):
            wrong.append(f"{label} ({flags}, a signal changes: {acted})")
    n_idle = sum(1 for g in groups if g[0].endswith(" (idle)"))
    check(not wrong and 0 < n_idle < len(groups),
          f"the {n_idle} groups labelled idle (of {len(groups)}) start closed and are those "
          "none of whose signals changes", "; ".join(wrong[:3]))
    sms = {}
    for label, flags, _ in groups:
        m = re.fullmatch(r"tb\.gpu\.sm(\d+)( \(idle\))?", label)
        if m:
            sms[int(m.group(1))] = (bool(m.group(2)), flags)
    ran = sorted(s for s in sms if ctas.get(s, 0) > 0)
    idle_sms = sorted(s for s in sms if sms[s][0])
    check(ran and idle_sms and idle_sms == sorted(set(sms) - set(ran)),
          f"the SMs labelled idle ({len(idle_sms)} of {len(sms)}) are those that ran no CTA",
          f"idle {idle_sms}, ran a CTA {ran}")
    check(bool(ran) and sms[ran[0]][1] == "@800200", f"SM {ran[0] if ran else '?'}, which ran a CTA, starts open")
    print(f"1..{len(results)}")
    for k, (ok, what, detail) in enumerate(results, 1):
        print(f"{'ok' if ok else 'not ok'} {k} - {what}")
        if not ok and detail:
            print(f"# {detail}")
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
