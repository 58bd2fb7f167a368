#!/bin/bash
# wave25d: verification after the initial() refactor, and the chunk (planes a block) swept
set -u
OUT=${OUT:-/tmp/out}; B=build/fdtdbench; R="--results $OUT/r"
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
export FDTDBENCH_CACHE=$PWD/build/xcache
{
for bc in pec periodic; do for s in yee fv24 s22; do for t in 1 2 3; do
  $B step --device gpu --variant wave25d --scheme $s --grid 67x45x19 --boundary $bc --tsteps $t --block 32x8x1 --rows 2 --nodes 8 --reps 1 --steps $((t*2+1)) $R 2>&1 | grep -E '^step |rror|refused|not '
done; done; done
$B step --device gpu --variant wave25d --scheme yee --grid 67x45x19 --boundary pec --tsteps 2 --precision f64 --block 32x8x1 --rows 2 --nodes 8 --reps 1 $R 2>&1 | grep -E '^step |rror|refused|not '
} >$OUT/verify.log 2>&1
echo "verify: $(grep -c ': verified' $OUT/verify.log) verified of $(wc -l <$OUT/verify.log) lines"; grep -v ": verified" $OUT/verify.log | head
run() { $B step --device gpu --variant wave25d --scheme yee --grid 512 "$@" $R 2>&1 | grep -E "mcells_per_s|rror|refused" | tail -1; }
for rep in 1 2; do
 for n in 32 64 128 256; do echo "uniform T3 32x8r2 nodes $n: $(run --coef uniform --tsteps 3 --block 32x8x1 --rows 2 --nodes $n)"; done
 for n in 64 128; do echo "uniform T4 64x8r2 nodes $n: $(run --coef uniform --tsteps 4 --block 64x8x1 --rows 2 --nodes $n)"; done
 for n in 64 128; do echo "uniform T4 32x8r4 nodes $n: $(run --coef uniform --tsteps 4 --block 32x8x1 --rows 4 --nodes $n)"; done
 for n in 64 128; do echo "indexed T2 32x8r2 nodes $n: $(run --coef indexed --tsteps 2 --block 32x8x1 --rows 2 --nodes $n)"; done
 for n in 64 128; do echo "array T3 32x8r2 nodes $n: $(run --coef array --tsteps 3 --block 32x8x1 --rows 2 --nodes $n)"; done
done 2>&1 | tee $OUT/sweep.log
