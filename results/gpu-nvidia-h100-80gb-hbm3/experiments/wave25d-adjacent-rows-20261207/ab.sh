#!/bin/bash
# wave25d with a thread's rows adjacent (their shared loads read once) against the rows BY apart
# (build-old: the template at 93aacf7, from ab-old/), alternated, two rounds, 512^3, f32, uniform:
#   OUT=dir bash ab.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
cp kernels_gpu/wave25d.cu.step /tmp/new.step && cp ab-old/wave25d.cu.step kernels_gpu/wave25d.cu.step
make -j16 BUILD=build-old >/dev/null 2>&1 || echo "build-old FAILED"
cp /tmp/new.step kernels_gpu/wave25d.cu.step
make -j16 >/dev/null 2>&1 || echo "build FAILED"
# scheme tsteps rows block
runs="fv24:1:4:32x8x1 fv24:2:4:32x8x1 s22:1:4:32x8x1 s22:2:4:32x8x1 fv24wb:1:2:32x16x1 fv24wb:1:4:32x8x1 yee:3:2:32x8x1"
for round in 1 2; do
    for r in $runs; do
        IFS=: read -r s t rows blk <<<"$r"
        for b in build-old build; do
            line=$($b/fdtdbench step --device gpu --variant wave25d --coef uniform --grid 512 --scheme $s \
                --tsteps $t --rows $rows --block $blk --reps 5 --csv --results /tmp/ab-results 2>>"$OUT/ab.err" | tail -n 1)
            echo "$round $b $s T$t rows$rows $blk $line" | tee -a "$OUT/ab.log"
        done
    done
done
