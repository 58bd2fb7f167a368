#!/bin/bash
# wave25d prefetching the next plane's coefficient arrays (material bytes) into L2 at each level
# ("new": the working tree) against HEAD ("old": ab-head): the tuned launches at 512^3, alternated
# twice, after a verification on 67x45x19. OUT=... bash prefetch-ab.sh
set -u
OUT=${OUT:-/tmp/out}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
export FDTDBENCH_CACHE=$PWD/build/ab-cache-new
for bc in pec periodic; do for s in yee fv24; do for coef in array indexed; do for t in 1 3; do
  [ $s = fv24 ] && [ $t = 3 ] && continue
  build/fdtdbench step --device gpu --variant wave25d --scheme $s --grid 67x45x19 --boundary $bc --coef $coef --tsteps $t \
      --block 32x16x1 --rows 1 --nodes 8 --reps 1 --steps $((t*2+1)) --results $OUT/r 2>&1 | grep -E '^step |rror|not |refused' | head -2
done; done; done; done > $OUT/verify.log 2>&1
echo "verify: $(grep -c ': verified' $OUT/verify.log) verified; other: $(grep -v ': verified' $OUT/verify.log | head -3)"
cmds=()
for s in yee fv24 fv24wb s22; do for c in array indexed; do
    cmds+=("step --device gpu --variant wave25d --grid 512 --scheme $s --coef $c"); done; done
cmds+=("step --device gpu --variant wave25d --grid 512 --scheme yee --coef uniform")
OLD=ab-head bash scripts/ab.sh -r 2 "${cmds[@]}" 2>&1 | tee $OUT/prefetch-ab.log
