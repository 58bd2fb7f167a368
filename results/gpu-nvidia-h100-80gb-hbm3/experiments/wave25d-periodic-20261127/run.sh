#!/bin/bash
# (the script of the A/B calls: ab-old, ab-mid carried; RUN_TESTS=1 runs the GPU test_step in the new tree; its ncu line is off in its last form)
# wave25d A/B (ab-old = HEAD against the working tree) at the tuned launches, ncu source counters of the new Yee uniform kernel, then the GPU step tests.
set -u -o pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
for side in old new; do
    t=/tmp/w-$side; rm -rf $t; mkdir -p $t
    if [ $side != new ]; then cp -r ab-$side/. $t/; else tar cf - --exclude=./build --exclude='./ab-*' --exclude=./.git . | tar xf - -C $t; fi
    make -C $t -j16 >$OUT/build-$side.log 2>&1 || { echo build $side failed; tail $OUT/build-$side.log; exit 1; }
done
one() { # side scheme coef
    (cd /tmp/w-$1 && timeout 100 build/fdtdbench step --device gpu --variant wave25d --scheme $2 --coef $3 --grid 512 --reps 5 --results /tmp/r-$1 2>&1 |
        grep -E "^ *(mcells_per_s|pct_bw|verified) " | awk '{printf "%s=%s ", $1, $2}'; echo "$1 $2 $3")
}
for round in 1 2; do for side in old new; do
    for sc in "yee uniform" "yee indexed" "yee array" "fv24 uniform" "s22 indexed" "fv24wb uniform"; do one $side $sc; done
done; done 2>&1 | tee $OUT/ab.log
false && ncu --clock-control none --cache-control none --section SourceCounters -k regex:wave25d --csv --page source --print-source sass \
    build/fdtdbench step --device gpu --variant wave25d --scheme yee --coef uniform --grid 512 --reps 1 > $OUT/ncu-src.csv 2>$OUT/ncu-src.err
echo ncu rc=$?
[ "${RUN_TESTS:-0}" = 1 ] && cd /tmp/w-new && TEST_ONLY=gpu timeout 300 make test ONLY="test_step" > $OUT/test-gpu-step.log 2>&1; echo test rc=$?; tail -4 $OUT/test-gpu-step.log
