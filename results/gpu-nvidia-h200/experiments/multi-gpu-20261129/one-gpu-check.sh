#!/bin/bash
# On one H200 (the 4-GPU kind withdrawn): the reordered overlapped half-step (71c8911) run on a GPU
# through the copy transport: test_decomp's one-GPU checks (slabs against the undivided step,
# overlapped), and the slab steps of the old order (ab-old, 2762b8e) against the new, alternated.
set -u
export PATH=/usr/local/cuda/bin:$PATH NCCL_NVLS_ENABLE=0
timeout 300 make -j16 test ONLY="test_decomp test_step_cli.sh" > "$OUT/test.log" 2>&1; echo "tests: exit $?"; tail -3 "$OUT/test.log"
s() { echo "step --device gpu --slabs $1 --scheme $2 --coef uniform --variant fused25d --grid 512 --overlap $3 --reps 5"; }
timeout 200 env OLD=ab-old bash scripts/ab.sh -r 2 -k 'mcells_per_s|median_ms' "$(s 2 fv24 yes)" "$(s 4 fv24 yes)" "$(s 4 yee yes)" \
    2>&1 | tee "$OUT/ab.log"
