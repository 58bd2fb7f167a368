#!/bin/bash
# SCRATCH (issue 25): the GPU layer kernels with C cells a thread, a block apart, every cell's loads before any store.
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
for round in 1 2; do
  for C in 1 2 4; do
    for s in yee fv24 fv24wb s22 s44; do
      out=$(FDTD_LAYER_CELLS=$C build/fdtdbench step --device gpu --variant fused --coef array --grid 512 --pml 10 --reps 3 --scheme $s --results /tmp/r 2>&1)
      echo "C=$C $s $(echo "$out" | grep -E '^ +(mcells_per_s|layer_ms|layer_pct_bw|verified) ' | awk '{printf "%s=%s ", $1, $2}') $(echo "$out" | grep -i -m1 'fail')"
    done
  done
done
# odd grid: verification with several cells a thread and a slab not a multiple of the block
for C in 2 4; do for s in yee fv24; do FDTD_LAYER_CELLS=$C build/fdtdbench step --device gpu --variant fused --coef indexed --grid 67x45x19 --pml 5 --reps 1 --steps 2 --scheme $s --results /tmp/r 2>&1 | grep -E 'verif|FAIL|error|pml_reflection' | sed "s/^/odd C=$C $s /"; done; done
