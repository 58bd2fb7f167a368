#!/bin/bash
# Hardware counters of chosen kernels on a lent GPU (ncu, clocks left as they are):
#   bash scripts/gpu_profile.sh SCHEME:VARIANT:COEF:BLOCK:NODES[:ROWS] ...   e.g. fv24:baseline:array:32x4x1:1
# (ROWS, for tiled variants: left out, the kernel's default; fv24:tile25d:uniform:32x4x1:64:4)
# For each, one Hx update of a 512^3 grid (the launch after verification and calibration):
# DRAM, L2 and L1 bytes per node update against the compulsory bytes, and how busy the memory
# and load pipes were. Needs build/fdtdbench; writes $OUT/profile.log.
set -u -o pipefail
OUT=${OUT:-.}
B=${BUILD:-build}/fdtdbench
metrics=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,gpu__time_duration.sum
metrics=$metrics,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed
metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
for spec in "$@"; do
    IFS=: read -r scheme variant coef block nodes rows <<<"$spec"
    echo "== $spec"
    # Launches before the timed ones: 2 verification runs, then 2 for calibration.
    ncu --clock-control none --metrics "$metrics" -k "regex:k_${scheme}_hx_f32_${coef}_${variant}" \
        --launch-skip 4 --launch-count 1 --csv --page raw \
        "$B" run --device gpu --scheme "$scheme" --variant "$variant" --coef "$coef" --block "$block" \
        --nodes "$nodes" ${rows:+--rows "$rows"} --grid 512 --reps 1 \
        >"$OUT/ncu-$scheme-$variant-$coef.csv" 2>&1
    python3 - "$OUT/ncu-$scheme-$variant-$coef.csv" "$scheme" "$coef" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if len(r) > 10]
if len(rows) < 3:
    print("  no counters:", open(sys.argv[1]).read()[-400:]); sys.exit()
head, units, vals = rows[0], rows[1], rows[2]
v = {h: vals[i] for i, h in enumerate(head)}
u = {h: units[i] for i, h in enumerate(head)}
def num(k):
    x = float(v[k].replace(",", ""))
    scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3}
    return x * scale.get(u[k], 1)
updates = 512 ** 3
print("  DRAM read %.1f + write %.1f B/update, L2 %.1f, L1 %.1f; %s %s; DRAM %s%%, L1 %s%%, warps active %s%%, %s regs" % (
    num("dram__bytes_read.sum") / updates, num("dram__bytes_write.sum") / updates, num("lts__t_bytes.sum") / updates,
    num("l1tex__t_bytes.sum") / updates, v["gpu__time_duration.sum"], u["gpu__time_duration.sum"],
    v["dram__throughput.avg.pct_of_peak_sustained_elapsed"], v["l1tex__throughput.avg.pct_of_peak_sustained_elapsed"],
    v["sm__warps_active.avg.pct_of_peak_sustained_active"], v["launch__registers_per_thread"]))
PY
done 2>&1 | tee "$OUT/profile.log"
