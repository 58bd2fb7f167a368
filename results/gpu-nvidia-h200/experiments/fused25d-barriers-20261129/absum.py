"""Means of ab.sh's lines per side and command, and new/old: python3 absum.py LOG..."""
import re, sys, collections
for path in sys.argv[1:]:
    v = collections.defaultdict(list)
    for line in open(path):
        m = re.match(r"(old|new) (.*?): .*mcells_per_s=([0-9.]+)", line)
        if m: v[(m.group(2), m.group(1))].append(float(m.group(3)))
    print(path)
    for cmd in dict.fromkeys(c for c, _ in v):
        o, n = v[(cmd, "old")], v[(cmd, "new")]
        mo, mn = sum(o) / len(o), sum(n) / len(n)
        print(f"  {cmd.replace('step --device gpu --variant fused25d ', ''):40s} old {mo:9.1f} new {mn:9.1f} new/old {mn / mo:.3f}"
              f"  (rounds: old {min(o):.0f}-{max(o):.0f}, new {min(n):.0f}-{max(n):.0f})")
