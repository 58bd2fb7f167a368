#!/bin/bash
# Scratch: the fused25d uniform high-order rows' sample-to-sample spread against the GPU's clocks and power.
set -u
OUT=${OUT:-out}; mkdir -p "$OUT"
make -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvidia-smi --query-gpu=name,power.limit,power.max_limit,clocks.max.sm,clocks.applications.graphics --format=csv | tee "$OUT/gpu.txt"
q=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_event_reasons.active
nvidia-smi --query-gpu=$q --format=csv,noheader >/dev/null 2>&1 || q=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active
echo "$q" > "$OUT/smi.csv"
nvidia-smi --query-gpu=$q --format=csv,noheader -lms 10 >> "$OUT/smi.csv" &
P=$!
for run in "fv24 uniform" "fv24 indexed" "s22 uniform" "yee uniform" "fv24 uniform"; do
    set -- $run
    echo "START $1 $2 $(date +%Y/%m/%d\ %H:%M:%S.%N)" | tee -a "$OUT/marks.txt"
    build/fdtdbench step --device gpu --scheme $1 --variant fused25d --coef $2 --grid 512 --reps 15 2>&1 | grep -E '^step|min_ms|median_ms|max_ms|mcells|pct_bw' | tee -a "$OUT/steps.txt"
    echo "END $1 $2 $(date +%Y/%m/%d\ %H:%M:%S.%N)" | tee -a "$OUT/marks.txt"
done
kill $P
nvidia-smi -q -d PERFORMANCE,POWER,CLOCK > "$OUT/smi-q.txt" 2>&1
