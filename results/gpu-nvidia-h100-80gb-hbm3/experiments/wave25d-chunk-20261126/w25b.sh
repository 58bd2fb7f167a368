#!/bin/bash
# wave25d Yee uniform 512^3: tiles and chunk (planes a block) swept, twice
set -u
OUT=${OUT:-/tmp/out}; B=build/fdtdbench; R="--results $OUT/r"
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
export FDTDBENCH_CACHE=$PWD/build/xcache
run() { $B step --device gpu --variant wave25d --scheme yee --grid 512 "$@" $R 2>&1 | grep -E "mcells_per_s|rror|refused|fdtdbench:" | tail -1; }
for rep in 1 2; do
 for tile in "32x8x1 2" "48x8x1 2" "32x8x1 3" "48x8x1 3" "64x8x1 2" "96x8x1 1" "32x16x1 1"; do
  set -- $tile
  for n in 64 128 256 512; do echo "uniform T3 $1 r$2 nodes $n: $(run --coef uniform --tsteps 3 --block $1 --rows $2 --nodes $n)"; done
 done
 for tile in "32x8x1 2" "48x8x1 2" "32x8x1 3"; do
  set -- $tile
  for n in 64 256; do echo "uniform T2 $1 r$2 nodes $n: $(run --coef uniform --tsteps 2 --block $1 --rows $2 --nodes $n)"; done
  for n in 64 256; do echo "indexed T2 $1 r$2 nodes $n: $(run --coef indexed --tsteps 2 --block $1 --rows $2 --nodes $n)"; done
  for n in 64 256; do echo "array T3 $1 r$2 nodes $n: $(run --coef array --tsteps 3 --block $1 --rows $2 --nodes $n)"; done
 done
done 2>&1 | tee $OUT/sweep.log
