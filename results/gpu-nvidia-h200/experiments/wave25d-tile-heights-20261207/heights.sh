#!/bin/bash
# wave25d at one step a pass, tile heights the tuner's halving and doubling never reach: 24 rows
# (32x12 blocks of two rows, 32x8 of three), 30 (32x10 of three), against the tuned 32x8 of four
# (32 rows) and 32x16 of two; uniform, 512^3, f32, two rounds alternated. SASS (NVRTC sm_90, no
# GPU): FV24 32x12x2 80 registers, no spill, three blocks an SM (36 warps); 32x8x3 80 registers
# with spills; 32x10x3 96. At the working tree's commit:   OUT=dir bash heights.sh
set -u
B=${B:-build/fdtdbench}
make -j16 >/dev/null 2>&1 || echo "build FAILED"
runs="32x8x1:4 32x12x1:2 32x8x1:3 32x10x1:3 32x16x1:2"
for round in 1 2; do
    for s in fv24 s22 fv24wb; do
        for r in $runs; do
            IFS=: read -r blk rows <<<"$r"
            line=$($B step --device gpu --variant wave25d --coef uniform --grid 512 --scheme $s --tsteps 1 --rows $rows \
                --block $blk --reps 5 --csv --results /tmp/h-results 2>>"$OUT/heights.err" | tail -n 1)
            echo "$round $s $blk rows$rows $(echo "$line" | cut -d, -f31,38,41)" | tee -a "$OUT/heights.log"
        done
    done
done
