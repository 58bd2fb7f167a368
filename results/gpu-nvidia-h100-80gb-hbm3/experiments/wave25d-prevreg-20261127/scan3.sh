#!/bin/bash
B=build/fdtdbench
for s in fv24 fv24wb s22; do for coef in uniform; do
for c in "32x8x1 4 1" "32x32x1 1 1" "32x32x1 1 2" "32x16x1 2 2" "64x16x1 1 2"; do
  set -- $c
  out=$($B step --device gpu --variant wave25d --scheme $s --coef $coef --grid 512 --reps 3 --block $1 --rows $2 --tsteps $3 --results /tmp/scanres 2>&1)
  echo "$s $coef block $1 rows $2 T $3: $(echo "$out" | grep -E '^ +(mcells_per_s|pct_bw) ' | awk '{printf "%s=%s ", $1, $2}') $(echo "$out" | grep -iE 'refus|error|cannot|reach' | head -1)"
done; done; done
