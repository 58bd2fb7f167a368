#!/bin/bash
# tile25d with Hopper bulk copies (this tree) against the cp.async plans (ab-old): the GPU test,
# then both builds tune tile25d's Hx at 512^3 and 300^3 from nothing, twice, alternated.
# Run from the repo root on the lent GPU machine; logs to $OUT.
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 && (cd ab-old && make -j16 >/dev/null 2>&1) || { echo build failed; exit 1; }
t0=$(date +%s)
TEST_ONLY=gpu timeout 200 make test ONLY="test_gpu" > $OUT/test-gpu-bulk.log 2>&1; echo "test_gpu rc $? $(( $(date +%s) - t0 ))s"
grep -E "passed|FAIL" $OUT/test-gpu-bulk.log | tail -3
for round in 1 2; do
  for side in old new; do
    d=.; [ $side = old ] && d=ab-old
    for g in 512 300; do
      s=yee,fv24,fv24wb,s22,s44; [ $g = 300 ] && s=fv24,fv24wb,s22
      (cd $d && timeout 150 build/fdtdbench tune --device gpu --variant tile25d --component hx --scheme $s --grid $g --force) > $OUT/tune-$side-$g-$round.log 2>&1
      echo "== $side $g round $round rc $?"
      grep -E "^(yee|fv24|fv24wb|s22|s44) " $d/results/tuned/gpu-*.conf | grep tile25d | grep "${g}x${g}x${g}" | awk '{print $1,$6,$7,$8,$9,$11,$12}'
    done
  done
done
