#!/bin/bash
# The change as committed (wave25d skipping the rows a level gets wrong with one row a thread; f32
# kernels reading the uniform coefficients in single precision; tune --step's sixth wave25d tile,
# 32x16 with two rows) against a6db9e4 ("old": ab-old), after the GPU tests that cover it: the
# tuned launches at 512^3 (HEAD's tuned file) and the high-order uniform steps at 32x16x1 with two
# rows, alternated twice. OUT=... bash final-ab.sh
set -u
OUT=${OUT:-/tmp/out}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
TEST_JOBS=3 TEST_ONLY=gpu timeout 330 make test ONLY="test_step test_gpu test_pml" > $OUT/test-gpu.log 2>&1
tail -n 3 $OUT/test-gpu.log; grep -E "^FAIL|GPU wave25d|test_gpu_layer|^ok|^SKIP" $OUT/test-gpu.log | head -20
cmds=()
for s in yee fv24 fv24wb s22; do for c in uniform indexed array; do
    cmds+=("step --device gpu --variant wave25d --grid 512 --scheme $s --coef $c"); done; done
for s in fv24 fv24wb s22; do
    cmds+=("step --device gpu --variant wave25d --grid 512 --scheme $s --coef uniform --tsteps 1 --block 32x16x1 --rows 2"); done
cmds+=("step --device gpu --variant fused --grid 512 --scheme yee --coef uniform"
       "step --device gpu --variant fused25d --grid 512 --scheme fv24 --coef uniform")
OLD=ab-old bash scripts/ab.sh -r 2 "${cmds[@]}" 2>&1 | tee $OUT/old-new.log
