"""Table 5 (two threads, 300^3, f32 arrays) over the back-to-back runs run-N.csv here: each row's
% of the same run's STREAM probe, its median and range, and each scheme's best variant's."""
import csv, glob, statistics, collections
v, best = collections.defaultdict(list), collections.defaultdict(list)
for f in sorted(glob.glob("run-*.csv")):
    rows = [r for r in csv.DictReader(open(f)) if r["table"] == "table5-allthreads"]
    b = {}
    for r in rows:
        p = float(r["pct_bw"])
        v[(r["scheme"], r["variant"])].append(p)
        b[r["scheme"]] = max(b.get(r["scheme"], 0), p)
    for s, p in b.items(): best[s].append(p)
    print(f"{f}: STREAM copy {float(rows[0]['bw_copy_gbs']):.1f} GB/s, triad {float(rows[0]['bw_second_gbs']):.1f}")
for (s, var), x in sorted(v.items()):
    print(f"{s:7s} {var:6s} " + " ".join(f"{y:6.1f}" for y in x) + f"   median {statistics.median(x):6.1f}  range {max(x) - min(x):5.1f}")
for s, x in best.items():
    print(f"best {s:7s}   " + " ".join(f"{y:6.1f}" for y in x) + f"   median {statistics.median(x):6.1f}  range {max(x) - min(x):5.1f}")
