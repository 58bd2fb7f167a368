"""The in-cache rounds of incache-bench.sh (its CSVs copied here as incache-bench-SIDE-ROUND.csv): updates a cycle a core per side, variant, scheme and
thread count (median of the rounds, and their range), and regza over plain of the same run."""
import csv, glob, statistics, sys, collections
root = sys.argv[1] if len(sys.argv) > 1 else "."
v = collections.defaultdict(list)   # (side, threads, scheme, variant) -> [upc by round]
ratio = collections.defaultdict(list)
for f in sorted(glob.glob(f"{root}/incache-bench-*-*.csv")):  # incache-bench-SIDE-ROUND.csv
    side = f.rsplit("/", 1)[1].split("-")[2]
    rows = [r for r in csv.DictReader(open(f)) if r["table"] == "incache"]
    upc = {(r["threads"], r["scheme"], r["variant"]): float(r["updates_per_cycle"]) for r in rows}
    for (t, s, var), u in upc.items():
        v[(side, t, s, var)].append(u)
        if var != "plain": ratio[(side, t, s, var)].append(u / upc[(t, s, "plain")])
for t in ("1", "2"):
    print(f"threads {t}: updates a cycle a core, median (range) of the rounds; best/plain by run")
    for s in ("yee", "fv24", "fv24wb", "s22", "s44"):
        line = f"  {s:7s}"
        for var in ("plain", "regz", "regza"):
            for side in ("base", "new"):
                x = v[(side, t, s, var)]
                line += f" {var[:5]}-{side[0]} {statistics.median(x):.3f} ({min(x):.3f}-{max(x):.3f})"
        for side in ("base", "new"):
            r = ratio[(side, t, s, "regza")]
            line += f" | regza/plain {side} {statistics.median(r):.2f} ({min(r):.2f}-{max(r):.2f})"
        print(line)
