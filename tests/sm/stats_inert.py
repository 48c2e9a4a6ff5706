#!/usr/bin/env python3
"""stats_inert.py BASE.json RUN.json [--allow NAME]: compare a run with a sharing mechanism present but inactive
(RUN) with the unshared baseline (BASE), both --stats-json. Every statistic of BASE must be in RUN
with the same value; a statistic only RUN has (the counters of its added blocks: the lock table,
smem_share) must be 0. Prints one line per difference ("name: BASE vs RUN") and exits 1 if there
is any; the simulator's own speed figures are left out. --allow NAME: RUN's own statistics ending in
NAME may be nonzero (the lock table's count of unshared CTAs where ShSM = 1 but no pair forms)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stats_same import flat  # noqa: E402 (the same reading of --stats-json)


base, run = flat(sys.argv[1]), flat(sys.argv[2])
allow = sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--allow" else None
diff = [k for k in sorted(base) if run.get(k) != base[k]]
diff += [k for k in sorted(set(run) - set(base)) if run[k] != 0 and not (allow and k.endswith(allow))]
for k in diff:
    print("%s: %s vs %s" % (k, base.get(k, "(absent)"), run.get(k, "(absent)")))
sys.exit(1 if diff else 0)
