#!/bin/bash
# Which part of L2 is busy (ncu's breakdown of lts__throughput) in FV24's uniform and indexed
# fused25d Hx kernels at their tuned launches, the timed (last) launch. From the repository root
# on the device: OUT=... bash .../l2.sh
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
make -j16 >$OUT/build.log 2>&1 || exit 1
for c in uniform indexed; do
    K=k_fv24_hx_f32_${c}_fused25d
    n=$(ncu --metrics gpu__time_duration.sum -k "regex:$K" --csv build/fdtdbench step --scheme fv24 --variant fused25d --coef $c --device gpu --reps 1 2>/dev/null | grep -c gpu__time_duration)
    ncu --cache-control none --clock-control none -k "regex:$K" --launch-skip $((n - 1)) --launch-count 1 \
        --metrics breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,breakdown:dram__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sectors.sum,lts__t_requests.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__bytes_read.sum,dram__bytes_write.sum \
        build/fdtdbench step --scheme fv24 --variant fused25d --coef $c --device gpu --reps 1 2>&1 | grep -E '^ +[a-z]' | sort -k3 -n -r > $OUT/l2-fv24-$c.log
    echo "== $c"; cat $OUT/l2-fv24-$c.log
done
