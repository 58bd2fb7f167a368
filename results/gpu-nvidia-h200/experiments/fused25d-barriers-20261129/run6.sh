#!/bin/bash
# Sixth call: (1) cp.async's 16-byte copies with an L2 prefetch of 128 B (ab-c: tile_ring.cuh)
# against none (this tree), tile25d at 300^3 (Table 4's rows) and two fused25d steps; (2) this
# tree's fused25d step launches tuned again and its 15 f32 step rows (SOURCE_COMMIT=<sha>).
set -u
export PATH=/usr/local/cuda/bin:$PATH
timeout 170 env OLD=ab-c bash scripts/ab.sh -r 2 -k 'mcells_per_s|pct_bw' \
    "sweep --device gpu --schemes all --grids 300 --variant tile25d" \
    "step --device gpu --variant fused25d --coef indexed --scheme fv24" \
    "step --device gpu --variant fused25d --coef array --scheme fv24" >"$OUT/ab-cpasync-l2.log" 2>&1
echo "ab rc $?" >>"$OUT/ab-cpasync-l2.log"
args=("tune --step --variant fused25d --force")
for c in uniform indexed array; do
    for s in yee fv24 fv24wb s22 s44; do args+=("step --device gpu --variant fused25d --coef $c --scheme $s"); done
done
SKIP_TESTS=1 SESSION_SECONDS=250 bash scripts/gpu_session.sh "${args[@]}" | tail -n 6
