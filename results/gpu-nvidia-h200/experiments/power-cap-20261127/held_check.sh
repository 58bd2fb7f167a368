#!/bin/bash
set -u
OUT=${OUT:-out}; mkdir -p "$OUT"
make -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
pick() { awk -F, -v want="$1" 'NR==1{n=split(want,w," "); for(i=1;i<=NF;i++)h[$i]=i; next} {s=""; for(j=1;j<=n;j++) s=s" "w[j]"="$h[w[j]]; print s}'; }
python3 exp/nvml_grain.py 6 > "$OUT/grain.txt" 2>&1 &
G=$!
sleep 0.5
build/fdtdbench step --device gpu --scheme fv24 --variant fused25d --coef uniform --grid 512 --reps 30 --csv 2>>"$OUT/err.log" | pick "scheme coef median_ms pct_bw pct_bw_spread clock_held_pct"
wait $G
for r in "yee uniform" "fv24 array" "fv24 indexed" "s22 uniform"; do set -- $r
build/fdtdbench step --device gpu --scheme $1 --variant fused25d --coef $2 --grid 512 --csv 2>>"$OUT/err.log" | pick "scheme coef median_ms pct_bw pct_bw_spread clock_held_pct"; done
timeout 150 build/fdtdbench bench --device gpu --tables table4 >/dev/null 2>>"$OUT/err.log"
f=$(ls -t results/gpu-*/bench-*.csv | head -1); cp "$f" "$OUT/"
pick "table scheme variant pct_bw pct_bw_spread clock_held_pct" < "$f"
head -40 "$OUT/grain.txt"
