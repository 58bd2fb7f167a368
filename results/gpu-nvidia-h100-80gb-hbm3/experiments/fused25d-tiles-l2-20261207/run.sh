#!/bin/bash
# FV24's uniform fused25d step at 512^3 on tiles of several shapes: its time (step, three samples)
# and, under ncu, its Hx kernel's L2 bytes a cell, L2 busy and warps active. Does a larger tile cut
# the L2 bytes a cell by the seventh that 90% of the probe needs, and what does it cost in warps?
# Run through the device tool from the repo root after a build: bash THIS_FILE > $OUT/tiles.log;
# the ncu pages go to $OUT/ncu-BLOCK-ROWS-STAGES.csv. NODES (16, the tuned launch's): the planes a block
# marches, a comma-separated list to compare several (pages then ncu-BLOCK-ROWS-STAGES-nNODES.csv).
export PATH=/usr/local/cuda/bin:$PATH
m=lts__t_bytes.sum,lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active
m=$m,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
# SHAPES: "BLOCK ROWS STAGES" triples, comma-separated (below: the tuned launch and six more)
IFS=, read -r -a shapes <<<"${SHAPES:-32x4x1 2 3,64x2x1 2 3,64x2x1 4 2,64x4x1 2 2,32x8x1 2 2,128x1x1 4 2,128x2x1 2 2}"
IFS=, read -r -a depths <<<"${NODES:-16}"
for nodes in "${depths[@]}"; do
    for shape in "${shapes[@]}"; do
        # shellcheck disable=SC2086 # the triple's words
        set -- $shape
        args="--device gpu --scheme fv24 --variant fused25d --coef uniform --grid 512 --nodes $nodes --block $1 --rows $2 --stages $3"
        t=$(build/fdtdbench step $args --reps 3 --csv 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i } NR > 1 { print $c["mcells_per_s"], $c["pct_bw"] }')
        ncu --clock-control none --cache-control none --metrics $m -k regex:^k_fv24_hx --csv --page raw \
            build/fdtdbench step $args --reps 1 >"$OUT/ncu-$1-$2-$3${NODES:+-n$nodes}.csv" 2>&1
        echo "$1 rows $2 stages $3 nodes $nodes: MCells/s, pct_bw: $t"
    done
done
