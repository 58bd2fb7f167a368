#!/bin/bash
# Fifth call: this tree (L2 promotion 256 B) against 128 B (ab-q), then against none again (ab-n).
set -u
export PATH=/usr/local/cuda/bin:$PATH
s="step --device gpu --variant fused25d"
rows=()
for sc in yee fv24 fv24wb s22 s44; do rows+=("$s --coef uniform --scheme $sc"); done
rows+=("$s --coef indexed --scheme fv24" "$s --coef indexed --scheme yee" "$s --coef indexed --scheme s22" "$s --coef array --scheme fv24")
timeout 200 env OLD=ab-q bash scripts/ab.sh -r 2 -k 'mcells_per_s|clock_held_pct' "${rows[@]}" >"$OUT/ab-128-256.log" 2>&1
echo "ab rc $?" >>"$OUT/ab-128-256.log"
timeout 150 env OLD=ab-n bash scripts/ab.sh -r 2 -k 'mcells_per_s|clock_held_pct' "${rows[@]}" >"$OUT/ab-none-256.log" 2>&1
echo "ab rc $?" >>"$OUT/ab-none-256.log"
