#!/bin/bash
# The indexed coefficients read a material's record whole (16-byte loads) against one load a
# coefficient (ab-old: 4b4a1e5), at the tuned launches of this GPU's committed file; then the GPU
# step tests. Run from the repo root on the lent machine, carry ["ab-old"]:
#   bash results/gpu-nvidia-h100-80gb-hbm3/experiments/indexed-records-20261206/run.sh
set -u -o pipefail
OUT=${OUT:-out}; mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv | tee "$OUT/gpu.txt"
make -j16 >"$OUT/build.log" 2>&1 || { tail "$OUT/build.log"; exit 1; }
cmds=()
for s in yee fv24 fv24wb s22 s44; do cmds+=("step --device gpu --variant fused25d --coef indexed --scheme $s"); done
for s in yee fv24; do cmds+=("step --device gpu --variant fused --coef indexed --scheme $s"); done
OLD=ab-old timeout 300 bash scripts/ab.sh -r 2 -k 'mcells_per_s|pct_bw|occupancy_pct' "${cmds[@]}" 2>&1 | tee "$OUT/ab.log"
TEST_ONLY=gpu timeout 240 make test ONLY=test_step 2>&1 | tee "$OUT/test-step.log" | tail -15
