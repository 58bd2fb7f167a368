#!/bin/bash
# wave25d computing only the rows of the tile each level gets right ("rows": ab-rows, a copy of the
# working tree before the next change) and, on top, the uniform coefficients read in single
# precision by f32 kernels ("new": the working tree), against a6db9e4 ("old": ab-old). The
# tuned launches at 512^3 (HEAD's tuned file), two rounds each, old/new then rows/new; then the
# new code's other tiles (taller ones lose less to the rows trimmed). Run from the repository
# root on the device: OUT=... bash rows-ab.sh
set -u
OUT=${OUT:-/tmp/out}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
cmds=()
for s in yee fv24 fv24wb s22; do for c in uniform indexed array; do
    cmds+=("step --device gpu --variant wave25d --grid 512 --scheme $s --coef $c"); done; done
cmds+=("step --device gpu --variant fused --grid 512 --scheme yee --coef uniform"
       "step --device gpu --variant fused25d --grid 512 --scheme fv24 --coef uniform"
       "step --device gpu --variant fused25d --grid 512 --scheme s22 --coef indexed")
OLD=ab-old bash scripts/ab.sh -r 2 "${cmds[@]}" 2>&1 | tee $OUT/old-new.log
OLD=ab-rows bash scripts/ab.sh -r 2 "${cmds[@]}" 2>&1 | tee $OUT/rows-new.log
export FDTDBENCH_CACHE=$PWD/build/ab-cache-new
sweep() { # SCHEME COEF T BLOCK ROWS
    echo "$1 $2 T=$3 $4 rows $5: $(build/fdtdbench step --device gpu --variant wave25d --grid 512 --scheme $1 --coef $2 \
        --tsteps $3 --block $4 --rows $5 --results $OUT/r 2>&1 | grep -E "^ +mcells_per_s |rror|refused|fdtdbench:" | tail -1)"
}
{
for l in "3 32x8x1 2" "3 32x8x1 3" "3 32x16x1 1" "3 32x16x1 2" "3 64x8x1 2" "4 32x8x1 2" "4 32x8x1 3" "4 32x16x1 2" "2 32x8x1 2" "2 32x8x1 3"; do
    sweep yee uniform $l; done
for l in "2 32x8x1 2" "2 64x16x1 1"; do sweep yee indexed $l; sweep yee array $l; done
for l in "3 32x8x1 3" "3 64x16x1 1" "3 32x16x1 2"; do sweep yee indexed $l; sweep yee array $l; done
for s in fv24 fv24wb s22; do for l in "1 32x8x1 4" "1 32x16x1 2" "2 32x8x1 4" "2 32x16x1 2" "2 32x8x1 6" "2 64x8x1 3"; do sweep $s uniform $l; done; done
} 2>&1 | tee $OUT/sweep.log
