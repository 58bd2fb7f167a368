set -u; OUT=${OUT:-out}; mkdir -p $OUT
make -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
nvidia-smi --query-gpu=name,power.limit,clocks.max.sm --format=csv
pick() { awk -F, -v want="$1" 'NR==1{n=split(want,w," "); for(i=1;i<=NF;i++)h[$i]=i; next} {s=""; for(j=1;j<=n;j++) s=s" "w[j]"="$h[w[j]]; print s}'; }
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_event_reasons.active --format=csv,noheader -lms 20 > $OUT/smi.csv & P=$!
for s in yee fv24 fv24wb s22 s44; do for c in array uniform indexed; do
 timeout 60 build/fdtdbench step --device gpu --scheme $s --variant fused25d --coef $c --grid 512 --csv 2>>$OUT/err.log | tee -a $OUT/steps.csv | pick "scheme coef median_ms min_ms max_ms pct_bw pct_bw_spread clock_held_pct"
done; done
timeout 150 build/fdtdbench bench --device gpu --tables table4 >/dev/null 2>>$OUT/err.log
kill $P
f=$(ls -t results/gpu-*/bench-*.csv | head -1); cp $f $OUT/; pick "scheme variant pct_bw pct_bw_spread clock_held_pct" < $f
