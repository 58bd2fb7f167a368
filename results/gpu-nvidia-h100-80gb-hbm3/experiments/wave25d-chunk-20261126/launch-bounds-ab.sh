#!/bin/bash
# A/B: wave25d's launch bounds, 4 blocks of 256 threads (64 registers, spills at T = 1, 2: base)
# against 3 (80 registers, none). Alternated twice, 512^3 f32, the tuned launches.
set -u
OUT=${OUT:-/tmp/out}; R="--results $OUT/r"
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
rm -rf /tmp/alt && mkdir /tmp/alt && git ls-files -z | xargs -0 cp --parents -t /tmp/alt && cp -r exp /tmp/alt/ 2>/dev/null
sed -i 's|by_regs = 1024 / threads|by_regs = 768 / threads|' /tmp/alt/kernels_gpu/gpu_rules.h
(cd /tmp/alt && make -j16 >$OUT/build-alt.log 2>&1) || { tail $OUT/build-alt.log; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader
run() { local b=$1; shift; $b step --device gpu --variant wave25d --grid 512 "$@" $R 2>&1 | grep -E "mcells_per_s|rror|refused|fdtdbench:" | tail -1 | awk '{print $2}'; }
for rep in 1 2; do for which in base alt; do
  B=$PWD/build/fdtdbench; [ $which = alt ] && B=/tmp/alt/build/fdtdbench
  export FDTDBENCH_CACHE=$PWD/build/cache-$which
  echo "$which yee uniform T2 32x8r2: $(run $B --scheme yee --coef uniform --tsteps 2 --block 32x8x1 --rows 2)"
  echo "$which yee indexed T2 32x8r2: $(run $B --scheme yee --coef indexed --tsteps 2 --block 32x8x1 --rows 2)"
  echo "$which yee uniform T3 32x8r2: $(run $B --scheme yee --coef uniform --tsteps 3 --block 32x8x1 --rows 2)"
  echo "$which fv24 uniform T1 64x8r2: $(run $B --scheme fv24 --coef uniform --tsteps 1 --block 64x8x1 --rows 2)"
  echo "$which fv24wb uniform T1 32x8r2: $(run $B --scheme fv24wb --coef uniform --tsteps 1 --block 32x8x1 --rows 2)"
  echo "$which s22 indexed T1 32x16r1: $(run $B --scheme s22 --coef indexed --tsteps 1 --block 32x16x1 --rows 1)"
  echo "$which fv24 array T1 64x16r1: $(run $B --scheme fv24 --coef array --tsteps 1 --block 64x16x1 --rows 1)"
done; done 2>&1 | tee $OUT/ab.log
