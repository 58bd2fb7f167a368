#!/bin/bash
# Third call: run2.sh's L2 counters for Table 4's tile25d rows at 300³ (the sitting's launches),
# every scheme, beside the probe's copy16 in the same process.
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || exit 1
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex.sum
m=$m,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
n=4
for s in yee fv24wb s22 s44; do
    n=$((n + 1))
    timeout 60 ncu --clock-control none --cache-control none --metrics "$m" -k 'regex:^k_|copy16' \
        --csv --page raw build/fdtdbench run --scheme $s --variant tile25d --grid 300 --device gpu --reps 1 >"$OUT/l2-$n.csv" 2>&1
    echo "$n: run --scheme $s --variant tile25d --grid 300" >>"$OUT/specs.txt"
done
ls -la "$OUT"
