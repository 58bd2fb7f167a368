#!/bin/bash
# Second call: which part of the first call's change cost its control rows 3-4%. This tree (the
# barriers in a slot's padding, fetch_step as before) against HEAD's sources (ab-old) and against
# the first call's tree (ab-w: fetch_step's two loops made one); then test_step on this tree.
set -u
export PATH=/usr/local/cuda/bin:$PATH
L=$OUT/logs; mkdir -p "$L"
s="step --device gpu --variant fused25d"
rows=("$s --coef uniform --scheme fv24" "$s --coef uniform --scheme s22" "$s --coef uniform --scheme yee" "$s --coef indexed --scheme fv24")
timeout 110 env OLD=ab-old bash scripts/ab.sh -r 2 -k 'mcells_per_s|occupancy_pct' "${rows[@]}" >"$L/ab-head.log" 2>&1; echo "ab rc $?" >>"$L/ab-head.log"
timeout 100 env OLD=ab-w bash scripts/ab.sh -r 2 -k 'mcells_per_s|occupancy_pct' "${rows[@]}" >"$L/ab-w.log" 2>&1; echo "ab rc $?" >>"$L/ab-w.log"
ONLY=test_step timeout 330 make test >"$L/test_step.log" 2>&1; echo "test rc $?" >>"$L/test_step.log"
tar czf "$OUT/call2.tgz" -C "$OUT" logs
