#!/bin/bash
# The material byte through a ring of its own in fused25d (indexed storage; index-ring.patch),
# against the base (ab-old: this commit's sources before it). Each side: tune --step of the
# indexed fused25d steps from no tuned line, twice, in its own tree, build and kernel cache;
# then the GPU tests in the new tree. Run from the repository root on the device.
set -u -o pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
SCHEMES=yee,fv24,fv24wb,s22
here=$PWD
for side in base new; do
    t=/tmp/ir-$side
    rm -rf $t && mkdir -p $t && { [ $side = base ] && cp -r ab-old/. $t/ || { tar cf - --exclude=./results --exclude=./build --exclude='./ab-*' --exclude=./.git . | tar xf - -C $t; }; }
    mkdir -p $t/results/tuned
    echo "$side: fused25d_index_ring in gpu_rules.h: $(grep -c fused25d_index_ring $t/kernels_gpu/gpu_rules.h)"
    make -C $t -j16 >$OUT/build-$side.log 2>&1 || { echo build failed; tail $OUT/build-$side.log; exit 1; }
done
for round in 1 2; do for side in base new; do
    t=/tmp/ir-$side
    C=$t/results/tuned/gpu-nvidia-h100-80gb-hbm3.conf
    grep -v -E "^(${SCHEMES//,/|}) +hx +f32 +indexed +step:fused25d" $here/results/tuned/gpu-nvidia-h100-80gb-hbm3.conf >$C
    (cd $t && timeout 200 build/fdtdbench tune --step --scheme $SCHEMES 2>&1 | grep -E 'fused25d|tuned in' | sed "s/^/$side $round: /")
done; done | tee $OUT/indexring-tune.log
(cd /tmp/ir-new && TEST_ONLY=gpu timeout 330 make test ONLY="test_gpu test_step test_pml" > $OUT/test-gpu-indexring.log 2>&1; tail -5 $OUT/test-gpu-indexring.log)
