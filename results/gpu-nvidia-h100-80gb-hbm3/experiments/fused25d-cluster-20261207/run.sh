#!/bin/bash
# fused25d's blocks in clusters along y, kept in step by a cluster barrier every P planes
# (cluster.patch applied; FDTDBENCH_FUSED25D_CLUSTER="CY:P"), against plain launches: FV24's uniform
# step at 512³ on the tuned tile at 16, 32 and 64 planes a block; then ncu's DRAM and L2 bytes.
# From the repo root on the device after a build: bash THIS_FILE > $OUT/cluster.log 2>&1
export PATH=/usr/local/cuda/bin:$PATH
args="--device gpu --scheme fv24 --variant fused25d --coef uniform --grid 512 --block 32x4x1 --rows 2 --stages 3"
pick='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 { print $c["mcells_per_s"], $c["pct_bw"], $c["verified"] }'
for round in 1 2; do
    for n in 16 32 64; do
        for c in 0 2:1 4:1 4:4; do
            t=$(FDTDBENCH_FUSED25D_CLUSTER=$c build/fdtdbench step $args --nodes $n --reps 3 --csv 2>"$OUT/err" | awk -F, "$pick")
            echo "round $round nodes $n cluster $c: MCells/s, pct_bw, verified: ${t:-FAILED: $(tail -n 2 "$OUT/err")}"
        done
    done
done
m=lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
for n in 16 64; do
    for c in 0 4:1; do
        FDTDBENCH_FUSED25D_CLUSTER=$c ncu --clock-control none --cache-control none --metrics $m -k regex:^k_fv24_hx --csv \
            --page raw build/fdtdbench step $args --nodes $n --reps 1 >"$OUT/ncu-n$n-c${c/:/-}.csv" 2>&1
    done
done
rm -f "$OUT/err"
