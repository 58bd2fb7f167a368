#!/bin/bash
# Why Table 4's tile25d rows lose 4 points at 300^3 against 512^3 (FV24, S{2,2}, tuned launches):
# ncu's waves, SM active time, occupancy limits and DRAM throughput of each run's last launch.
# OUT=... bash tile25d-300-ncu.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >"$OUT/build.log" 2>&1 || { tail "$OUT/build.log"; exit 1; }
m=gpu__time_duration.sum,launch__waves_per_multiprocessor,launch__grid_size,launch__block_size
m=$m,sm__cycles_active.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
m=$m,sm__maximum_warps_per_active_cycle_pct,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers
m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum
m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__shared_mem_per_block_dynamic
for s in fv24 s22; do for g in 300 512; do
    echo "== $s $g"
    ncu --clock-control none --metrics "$m" -k "regex:^k_" --csv --page raw \
        build/fdtdbench run --device gpu --scheme $s --variant tile25d --grid $g --reps 1 >"$OUT/ncu-$s-$g.csv" 2>&1
    tail -n 3 "$OUT/ncu-$s-$g.csv" | cut -c1-300
    python3 -c '
import csv, sys
rows = [r for r in csv.reader(sys.stdin) if len(r) > 5]
head = rows[0]; last = rows[-1]
for h, v in zip(head, last):
    if any(k in h for k in ("__", "Kernel Name")): print("  %s = %s" % (h, v))' <"$OUT/ncu-$s-$g.csv"
done; done
