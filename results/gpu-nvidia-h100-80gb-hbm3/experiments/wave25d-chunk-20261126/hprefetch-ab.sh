#!/bin/bash
# A/B: wave25d with level 1's H values fetched a plane ahead (working tree, "new") against HEAD
# ("old"): verification on 67x45x19, then tuned launches at 512^3, alternated twice.
set -u
OUT=${OUT:-/tmp/out}; R="--results $OUT/r"
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
rm -rf /tmp/old && mkdir /tmp/old && git archive HEAD | tar x -C /tmp/old
(cd /tmp/old && make -j16 >$OUT/build-old.log 2>&1) || { tail $OUT/build-old.log; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader
export FDTDBENCH_CACHE=$PWD/build/cache-new
for bc in pec periodic; do for s in yee fv24; do for t in 1 2 3; do for coef in uniform indexed; do
  build/fdtdbench step --device gpu --variant wave25d --scheme $s --grid 67x45x19 --boundary $bc --coef $coef --tsteps $t --block 32x8x1 --rows 2 --nodes 8 --reps 1 --steps $((t*2+1)) $R 2>&1 | grep -E '^step ' | head -1
done; done; done; done > $OUT/verify.log 2>&1
echo "verify: $(grep -c ': verified' $OUT/verify.log) verified of $(wc -l < $OUT/verify.log)"
run() { $1 step --device gpu --variant wave25d --grid 512 --scheme $2 --coef $3 --tsteps $4 --block $5 --rows $6 $R 2>&1 | grep -E "mcells_per_s|rror|refused|fdtdbench:" | tail -1 | awk '{print $2}'; }
for rep in 1 2; do for which in old new; do
  B=$PWD/build/fdtdbench; [ $which = old ] && B=/tmp/old/build/fdtdbench
  export FDTDBENCH_CACHE=$PWD/build/cache-$which
  echo "$which yee uniform T3: $(run $B yee uniform 3 32x8x1 2)  indexed T2: $(run $B yee indexed 2 32x8x1 2)  array T3: $(run $B yee array 3 64x16x1 1)  fv24 uniform T1: $(run $B fv24 uniform 1 32x8x1 4)  fv24wb uniform T1: $(run $B fv24wb uniform 1 32x8x1 2)"
done; done 2>&1 | tee $OUT/ab5.log
