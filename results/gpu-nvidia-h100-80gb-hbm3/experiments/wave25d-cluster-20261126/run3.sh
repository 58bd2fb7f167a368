#!/bin/bash
# wave25d clusters, third call: the cluster barrier's arrive before the global loads and stores
# (run2's ncu: membar 7.3 stalls an issue). Old (HEAD, ab-old) against new at 1x1, then clusters.
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
make -j16 >$OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
(cd ab-old && make -j16 >$OUT/build-old.log 2>&1) || { tail -20 $OUT/build-old.log; exit 1; }
R=/tmp/res; L=$OUT/cluster3.log
st() { # BINARY CLUSTER ARGS...
    local b=$1 c=$2; shift 2
    local line
    line=$(FDTDBENCH_WAVE25D_CLUSTER=$c timeout 60 $b step --device gpu --variant wave25d --results $R --csv "$@" 2>&1 | tail -1)
    case $line in step,*) line="mcells $(echo "$line" | cut -d, -f31) pct_bw $(echo "$line" | cut -d, -f38) verified $(echo "$line" | cut -d, -f47)";; esac
    echo "$b $c $* :: $line" | tee -a $L
}
Y="--scheme yee --coef uniform --nodes 64"
for round in 1 2; do
  st ab-old/build/fdtdbench 1x1 $Y --tsteps 3 --block 32x8x1 --rows 2
  st build/fdtdbench 1x1 $Y --tsteps 3 --block 32x8x1 --rows 2
  for c in 1x2 1x4 1x8 2x2 2x4; do
    st build/fdtdbench $c $Y --tsteps 3 --block 32x8x1 --rows 1
  done
  for c in 1x2 1x4; do st build/fdtdbench $c $Y --tsteps 3 --block 32x8x1 --rows 2; done
  for c in 1x4 1x8; do st build/fdtdbench $c $Y --tsteps 3 --block 32x4x1 --rows 2; done
  st build/fdtdbench 1x8 $Y --tsteps 4 --block 32x8x1 --rows 1
  st build/fdtdbench 1x8 $Y --tsteps 2 --block 32x8x1 --rows 1
done
# verification of the reordered cluster kernel, every scheme it takes, both boundaries
for s in yee fv24 fv24wb s22; do for co in uniform indexed array; do for bc in periodic pec; do
  st build/fdtdbench 2x2 --scheme $s --coef $co --boundary $bc --grid 64 --reps 1 --tsteps 1 --block 32x8x1 --rows 2
done; done; done
sed -e 's/no_instruction dispatch_stall/no_instruction dispatch_stall membar sleeping drain misc branch_resolving/' scripts/gpu_bound.sh > /tmp/bound.sh
FDTDBENCH_WAVE25D_CLUSTER=1x8 OUT=$OUT bash /tmp/bound.sh "step $Y --variant wave25d --tsteps 3 --block 32x8x1 --rows 1" > $OUT/bound-1x8.log 2>&1
cat $OUT/bound-*.log
