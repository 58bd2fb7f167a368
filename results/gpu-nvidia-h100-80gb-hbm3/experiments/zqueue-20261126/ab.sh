#!/bin/bash
# fused25d with plane sums carried along z (new) against the base (ab-old), on the lent GPU:
# each step command run by the old build and by the new one at each queue threshold
# (FDTDBENCH_ZQ_RATIO: a sum is queued where its reuse saves RATIO times the queue's moves;
# RATIOS entries RATIO or RATIO:REGS, REGS the kernel's register cap, FDTDBENCH_ZQ_MAXREG),
# ROUNDS rounds alternated. Writes $OUT/zq-ab.log; every run's CSV in $OUT/csv.
set -u -o pipefail
OUT=${OUT:-/tmp/zq}; mkdir -p "$OUT/csv"
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 && make -C ab-old -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
RATIOS=${RATIOS:-"1 2.5 4"} ROUNDS=${ROUNDS:-2}
run() { # SIDE RATIO ARGS...
    local side=$1 ratio=$2; shift 2
    local bin=$PWD/build/fdtdbench; [ $side = old ] && bin=$PWD/ab-old/build/fdtdbench
    local regs=${ratio#*:}; [ "$regs" = "$ratio" ] && regs=
    local o=$(env FDTDBENCH_ZQ_RATIO=${ratio%%:*} ${regs:+FDTDBENCH_ZQ_MAXREG=$regs} FDTDBENCH_CACHE=$PWD/build/zq-cache-$side "$bin" "$@" --results "$OUT/csv" 2>&1)
    local m=$(echo "$o" | awk '$1=="mcells_per_s"||$1=="pct_bw"{printf "%s=%s ", $1, $2}')
    echo "$side r=$ratio $*: ${m:-$(echo "$o" | tail -n 2 | tr '\n' ' ')}" | tee -a "$OUT/zq-ab.log"
}
for round in $(seq "$ROUNDS"); do
    for args in "$@"; do
        run old - $args
        for r in $RATIOS; do run new $r $args; done
    done
done
