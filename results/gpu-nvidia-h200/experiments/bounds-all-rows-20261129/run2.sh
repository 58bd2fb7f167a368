#!/bin/bash
# Second call: which of L2's units is full in the L2-bound rows, and the L2 bytes a DRAM byte of
# each kernel against the bandwidth probe's own copy kernel (copy16), in the same process.
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || exit 1
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex.sum
m=$m,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
n=0
for spec in "step --scheme fv24 --variant fused25d --coef uniform --grid 512" \
    "step --scheme yee --variant fused25d --coef uniform --grid 512" \
    "step --scheme s44 --variant fused25d --coef array --grid 512" \
    "run --scheme fv24 --variant tile25d --grid 300"; do
    n=$((n + 1))
    timeout 100 ncu --clock-control none --cache-control none --metrics "$m" -k 'regex:^k_|copy16' \
        --csv --page raw build/fdtdbench $spec --device gpu --reps 1 >"$OUT/l2-$n.csv" 2>&1
    echo "$n: $spec" >>"$OUT/specs.txt"
done
ls -la "$OUT"
