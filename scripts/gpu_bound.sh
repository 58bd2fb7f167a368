#!/bin/bash
# What bounds each chosen GPU kernel (ncu on a lent GPU, clocks and caches left as they are):
#   bash scripts/gpu_bound.sh "run ARGS" "step ARGS" ...
#   e.g. "run --scheme fv24 --variant tile25d --grid 300"  "step --scheme fv24 --variant fused25d --coef uniform"
# A run spec profiles its kernel's last launch (the timed one); a step spec the last launch of each
# of its kernels (the timed step's H and E half-steps). Per kernel: time, DRAM bytes per cell (a
# layer kernel's: per slab cell), how busy DRAM, L2, L1/shared and the issue slots were, warps
# active against the occupancy its registers and shared memory allow, instructions per cell, and
# the three largest stall reasons per issued instruction; then a verdict, by the first rule that
# holds:
#   DRAM       DRAM at least 85% of its peak: the kernel moves its bytes as fast as they come
#   L2         L2 at least 90% busy: fewer bytes a cell between L1 and L2 would be faster (halo
#              rows read by two tiles, partial sectors)
#   issue      issue slots at least 70% busy: fewer instructions per cell would be faster
#   L1/shared  the L1/shared pipe at least 70% busy
#   latency    none of those: warps wait (the stalls say on what), too few in flight to cover it
# KERNELS: which kernels, a regex of their names (^k_: the update kernels; ^l_: the CPML layer's).
# Needs build/fdtdbench and ncu; writes $OUT/bound.log (a Markdown table) and one ncu CSV per spec.
# With NCU_CSV=FILE and one spec, reads that spec's ncu CSV written before instead of running ncu
# (the spec still gives the grid: a cell's figures).
set -u -o pipefail
OUT=${OUT:-.}
KERNELS=${KERNELS:-^k_}
B=${BUILD:-build}/fdtdbench
stall=smsp__average_warps_issue_stalled
metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread
metrics=$metrics,dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed
metrics=$metrics,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active
metrics=$metrics,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct
metrics=$metrics,smsp__inst_executed.sum,launch__grid_size,launch__block_size
for s in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait not_selected math_pipe_throttle \
    no_instruction dispatch_stall membar sleeping drain misc branch_resolving; do
    metrics=$metrics,${stall}_${s}_per_issue_active.ratio
done
echo "| spec | kernel | µs | DRAM B/cell (R+W) | DRAM % | L2 % | L1 % | issue % | warps active % (of possible) | regs | warp instr/cell | top stalls per issue | bound |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"
n=0
for spec in "$@"; do
    n=$((n + 1))
    csv=${NCU_CSV:-$OUT/ncu-bound-$n.csv}
    # shellcheck disable=SC2086 # the spec is a list of words
    [ -n "${NCU_CSV:-}" ] || ncu --clock-control none --cache-control none --metrics "$metrics" -k "regex:$KERNELS" \
        --csv --page raw "$B" $spec --device gpu --reps 1 >"$csv" 2>&1
    python3 - "$csv" "$spec" <<'PY'
import csv, re, sys
text, spec = open(sys.argv[1]).read(), sys.argv[2]
rows = list(csv.reader(text.splitlines()))
rows = rows[next((i for i, r in enumerate(rows) if "Kernel Name" in r), len(rows)):]
if len(rows) < 3:
    print("| %s | no counters: %s |" % (spec, text[-300:].replace("\n", " "))); sys.exit()
head, units, runs = rows[0], rows[1], rows[2:]
col = {h: i for i, h in enumerate(head)}
scale = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "ns": 1e-9, "us": 1e-6, "ms": 1e-3,
         "nsecond": 1e-9, "usecond": 1e-6, "msecond": 1e-3}
def num(r, k):
    return float(r[col[k]].replace(",", "")) * scale.get(units[col[k]], 1)
m = re.search(r"--grid (\d+)(?:x(\d+)x(\d+))?", spec)
g = [int(m.group(1))] * 3 if m and not m.group(2) else [int(x) for x in m.groups()] if m else None
cells = g[0] * g[1] * g[2] if g else 512 ** 3 if spec.startswith("step") else None
last = {}  # each kernel's last launch: the timed one
for r in runs:
    last[r[col["Kernel Name"]]] = r
for name, r in last.items():
    # a layer kernel's cell is its slab's (a thread each)
    c = num(r, "launch__grid_size") * num(r, "launch__block_size") if name.startswith("l_") else cells or 1
    stalls = sorted(((num(r, k), k.split("stalled_")[1].split("_per_")[0]) for k in col if "_stalled_" in k), reverse=True)
    dram, l2, issue, l1 = (num(r, k) for k in ("dram__throughput.avg.pct_of_peak_sustained_elapsed",
                                               "lts__throughput.avg.pct_of_peak_sustained_elapsed",
                                               "smsp__issue_active.avg.pct_of_peak_sustained_active",
                                               "l1tex__throughput.avg.pct_of_peak_sustained_elapsed"))
    bound = "DRAM" if dram >= 85 else "L2" if l2 >= 90 else "issue" if issue >= 70 else "L1/shared" if l1 >= 70 else \
        "latency (%s)" % stalls[0][1]
    print("| %s | %s | %.1f | %.1f + %.1f | %.0f | %.0f | %.0f | %.0f | %.0f (%.0f) | %d | %.1f | %s | %s |" % (
        spec, name, num(r, "gpu__time_duration.sum") * 1e6, num(r, "dram__bytes_read.sum") / c,
        num(r, "dram__bytes_write.sum") / c, dram, l2, l1,
        issue, num(r, "sm__warps_active.avg.pct_of_peak_sustained_active"),
        num(r, "sm__maximum_warps_per_active_cycle_pct"), num(r, "launch__registers_per_thread"),
        num(r, "smsp__inst_executed.sum") / c, ", ".join("%s %.1f" % (k, v) for v, k in stalls[:3]), bound))
PY
done 2>&1 | tee "$OUT/bound.log"
