#!/bin/bash
# wave25d with a thread's rows adjacent (ty R + r) and a level skipped by the threads whose rows it
# no longer gets right ("new": the working tree), against the same code without the skip and
# with the old row order ("f32": ab-f32, a6db9e4's wave25d with the single-precision uniform
# coefficients, which both have). First the new kernel verified on 67x45x19 (PEC and periodic,
# T = 1..3, every storage), then the tuned launches at 512^3 alternated twice, then tiles of both
# builds (which tile is best moves with the skip). OUT=... bash skip-ab.sh
set -u
OUT=${OUT:-/tmp/out}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
export FDTDBENCH_CACHE=$PWD/build/ab-cache-new
for bc in pec periodic; do for s in yee fv24 s22; do for t in 1 2 3; do for coef in array uniform indexed; do
  [ $s != yee ] && [ $t = 3 ] && continue
  build/fdtdbench step --device gpu --variant wave25d --scheme $s --grid 67x45x19 --boundary $bc --coef $coef --tsteps $t \
      --block 32x8x1 --rows $([ $s = yee ] && echo 2 || echo 4) --nodes 8 --reps 1 --steps $((t*2+1)) --results $OUT/r 2>&1 |
      grep -E '^step |rror|not |refused' | head -2
done; done; done; done > $OUT/verify.log 2>&1
echo "verify: $(grep -c ': verified' $OUT/verify.log) verified; other lines: $(grep -vc ': verified' $OUT/verify.log)"
grep -v ": verified" $OUT/verify.log | head -5
cmds=()
for s in yee fv24 fv24wb s22; do for c in uniform indexed array; do
    cmds+=("step --device gpu --variant wave25d --grid 512 --scheme $s --coef $c"); done; done
cmds+=("step --device gpu --variant fused --grid 512 --scheme yee --coef uniform")
OLD=ab-f32 bash scripts/ab.sh -r 2 "${cmds[@]}" 2>&1 | tee $OUT/f32-new.log
sweep() { # BIN SCHEME COEF T BLOCK ROWS
    echo "$1 $2 $3 T=$4 $5 rows $6: $($1 step --device gpu --variant wave25d --grid 512 --scheme $2 --coef $3 \
        --tsteps $4 --block $5 --rows $6 --results $OUT/r 2>&1 | grep -E "^ +mcells_per_s |rror|refused|fdtdbench:" | tail -1 | awk '{print $2}')"
}
{
for B in ab-f32/build/fdtdbench build/fdtdbench; do
  export FDTDBENCH_CACHE=$PWD/build/ab-cache-$([ $B = build/fdtdbench ] && echo new || echo old)
  for l in "3 32x8x1 2" "3 32x16x1 1" "3 32x4x1 4" "3 32x16x1 2" "4 32x16x1 2" "4 32x8x1 4"; do sweep $B yee uniform $l; done
  for l in "2 32x8x1 2" "2 32x16x1 1" "3 64x16x1 1" "3 32x16x1 1"; do sweep $B yee indexed $l; sweep $B yee array $l; done
  for s in fv24 fv24wb s22; do for l in "1 32x8x1 4" "1 32x16x1 2" "1 32x8x1 2" "1 32x4x1 8" "2 32x16x1 2"; do sweep $B $s uniform $l; done; done
  for s in fv24 s22; do for l in "1 32x16x1 2" "1 64x16x1 1" "1 32x8x1 4"; do sweep $B $s indexed $l; sweep $B $s array $l; done; done
done
} 2>&1 | tee $OUT/sweep.log
