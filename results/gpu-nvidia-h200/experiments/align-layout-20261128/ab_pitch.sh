#!/bin/bash
# A/B/C at 512^3: the base layout (ab-old: rows of n + 4 values) against rows padded to 16 and to
# 32 values (ab-pitch16, ab-pitch32: the base with only grid_strides changed), alternated.
set -u
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-out}
mkdir -p "$OUT"
for t in ab-old ab-pitch16 ab-pitch32; do
    make -C $t -j16 BUILD=build >"$OUT/make-$t.log" 2>&1 || { tail "$OUT/make-$t.log"; exit 1; }
done
run() { # TREE ROUND ARGS...
    local t=$1 r=$2
    shift 2
    echo "== $t $r: $*"
    FDTDBENCH_CACHE=$PWD/cache-$t timeout 200 "$PWD/$t/build/fdtdbench" "$@" --results "$OUT/$t-$r" 2>&1 | grep -E "MCells|FAIL|error|refus|mismatch|^fdtdbench"
}
for r in $(seq "${ROUNDS:-2}"); do
    for t in ab-old ab-pitch16 ab-pitch32; do
        run $t $r sweep --device gpu --schemes all --grids 512 --variant tile25d --name t4
        run $t $r step --device gpu --variant fused25d --scheme fv24 --coef uniform --grid 512
        run $t $r step --device gpu --variant fused25d --scheme fv24 --coef array --grid 512
        run $t $r step --device gpu --variant wave25d --scheme yee --coef uniform --grid 512
    done
done 2>&1 | tee "$OUT/ab.log"
