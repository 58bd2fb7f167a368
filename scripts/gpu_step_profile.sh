#!/bin/bash
# Where one whole step's time goes on a lent GPU (ncu, clocks and caches left as they are):
#   bash scripts/gpu_step_profile.sh "STEP ARGS" ...   e.g. "--scheme yee --variant fused --grid 512"
# For each, `fdtdbench step --device gpu ARGS --steps 1 --reps 1` under ncu; the kernels of its
# last step (the timed one) are listed with their time and DRAM bytes per cell, and summed, so
# that the step's wall time minus that sum is what launch gaps cost. Needs build/fdtdbench;
# writes $OUT/step-profile.log and one ncu CSV per spec.
set -u -o pipefail
OUT=${OUT:-.}
B=${BUILD:-build}/fdtdbench
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics=$metrics,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__registers_per_thread
n=0
for spec in "$@"; do
    n=$((n + 1))
    echo "== step $spec"
    # shellcheck disable=SC2086 # the spec is a list of words
    ncu --clock-control none --cache-control none --metrics "$metrics" -k "regex:^(k_|refresh)" --csv --page raw \
        "$B" step --device gpu $spec --steps 1 --reps 1 >"$OUT/ncu-step-$n.csv" 2>&1
    python3 - "$OUT/ncu-step-$n.csv" <<'PY'
import csv, sys
text = open(sys.argv[1]).read()
rows = list(csv.reader(text.splitlines()))
rows = rows[next((i for i, r in enumerate(rows) if "Kernel Name" in r), len(rows)):]  # the program's own lines before
if len(rows) < 3:
    print("  no counters:", text[-600:]); sys.exit()
head, units = rows[0], rows[1]
col = {h: i for i, h in enumerate(head)}
scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "ns": 1e-9, "us": 1e-6, "ms": 1e-3,
         "nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3}
def num(r, k):
    return float(r[col[k]].replace(",", "")) * scale.get(units[col[k]], 1)
runs = rows[2:]
per_step = 0
for r in reversed(runs):  # count back from the end to the timed step's first update kernel
    per_step += 1
    if r[col["Kernel Name"]].startswith("k_") and ("_hx_" in r[col["Kernel Name"]]):
        break
step = runs[-per_step:]
tot_t = tot_b = 0
for r in step:
    t, rd, wr = num(r, "gpu__time_duration.sum"), num(r, "dram__bytes_read.sum"), num(r, "dram__bytes_write.sum")
    tot_t += t; tot_b += rd + wr
    print("  %-40s %9.1f us  DRAM %7.1f + %6.1f MB  %5.1f GB/s  %s%% busy  %s regs" % (
        r[col["Kernel Name"]][:40], t * 1e6, rd / 1e6, wr / 1e6, (rd + wr) / t / 1e9,
        r[col["dram__throughput.avg.pct_of_peak_sustained_elapsed"]], r[col["launch__registers_per_thread"]]))
print("  sum of the step's %d kernels: %.1f us, DRAM %.1f MB (%.0f GB/s)" % (len(step), tot_t * 1e6, tot_b / 1e6, tot_b / tot_t / 1e9))
PY
done 2>&1 | tee "$OUT/step-profile.log"
