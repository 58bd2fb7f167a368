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
for r in 1 2; do
    for side in old new; do
        run $side $r sweep --device gpu --schemes all --grids 300,512 --variant tile25d --name t4
        run $side $r step --device gpu --variant fused25d --scheme fv24 --coef array --grid 512
        run $side $r step --device gpu --variant fused --scheme s44 --coef array --grid 512
    done
done 2>&1 | tee "$OUT/ab.log"
TEST_ONLY=gpu timeout 300 make test ONLY="test_gpu" >"$OUT/test-gpu.log" 2>&1
echo "test_gpu exit $?" >>"$OUT/ab.log"
grep -E "passed|failed|FAIL|launches verified|tiled variants" "$OUT/test-gpu.log" | tail -8 >>"$OUT/ab.log"
