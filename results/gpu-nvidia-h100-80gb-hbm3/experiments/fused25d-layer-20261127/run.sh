#!/bin/bash
# fused25d with a layer: the GPU layer test (every scheme, precision, storage; baseline, fused, fused25d), then
# step rows with --pml 10 at 512^3 for fused and fused25d, alternated twice.
make -j16 >/dev/null 2>&1 && make -j16 build/tests/test_pml >/dev/null 2>&1 || echo "build failed"
export XDG_CACHE_HOME=/tmp/kc
( time build/tests/test_pml ) > $OUT/test_pml.log 2>&1; echo "test_pml rc $?"; tail -12 $OUT/test_pml.log
for round in 1 2; do for s in yee fv24 fv24wb s22 s44; do for v in fused fused25d; do
  echo "== $round $s $v $(build/fdtdbench step --device gpu --scheme $s --variant $v --coef array --grid 512 --pml 10 --reps 3 2>&1 | grep -E '^ *(mcells_per_s|pct_bw|layer_ms|layer_pct_bw|layer_share|block|nodes|stages|rows|regs|verified) ' | awk '{printf "%s=%s ", $1, $2}')"
done; done; done 2>&1 | tee $OUT/steps.log
