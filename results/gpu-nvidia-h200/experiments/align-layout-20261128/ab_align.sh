#!/bin/bash
# A/B of the aligned grid layout (node x = 0 at 64 bytes, rows a multiple of 16 values): the base
# (ab-old: the sources of the commit before it) against this tree, alternated ROUNDS times on one
# warm GPU. Each side its own build and kernel cache; CSVs under $OUT/SIDE-ROUND.
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
    FDTDBENCH_CACHE=$PWD/cache-$side timeout 200 "$bin" "$@" --results "$OUT/$side-$r" 2>&1 | grep -E "MCells|FAIL|error|refus|mismatch|^fdtdbench"
}
for r in $(seq "${ROUNDS:-2}"); do
    for side in old new; do
        run $side $r sweep --device gpu --schemes all --grids 300,512 --variant tile25d --name t4
        for s in fv24 s22; do
            for c in uniform array; do run $side $r step --device gpu --variant fused25d --scheme $s --coef $c --grid 512; done
        done
        run $side $r step --device gpu --variant wave25d --scheme yee --coef uniform --grid 512
    done
done 2>&1 | tee "$OUT/ab.log"
