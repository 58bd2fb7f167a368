#!/bin/bash
# One-row tiles of 1 024 threads, where the row skip saves most (a level's rows shrink by its
# reach): wave25d at HEAD, each launch twice, against the tuned ones. OUT=... bash tall-sweep.sh
set -u
OUT=${OUT:-/tmp/out}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
sweep() { # SCHEME COEF [T BLOCK ROWS]
    local l=""; [ $# -gt 2 ] && l="--tsteps $3 --block $4 --rows $5"
    echo "$1 $2 ${3:-tuned} ${4:-} ${5:-}: $(build/fdtdbench step --device gpu --variant wave25d --grid 512 --scheme $1 --coef $2 \
        $l --results $OUT/r 2>&1 | grep -E "^ +mcells_per_s |rror|refused|fdtdbench:" | tail -1 | awk '{print $2}')"
}
for rep in 1 2; do
  sweep yee uniform; sweep yee uniform 4 32x32x1 1; sweep yee uniform 3 32x32x1 1; sweep yee uniform 4 64x16x1 1
  sweep yee indexed; sweep yee indexed 3 32x32x1 1; sweep yee indexed 2 32x32x1 1
  sweep yee array; sweep yee array 3 32x32x1 1; sweep yee array 4 32x32x1 1
  for s in fv24 s22; do for c in uniform array; do
    sweep $s $c; sweep $s $c 2 32x32x1 1; sweep $s $c 1 32x32x1 1; sweep $s $c 2 64x16x1 1; done; done
done 2>&1 | tee $OUT/tall-sweep.log
