#!/bin/bash
# Scratch: clock_held_pct beside nvidia-smi for rows that do and do not hit the power cap.
set -u
OUT=${OUT:-out}; mkdir -p "$OUT"
make -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
q=timestamp,clocks.sm,power.draw,clocks_event_reasons.active
nvidia-smi --query-gpu=$q --format=csv,noheader -lms 20 > "$OUT/smi.csv" &
P=$!
pick() { awk -F, -v want="$1" 'NR==1{n=split(want,w," "); for(i=1;i<=NF;i++)h[$i]=i; next} {s=""; for(j=1;j<=n;j++) s=s" "w[j]"="$h[w[j]]; print s}'; }
cols="scheme variant coef min_ms median_ms max_ms mcells_per_s pct_bw pct_bw_spread clock_held_pct"
for run in "fv24 fused25d uniform" "fv24 fused25d indexed" "yee fused25d uniform" "s22 fused25d uniform" "fv24 fused25d array" "fv24wb fused25d uniform" "fv24 fused25d uniform"; do
    set -- $run
    echo "START $run $(date +%T.%N)" >> "$OUT/marks.txt"
    build/fdtdbench step --device gpu --scheme $1 --variant $2 --coef $3 --grid 512 --reps 15 --csv 2>>"$OUT/err.log" | pick "$cols" | tee -a "$OUT/rows.txt"
done
for s in fv24 yee; do
    build/fdtdbench run --device gpu --scheme $s --component hx --grid 512 --csv 2>>"$OUT/err.log" | pick "scheme variant median_ms pct_bw pct_bw_spread clock_held_pct" | tee -a "$OUT/rows.txt"
done
kill $P
