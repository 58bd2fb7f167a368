#!/bin/bash
B=build/fdtdbench
for c in "uniform 32x32x1 4 64" "uniform 32x32x1 4 96" "uniform 32x32x1 4 128" "uniform 32x32x1 4 48" "indexed 32x16x1 3 64" "indexed 32x16x1 3 128" "uniform 32x32x1 4 64"; do
  set -- $c
  out=$($B step --device gpu --variant wave25d --scheme yee --coef $1 --grid 512 --reps 3 --block $2 --rows 1 --tsteps $3 --nodes $4 --results /tmp/scanres 2>&1)
  echo "yee $1 block $2 T $3 nodes $4: $(echo "$out" | grep -E '^ +(mcells_per_s|pct_bw) ' | awk '{printf "%s=%s ", $1, $2}') $(echo "$out" | grep -iE 'refus|error|cannot' | head -1)"
done
