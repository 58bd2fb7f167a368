#!/bin/bash
# Scratch: clock_held_pct for every step row (fused25d, wave25d; each storage) and Table 4.
set -u
OUT=${OUT:-out}; mkdir -p "$OUT"
make -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
pick() { awk -F, -v want="$1" 'NR==1{n=split(want,w," "); for(i=1;i<=NF;i++)h[$i]=i; next} {s=""; for(j=1;j<=n;j++) s=s" "w[j]"="$h[w[j]]; print s}'; }
cols="scheme variant coef tsteps median_ms mcells_per_s pct_bw pct_bw_spread clock_held_pct"
for v in fused25d wave25d; do for s in yee fv24 fv24wb s22 s44; do for c in array uniform indexed; do
    [ $v = wave25d ] && [ $s = s44 ] && continue
    timeout 60 build/fdtdbench step --device gpu --scheme $s --variant $v --coef $c --grid 512 --csv 2>>"$OUT/err.log" | tee -a "$OUT/steps.csv" | pick "$cols"
done; done; done
timeout 150 build/fdtdbench bench --device gpu --tables table4 2>>"$OUT/err.log" | tail -30
f=$(ls -t results/gpu-*/bench-*.csv | head -1); cp "$f" "$OUT/"
pick "table scheme variant nx pct_bw pct_bw_spread clock_held_pct" < "$f"
