#!/bin/bash
# The fused25d step rows of bench's step table, each timed alone (`step`, five samples, the tuned
# launch): do they read as the table does (H100 at 069d8a1: FV24 uniform 71.5%, spread 8.4), or
# higher, as the tile experiment's FV24 uniform (76.8-77.1%)? From the repo root after a build:
#   bash THIS_FILE > $OUT/alone.log 2>&1
# the header by its first field: step's stderr (the device line) comes first in the pipe
pick='$1 == "table" { for (i = 1; i <= NF; i++) c[$i] = i } $1 == "step" { print $c["mcells_per_s"], $c["pct_bw"], $c["pct_bw_spread"], $c["clock_held_pct"] }'
echo "scheme coef: MCells/s, pct_bw, spread, clocks held %"
for c in uniform indexed array; do # the rows furthest below 90% first
    for s in fv24 s22 fv24wb yee s44; do
        t=$(build/fdtdbench step --device gpu --scheme $s --variant fused25d --coef $c --grid 512 --reps 5 --csv 2>&1 | awk -F, "$pick")
        echo "$s $c: $t"
    done
done
