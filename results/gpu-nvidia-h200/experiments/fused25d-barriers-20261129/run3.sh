#!/bin/bash
# Third call: fused25d's step launches tuned again at 6dab288, its 15 f32 step rows at 512^3 as
# the step table measures them, then ncu at FV24's and S{2,2}'s new uniform launches.
#   SOURCE_COMMIT=<sha> bash run3.sh
set -u
args=("tune --step --variant fused25d --force")
for c in uniform indexed array; do
    for s in yee fv24 fv24wb s22 s44; do args+=("step --device gpu --variant fused25d --coef $c --scheme $s"); done
done
SKIP_TESTS=1 SESSION_SECONDS=400 bash scripts/gpu_session.sh "${args[@]}" | tail -n 8
timeout 120 bash scripts/gpu_bound.sh "step --scheme fv24 --variant fused25d --coef uniform --grid 512" \
    "step --scheme s22 --variant fused25d --coef uniform --grid 512" >"$OUT/bound.out" 2>&1
tail -n 12 "$OUT/bound.log" 2>/dev/null
