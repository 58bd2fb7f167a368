#!/bin/bash
# A/B: the GPU layer kernels' plain store away from the sides (working tree, "new") against HEAD
# ("old"): fused step with a 10-cell CPML at 512^3, alternated twice; then test_pml on the new build.
set -u
OUT=${OUT:-/tmp/out}; R="--results $OUT/r"
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
rm -rf /tmp/old && mkdir /tmp/old && git archive HEAD | tar x -C /tmp/old
(cd /tmp/old && make -j16 >$OUT/build-old.log 2>&1) || { tail $OUT/build-old.log; exit 1; }
nvidia-smi --query-gpu=name --format=csv,noheader
run() { $1 step --device gpu --variant fused --pml 10 --grid 512 --scheme $2 --coef $3 $R 2>&1 | grep -E "^  (mcells_per_s|layer_ms|layer_pct_bw)|rror|refused" | awk '{printf "%s=%s ", $1, $2} END {print ""}'; }
for rep in 1 2; do for which in old new; do
  B=$PWD/build/fdtdbench; [ $which = old ] && B=/tmp/old/build/fdtdbench
  export FDTDBENCH_CACHE=$PWD/build/cache-$which
  for s in yee fv24 fv24wb s22 s44; do echo "$which $s array: $(run $B $s array)"; done
  echo "$which fv24 uniform: $(run $B fv24 uniform)"
done; done 2>&1 | tee $OUT/ab4.log
make -j16 build/tests/test_pml >/dev/null 2>&1 && FDTDBENCH_CACHE=$PWD/build/cache-new timeout 280 build/tests/test_pml > $OUT/test_pml.log 2>&1; echo "test_pml rc $?"; tail -4 $OUT/test_pml.log
