#!/bin/bash
# What bounds fused25d's high-order uniform and indexed steps now that their node operands and
# material byte come through rings (ab556e6): scripts/gpu_bound.sh at the tuned launches, then
# where FV24's warps stall, by SASS instruction (../zqueue-20261126/stalls.sh). Run from the
# repository root on the device: OUT=... bash .../run.sh
set -u -o pipefail
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
specs=()
for s in fv24 fv24wb s22; do for c in uniform indexed; do specs+=("step --scheme $s --variant fused25d --coef $c"); done; done
OUT=$OUT bash scripts/gpu_bound.sh "${specs[@]}" >$OUT/bound.md 2>&1
cat $OUT/bound.md
for c in uniform indexed; do
    mkdir -p $OUT/st-$c
    OUT=$OUT/st-$c timeout 150 bash results/gpu-nvidia-h100-80gb-hbm3/experiments/zqueue-20261126/stalls.sh \
        k_fv24_hx_f32_${c}_fused25d "step --scheme fv24 --variant fused25d --coef $c" >$OUT/stalls-fv24-$c.log 2>&1
    head -30 $OUT/stalls-fv24-$c.log
    rm -rf $OUT/st-$c
done
(cd $OUT && tar czf ncu-bound.tgz ncu-bound-*.csv && rm -f ncu-bound-*.csv)
