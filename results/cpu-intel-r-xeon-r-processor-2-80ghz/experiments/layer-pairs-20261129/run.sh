#!/bin/bash
# old (batches in turn) and new (alternated pass by pass) builds, alternated, each row's layer columns
for round in ${ROUNDS:-1 2 3}; do
  for s in fv24wb yee; do
    for side in old new; do
      b=/work/main/build/fdtdbench; [ $side = old ] && b=/tmp/old/build/fdtdbench
      $b step --device cpu --variant fused --coef array --pml 10 --scheme $s --grid 300 --csv --results /tmp/lay/r-$side 2>/dev/null | tail -1 |
        awk -F, -v side=$side -v r=$round '{print r, side, $4, "mcells", $31, "layer_ms", $42, "share", $43, "layer_pct_bw", $45, "spread", $46}'
    done
  done
done
