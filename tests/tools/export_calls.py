"""Which exports' call probes moved in a VCD traced with --trace='*.calls'.

  python3 export_calls.py VCD INSTANCE.EXPORT...

Each argument names an export by its instance's name (a glob: "ccu*", "smiu_*") and the export's
port ("check"); the signal <...>.<instance>.<export>.calls of some instance matching it must show
a call (a nonzero value) at least once. Prints one line per export that has no such signal or
whose signals never moved, and exits 1 if there is one.
"""
import fnmatch
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import vcd_decl  # noqa: E402


def main():
    path, wanted = sys.argv[1], sys.argv[2:]

    def key_of(v):
        return v.scope if v.name == "calls" and len(v.scope) >= 2 else None

    declared = {key_of(v) for v in vcd_decl.declarations(path)} - {None}
    calls = vcd_decl.series(path, key_of)
    bad = 0
    for w in wanted:
        inst, export = w.rsplit(".", 1)
        keys = [k for k in declared if k[-1] == export and fnmatch.fnmatchcase(k[-2], inst)]
        if not keys:
            print(f"{w}: no traced .calls signal")
            bad = 1
        elif not any(v for k in keys for v in calls.get(k, ((), ()))[1]):
            print(f"{w}: .calls stays 0 in {len(keys)} instance(s)")
            bad = 1
    return bad


if __name__ == "__main__":
    sys.exit(main())
