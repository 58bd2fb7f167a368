#!/bin/bash
# A/B of coefficient arrays from node x = 0 at 64 bytes (GPU) and tile25d's coefficient rows
# copied from the node: the base (ab-old) against this tree, two rounds, then the GPU tests.
set -u
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-out}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,power.limit --format=csv >"$OUT/gpu.txt"
make -j16 >"$OUT/make-new.log" 2>&1 || { tail "$OUT/make-new.log"; exit 1; }
make -C ab-old -j16 BUILD=build >"$OUT/make-old.log" 2>&1 || { tail "$OUT/make-old.log"; exit 1; }
run() { # SIDE ROUND ARGS...
    local side=$1 r=$2 bin=$PWD/build/fdtdbench
    shift 2
    [ "$side" = old ] && bin=$PWD/ab-old/build/fdtdbench
    echo "== $side $r: $*"
    FDTDBENCH_CACHE=$PWD/cache-$side timeout 120 "$bin" "$@" --results "$OUT/$side-$r" 2>&1 | grep -E "MCells|FAIL|error|refus|mismatch|^fdtdbench"
}
for r in 1; do
    for side in old new; do
        run $side $r step --device gpu --variant wave25d --scheme yee --coef uniform --grid 512
        run $side $r step --device gpu --variant fused --scheme s44 --coef array --grid 512
    done
done 2>&1 | tee "$OUT/ab.log"
