#!/bin/bash
# Which half of the change does what: wave25d at 93aacf7 (old), with a thread's rows adjacent
# (adj), with every row's results stored after all rows' loads (delay, rows still BY apart), and
# both (new, the working tree's), alternated, two rounds, 512^3, f32, uniform. Templates from
# ab-old/:   OUT=dir bash ab2.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
cp kernels_gpu/wave25d.cu.step /tmp/new.step
for v in old adj delay; do
    case $v in old) t=ab-old/wave25d.cu.step ;; *) t=ab-old/wave25d-$v.cu.step ;; esac
    cp "$t" kernels_gpu/wave25d.cu.step && make -j16 BUILD=build-$v >/dev/null 2>&1 || echo "build-$v FAILED"
done
cp /tmp/new.step kernels_gpu/wave25d.cu.step
make -j16 BUILD=build-new >/dev/null 2>&1 || echo "build-new FAILED"
# scheme tsteps rows block
runs="fv24:1:4:32x8x1 s22:1:4:32x8x1 fv24wb:1:2:32x16x1 fv24wb:1:4:32x8x1 fv24wb:2:2:32x16x1 s22:2:4:32x8x1"
for round in 1 2; do
    for r in $runs; do
        IFS=: read -r s t rows blk <<<"$r"
        for v in old adj delay new; do
            line=$(build-$v/fdtdbench step --device gpu --variant wave25d --coef uniform --grid 512 --scheme $s \
                --tsteps $t --rows $rows --block $blk --reps 5 --csv --results /tmp/ab-results 2>>"$OUT/ab2.err" | tail -n 1)
            echo "$round $v $s T$t rows$rows $blk $(echo "$line" | cut -d, -f31,38)" | tee -a "$OUT/ab2.log"
        done
    done
done
