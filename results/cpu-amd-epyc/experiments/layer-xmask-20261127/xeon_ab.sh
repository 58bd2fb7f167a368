#!/bin/bash
# Xeon (lent host) CPU A/B: the CPML x runs masked (HEAD vs fe6ade4), and Yee arrays' layer before 11f2c76 (e7f4bba)
set -u
export PATH=/usr/local/cuda/bin:$PATH
lscpu | head -20 > $OUT/lscpu.txt
(perf stat -e cycles,instructions true) > $OUT/perf-check.txt 2>&1
make -j16 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
A="--device cpu --variant fused --grid 200 --pml 10 --steps 10"
OLD=ab-old bash scripts/ab.sh -r 2 -k "layer_ms|median_ms" \
  "step $A --scheme fv24 --coef uniform" "step $A --scheme s22 --coef indexed" "step $A --scheme yee --coef array" 2>&1 | tee $OUT/ab-xmask.log
OLD=ab-pre bash scripts/ab.sh -r 3 -k "layer_ms|median_ms" "step $A --scheme yee --coef array" 2>&1 | tee $OUT/ab-yee-pre.log
