"""Median ns/update per kernel and side of incache.log, and the per-round new/base ratios."""
import re, statistics, collections, sys
v = collections.defaultdict(dict)
for line in open(sys.argv[1] if len(sys.argv) > 1 else "incache.log"):
    m = re.match(r"round (\d+) (base|new) (\S+) .*: ([0-9.]+) ns/update", line)
    if m: v[(m.group(3), m.group(2))][int(m.group(1))] = float(m.group(4))
for k in dict.fromkeys(k for k, _ in v):
    b, n = v[(k, "base")], v[(k, "new")]
    r = [n[i] / b[i] for i in b if i in n]
    print(f"{k:28s} base {statistics.median(b.values()):.3f}  new {statistics.median(n.values()):.3f} ns/update"
          f"  new/base by round {min(r):.2f}-{max(r):.2f} (median {statistics.median(r):.2f})")
