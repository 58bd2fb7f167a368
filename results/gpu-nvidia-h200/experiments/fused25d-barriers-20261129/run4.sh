#!/bin/bash
# Fourth call: the tensor maps with L2 promotion of 256 B (ab-p: launch.c's tile_map_of) against
# none (this tree, 6dab288), fused25d's tuned launches, two alternated rounds.
set -u
export PATH=/usr/local/cuda/bin:$PATH
s="step --device gpu --variant fused25d"
rows=()
for sc in yee fv24 fv24wb s22 s44; do rows+=("$s --coef uniform --scheme $sc"); done
rows+=("$s --coef indexed --scheme fv24" "$s --coef array --scheme fv24")
timeout 200 env OLD=ab-p bash scripts/ab.sh -r 2 -k 'mcells_per_s|clock_held_pct' "${rows[@]}" >"$OUT/ab-promotion.log" 2>&1
echo "ab rc $?" >>"$OUT/ab-promotion.log"
