#!/usr/bin/env python3
"""What a kernel's warps executed, from ncu's source page of one launch
(ncu -i REP --page source --csv --print-source sass > SOURCE.csv, with the SourceCounters section):
warp instructions per cell by opcode, with each opcode's share of the stall samples, then the
march loop's regions (plane top to the barrier, the barrier to the last arithmetic before the first
store, the stores to the loop's back branch, the rest). CELLS: the launch's cells (nodes x steps).
    python3 sass_mix.py SOURCE.csv[.gz] CELLS"""
import collections, csv, gzip, sys

path, cells = sys.argv[1], float(sys.argv[2])
rows = list(csv.reader((gzip.open if path.endswith(".gz") else open)(path, "rt")))
h = next(i for i, r in enumerate(rows) if r and r[0] == "Address")
col = {k: i for i, k in enumerate(rows[h])}
num = lambda r, k: float(r[col[k]].replace(",", "") or 0)
ins = [(int(r[col["Address"]], 16), r[col["Source"]].strip(), num(r, "Instructions Executed"),
        num(r, "Warp Stall Sampling (All Samples)")) for r in rows[h + 1:] if len(r) == len(rows[h])]
op = lambda s: (s.split()[1] if s.startswith("@") else s.split()[0]).split(".")[0]
total, samples = sum(x[2] for x in ins), sum(x[3] for x in ins)
print("warp instructions a cell %.2f, stall samples %d" % (total / cells, samples))
by, smp = collections.Counter(), collections.Counter()
for _, s, ex, sm in ins:
    by[op(s)] += ex
    smp[op(s)] += sm
for o, v in by.most_common(20):
    print("  %-8s %6.2f a cell  %5.1f%% of the stall samples" % (o, v / cells, 100 * smp[o] / samples))
hot = [x for x in ins if x[2] / cells > 0.01]
bar = max(a for a, s, _, _ in ins if op(s) == "BAR")
store = min(a for a, s, _, _ in hot if op(s) == "STG" and a > bar)
last_fp = max(a for a, s, _, _ in hot if op(s) in ("FADD", "FFMA", "FMUL") and a < store)
back = max(a for a, s, _, _ in hot if op(s) == "BRA")
top = min(a for a, s, _, _ in hot if a > ins[0][0] + 0x4000)
for name, lo, hi in (("plane top to the barrier", top, bar + 1), ("barrier to the last arithmetic", bar + 1, last_fp + 1),
                     ("the stores to the back branch", last_fp + 1, back + 1)):
    part = [x for x in ins if lo <= x[0] < hi]
    print("  %-32s %5.2f a cell  %3.0f%% of the stall samples" % (name, sum(x[2] for x in part) / cells,
                                                                 100 * sum(x[3] for x in part) / samples))
rest = [x for x in ins if not top <= x[0] < back + 1]
print("  %-32s %5.2f a cell" % ("outside the loop", sum(x[2] for x in rest) / cells))
