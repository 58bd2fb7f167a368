#!/bin/bash
# usage: CELLS=n cgk.sh BIN LABEL STEP-ARGS...: per kernel function (k_*, l_*), instructions per cell and
# step (steps 8 - steps 4, the kernel cache warmed first)
bin=$1; label=$2; shift 2
export OMP_PROC_BIND=close OMP_PLACES=cores OMP_NUM_THREADS=1
"$bin" step --device cpu --threads 1 --reps 1 --steps 1 "$@" >/dev/null 2>&1
for s in 4 8; do
  valgrind --tool=callgrind --callgrind-out-file=/tmp/cgk.$$.$s "$bin" step --device cpu --threads 1 --reps 1 --steps $s "$@" >/tmp/cgk.$$.$s.log 2>&1
  grep -q 'verified *1' /tmp/cgk.$$.$s.log || echo "$label: NOT VERIFIED (steps $s)"
  callgrind_annotate --show-percs=no --threshold=100 /tmp/cgk.$$.$s 2>/dev/null | awk '$0 ~ /:(k|l)_[a-z0-9]+_/ {gsub(",","",$1); f=$2; sub(/.*:/,"",f); s[f]+=$1} END {for (f in s) print f, s[f]}' > /tmp/cgk.$$.$s.f
done
awk -v c="$CELLS" -v l="$label" 'FNR==NR {a[$1]=$2; next} {d=$2-a[$1]; if (d > 0) {printf "%s: %-52s %8.2f\n", l, $1, d/(4*c); t+=d}} END {printf "%s: TOTAL %.2f\n", l, t/(4*c)}' /tmp/cgk.$$.4.f /tmp/cgk.$$.8.f | sort
rm -f /tmp/cgk.$$.*
