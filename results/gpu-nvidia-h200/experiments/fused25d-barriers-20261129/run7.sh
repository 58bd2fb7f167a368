#!/bin/bash
# Seventh call: what bounds fused25d's high-order rows at 4b0b45a's tuned launches (ncu).
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || exit 1
timeout 300 bash scripts/gpu_bound.sh "step --scheme fv24 --variant fused25d --coef uniform --grid 512" \
    "step --scheme fv24wb --variant fused25d --coef uniform --grid 512" \
    "step --scheme fv24 --variant fused25d --coef indexed --grid 512" \
    "step --scheme s22 --variant fused25d --coef indexed --grid 512" >"$OUT/bound.out" 2>&1
tail -n 12 "$OUT/bound.log"
