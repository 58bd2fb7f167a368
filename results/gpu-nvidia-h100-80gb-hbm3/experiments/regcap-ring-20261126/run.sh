#!/bin/bash
# fused25d's register cap (the rule: 128 for two rows) against lower ones, now that the node
# operands and the material byte no longer sit in registers (ab556e6): each uniform and indexed
# step at its tuned launch, caps from a scratch environment variable (regcap-scratch.patch), two
# rounds. Run from the repository root on the device: OUT=... bash .../run.sh
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p $OUT
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
L=$OUT/regcap.log
st() { # CAP ARGS...
    local c=$1; shift
    local line
    line=$(FDTDBENCH_FUSED25D_REGS=$c timeout 60 build/fdtdbench step --device gpu --variant fused25d --results /tmp/res --csv "$@" 2>&1 | tail -1)
    case $line in step,*) line="$(echo "$line" | cut -d, -f18-21 | tr , ' ') mcells $(echo "$line" | cut -d, -f31) pct_bw $(echo "$line" | cut -d, -f38) verified $(echo "$line" | cut -d, -f47)";; esac
    echo "cap $c $* :: $line" | tee -a $L
}
for round in 1 2; do
  for s in fv24 fv24wb s22 yee; do for co in uniform indexed; do for cap in 0 104 96 80; do
    st $cap --scheme $s --coef $co
  done; done; done
done
