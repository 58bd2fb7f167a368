#!/bin/bash
# wave25d clusters, fifth call: the 2x4 cluster's stop in run4 (a hang?) looked for, and tiles of
# two rows small enough for three blocks an SM with the borders (32x7 and 32x6 threads).
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
make -j16 >$OUT/build.log 2>&1 || { tail -20 $OUT/build.log; exit 1; }
(cd ab-old && make -j16 >$OUT/build-old.log 2>&1) || { tail -20 $OUT/build-old.log; exit 1; }
R=/tmp/res; L=$OUT/cluster5.log
st() { # BINARY CLUSTER ARGS...
    local b=$1 c=$2; shift 2
    local line rc
    FDTDBENCH_WAVE25D_CLUSTER=$c timeout 60 $b step --device gpu --variant wave25d --results $R --csv "$@" >/tmp/st.out 2>&1
    rc=$?
    line=$(tail -1 /tmp/st.out)
    case $line in step,*) line="mcells $(echo "$line" | cut -d, -f31) pct_bw $(echo "$line" | cut -d, -f38) verified $(echo "$line" | cut -d, -f47)";; esac
    echo "$b $c $* :: $line (rc $rc)" | tee -a $L
    [ $rc = 0 ] || tail -5 /tmp/st.out | tee -a $L
}
Y="--scheme yee --coef uniform --nodes 64"
for i in 1 2 3 4; do st build/fdtdbench 2x4 $Y --tsteps 3 --block 32x8x1 --rows 1; done
for round in 1 2; do
  st ab-old/build/fdtdbench 1x1 $Y --tsteps 3 --block 32x8x1 --rows 2
  st build/fdtdbench 1x1 $Y --tsteps 3 --block 32x8x1 --rows 2
  st build/fdtdbench 1x8 $Y --tsteps 3 --block 32x8x1 --rows 1
  for c in 1x2 1x4 1x8; do for T in 3 4; do st build/fdtdbench $c $Y --tsteps $T --block 32x7x1 --rows 2; done; done
  for c in 1x4 1x8; do st build/fdtdbench $c $Y --tsteps 3 --block 32x6x1 --rows 2; done
  st build/fdtdbench 1x8 $Y --tsteps 3 --block 32x5x1 --rows 3
  st build/fdtdbench 1x1 $Y --tsteps 3 --block 32x7x1 --rows 2
done
for s in yee fv24; do for co in uniform indexed; do for bc in periodic pec; do
  st build/fdtdbench 1x4 --scheme $s --coef $co --boundary $bc --grid 64 --reps 1 --tsteps 2 --block 32x7x1 --rows 2
done; done; done
