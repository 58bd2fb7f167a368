#!/bin/bash
# Issue 25: is the GPU layer's pass held by the L2 partition fabric, as the fused25d rows are
# (bounds-all-rows-20261129)? run2.sh's counters for the CPML passes of the fused step with a
# 10-cell layer at 512^3, beside the probe's copy16 in the same process. Every layer launch is
# profiled (the verification's and the reflection run's too, small grids): a short metric list
# keeps that cheap; l2parse.py reads each kernel's last launch, the timed grid's.
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || exit 1
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex.sum
m=$m,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,sm__warps_active.avg.pct_of_peak_sustained_active
n=0
for s in yee fv24; do
    n=$((n + 1))
    timeout 170 ncu --clock-control none --cache-control none --metrics "$m" -k 'regex:cpml|copy16' \
        --csv --page raw build/fdtdbench step --scheme $s --variant fused --pml 10 --grid 512 --device gpu --reps 1 \
        --steps 1 >"$OUT/l2-$n.csv" 2>&1
    echo "$n: step --scheme $s --variant fused --pml 10 --grid 512 --reps 1 --steps 1: exit $?" >>"$OUT/specs.txt"
done
gzip -9 "$OUT"/l2-*.csv
ls -la "$OUT"
