#!/bin/bash
# Xeon (lent host) CPU A/B of this session's CPU kernel changes: HEAD (593e91e) against fe6ade4 (ab-old)
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
T="--device cpu --grid 300 --threads 16"
OLD=ab-old bash scripts/ab.sh -r 3 -k "mcells_per_s|pct_bw|layer_ms" \
  "step $T --variant wave --scheme yee --coef indexed" "step $T --variant fused --scheme fv24 --coef indexed" \
  "step $T --variant fused --scheme s22 --coef indexed" "step $T --variant fused --scheme yee --coef indexed" 2>&1 | tee $OUT/ab-indexed-16t.log
O="--device cpu --grid 200 --threads 1 --steps 5"
OLD=ab-old bash scripts/ab.sh -r 3 -k "mcells_per_s|layer_ms" \
  "step $O --variant wave --scheme yee --coef indexed" "step $O --variant fused --scheme fv24 --coef indexed" \
  "step $O --variant fused --scheme fv24 --coef uniform --pml 10" 2>&1 | tee $OUT/ab-1t.log
