#!/bin/bash
B=build/fdtdbench
for coef in uniform indexed array; do
for c in "32x16x1 1 3" "64x16x1 1 3" "32x32x1 1 3" "32x32x1 1 4" "32x16x1 2 4" "32x8x1 2 4" "32x24x1 1 4" "32x24x1 1 5" "64x16x1 1 4"; do
  set -- $c
  out=$($B step --device gpu --variant wave25d --scheme yee --coef $coef --grid 512 --reps 3 --block $1 --rows $2 --tsteps $3 --results /tmp/scanres 2>&1)
  echo "$coef block $1 rows $2 T $3: $(echo "$out" | grep -E '^ +(mcells_per_s|pct_bw) ' | awk '{printf "%s=%s ", $1, $2}') $(echo "$out" | grep -iE 'refus|error|cannot' | head -1)"
done; done
