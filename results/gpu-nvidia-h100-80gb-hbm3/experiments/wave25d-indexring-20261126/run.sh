#!/bin/bash
# wave25d (indexed storage, periodic boundary): the material bytes read once a pass into a ring of
# planes every level reads (index-ring.patch), against the base (ab-old). Each side: tune --step of the
# indexed wave25d steps from no tuned line, twice, in its own tree, build and kernel cache;
# then the GPU tests in the new tree. Run from the repository root on the device.
set -u -o pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
SCHEMES=yee,fv24,fv24wb,s22
here=$PWD
for side in base new; do
    t=/tmp/wir-$side
    rm -rf $t && mkdir -p $t && { [ $side = base ] && cp -r ab-old/. $t/ || { tar cf - --exclude=./results --exclude=./build --exclude='./ab-*' --exclude=./.git . | tar xf - -C $t; }; }
    mkdir -p $t/results/tuned
    echo "$side: wave25d_index_planes in gpu_rules.h: $(grep -c wave25d_index_planes $t/kernels_gpu/gpu_rules.h)"
    make -C $t -j16 >$OUT/build-$side.log 2>&1 || { echo build failed; tail $OUT/build-$side.log; exit 1; }
done
for round in 1 2; do for side in base new; do
    t=/tmp/wir-$side
    C=$t/results/tuned/gpu-nvidia-h100-80gb-hbm3.conf
    grep -v -E "^(${SCHEMES//,/|}) +hx +f32 +indexed +step:wave25d" $here/results/tuned/gpu-nvidia-h100-80gb-hbm3.conf >$C
    (cd $t && timeout 150 build/fdtdbench tune --step --scheme $SCHEMES 2>&1 | grep -E 'wave25d|tuned in' | sed "s/^/$side $round: /")
done; done | tee $OUT/wave-indexring-tune.log
(cd /tmp/wir-new && TEST_ONLY=gpu timeout 330 make test ONLY="test_step" > $OUT/test-gpu-wave-indexring.log 2>&1; tail -5 $OUT/test-gpu-wave-indexring.log)
