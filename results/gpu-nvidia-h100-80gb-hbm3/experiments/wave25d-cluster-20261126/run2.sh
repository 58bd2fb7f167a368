#!/bin/bash
# wave25d clusters, second call: which part costs (cluster shape, x or y borders), and ncu stalls.
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
make -j16 >$OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
B=build/fdtdbench; R=/tmp/res; L=$OUT/cluster2.log
st() { # CLUSTER ARGS...
    local c=$1; shift
    local line
    line=$(FDTDBENCH_WAVE25D_CLUSTER=$c timeout 60 $B step --device gpu --variant wave25d --results $R --csv "$@" 2>&1 | tail -1)
    case $line in step,*) line="mcells $(echo "$line" | cut -d, -f31) pct_bw $(echo "$line" | cut -d, -f38) verified $(echo "$line" | cut -d, -f47)";; esac
    echo "$c $* :: $line" | tee -a $L
}
Y="--scheme yee --coef uniform --nodes 64"
for round in 1 2; do
  st 1x1 $Y --tsteps 3 --block 32x8x1 --rows 2
  for c in 1x1 1x2 2x1 1x4 1x8; do st $c $Y --tsteps 3 --block 32x8x1 --rows 1; done
  st 1x8 $Y --tsteps 2 --block 32x8x1 --rows 1
  st 1x8 $Y --tsteps 3 --block 32x4x1 --rows 2
  st 1x8 $Y --tsteps 4 --block 32x8x1 --rows 1
done
sed -e 's/no_instruction dispatch_stall/no_instruction dispatch_stall membar sleeping drain misc branch_resolving/' scripts/gpu_bound.sh > /tmp/bound.sh
FDTDBENCH_WAVE25D_CLUSTER=1x1 OUT=$OUT bash /tmp/bound.sh "step $Y --variant wave25d --tsteps 3 --block 32x8x1 --rows 1" > $OUT/bound-1x1.log 2>&1
FDTDBENCH_WAVE25D_CLUSTER=1x8 OUT=$OUT bash /tmp/bound.sh "step $Y --variant wave25d --tsteps 3 --block 32x8x1 --rows 1" > $OUT/bound-1x8.log 2>&1
cat $OUT/bound-*.log
