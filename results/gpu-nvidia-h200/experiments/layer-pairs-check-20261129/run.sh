#!/bin/bash
# After c47cfff (the layer's time where the update folds it: ABBA pairs; decomp_layer_run split):
# the GPU's layer rows, timed by their passes alone, still work, and test_pml's GPU test passes.
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || exit 1
for s in fv24 yee; do
    timeout 60 build/fdtdbench step --device gpu --variant fused25d --coef array --grid 512 --pml 10 --scheme $s \
        --results "$OUT/r" 2>&1 | grep -E "mcells_per_s|layer_|verified|error"
done
timeout 420 make -j16 test ONLY="test_pml test_step_cli.sh" >"$OUT/test.log" 2>&1
echo "make test: $?"; tail -n 6 "$OUT/test.log"
