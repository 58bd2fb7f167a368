#!/bin/bash
# wave25d with thread-block clusters (scratch FDTDBENCH_WAVE25D_CLUSTER=CXxCY): verify, then time.
# Run on the lent GPU from the repo root: bash .../run1.sh  (writes $OUT/*.log)
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
make -j16 >$OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
B=build/fdtdbench; R=/tmp/res; L=$OUT/cluster.log
st() { # CLUSTER ARGS...: one step row, its MCells/s and pct_bw
    local c=$1; shift
    local line
    line=$(FDTDBENCH_WAVE25D_CLUSTER=$c timeout 60 $B step --device gpu --variant wave25d --results $R --csv "$@" 2>&1 | tail -1)
    case $line in step,*) line="mcells $(echo "$line" | cut -d, -f31) pct_bw $(echo "$line" | cut -d, -f38) verified $(echo "$line" | cut -d, -f47)";; esac
    echo "$c $* :: $line" | tee -a $L
}
nvidia-smi -L | tee $L
# correctness first (each step verifies on 17x13x(11+) against the reference before timing)
for c in 2x2 1x2 2x1; do
  for s in yee fv24; do for co in uniform indexed array; do for bc in periodic pec; do
    st $c --scheme $s --coef $co --boundary $bc --grid 64 --reps 1 --tsteps 2 --block 32x8x1 --rows 1
  done; done; done
done
st 2x2 --scheme fv24 --coef uniform --grid 64 --reps 1 --tsteps 2 --block 32x8x1 --rows 2 --precision f64
st 2x4 --scheme s22 --coef uniform --grid 64 --reps 1 --tsteps 3 --block 32x8x1 --rows 1
st 2x2 --scheme fv24wb --coef indexed --grid 64 --reps 1 --tsteps 1 --block 32x4x1 --rows 2
echo "== timing, 512^3 f32" | tee -a $L
for round in 1 2; do
  st 1x1 --scheme yee --coef uniform --tsteps 3 --block 32x8x1 --rows 2 --nodes 64
  for c in 2x2 2x4 4x2; do for T in 3 4 6; do
    for blk in "32x8x1 --rows 2" "32x4x1 --rows 2" "32x8x1 --rows 1"; do
      st $c --scheme yee --coef uniform --tsteps $T --block $blk --nodes 64
    done
  done; done
done
