#!/bin/bash
# tune --step of fused25d's uniform and indexed steps (SCHEMES), in two source trees made from
# ab-old (this commit's sources, carried): "base" as it is, "ring" with node-ring.patch. Each
# starts from this tree's tuned file less those lines, in its own folder, with its own build and
# kernel cache. Prints each side's winners.
set -u -o pipefail
SCHEMES=${SCHEMES:-fv24,fv24wb,s22}
export PATH=/usr/local/cuda/bin:$PATH
here=$PWD
for side in base ring; do
    t=/tmp/ringtune-$side
    rm -rf $t && cp -r ab-old $t && mkdir -p $t/results/tuned
    [ $side = ring ] && { patch -p1 -d $t --forward < results/gpu-nvidia-h100-80gb-hbm3/experiments/zqueue-20261126/node-ring.patch >/dev/null || { echo patch failed; exit 1; }; }
    echo "$side: fused25d_node_ring in gpu_rules.h: $(grep -c fused25d_node_ring $t/kernels_gpu/gpu_rules.h)"
    make -C $t -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
    C=$t/results/tuned/gpu-nvidia-h100-80gb-hbm3.conf
    grep -v -E "^(${SCHEMES//,/|}) +hx +f32 +(uniform|indexed) +step:fused25d" $here/results/tuned/gpu-nvidia-h100-80gb-hbm3.conf >$C
    (cd $t && timeout 250 build/fdtdbench tune --step --scheme $SCHEMES 2>&1 | grep -E 'fused25d|tuned in' | sed "s/^/$side: /")
done
