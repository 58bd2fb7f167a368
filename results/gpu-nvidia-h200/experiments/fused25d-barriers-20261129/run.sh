#!/bin/bash
# One device call: the barriers in a slot's padding (this tree) against HEAD's sources (ab-old),
# then fused25d's step launches tuned again, then test_step. Logs into $OUT/barriers.tgz.
set -u
export PATH=/usr/local/cuda/bin:$PATH
X=results/gpu-nvidia-h200/experiments/fused25d-barriers-20261129
L=$OUT/logs; mkdir -p "$L"
stamp=$(mktemp)
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader >"$L/gpu.txt"
gcc -O2 -I/usr/local/cuda/include $X/encode_time.c -L/usr/local/cuda/lib64 -lcudart -lcuda -o /tmp/enc && /tmp/enc >"$L/encode.log" 2>&1
s="step --device gpu --variant fused25d"
shape="--block 32x4x1 --rows 2 --stages 2"
timeout 170 env OLD=ab-old bash scripts/ab.sh -r 2 -k 'mcells_per_s|occupancy_pct|pct_bw' \
  "$s --coef uniform --scheme fv24" "$s --coef uniform --scheme s22 $shape" "$s --coef uniform --scheme fv24wb $shape" \
  "$s --coef uniform --scheme s22" "$s --coef uniform --scheme fv24wb" "$s --coef indexed --scheme fv24" \
  "$s --coef uniform --scheme yee" >"$L/ab.log" 2>&1
echo "ab rc $?" >>"$L/ab.log"
timeout 90 build/fdtdbench tune --step --variant fused25d --force >"$L/retune.log" 2>&1; echo "tune rc $?" >>"$L/retune.log"
ONLY=test_step timeout 250 make test >"$L/test_step.log" 2>&1; echo "test rc $?" >>"$L/test_step.log"
find results -newer "$stamp" -type f >"$L/written.txt"
tar czf "$OUT/barriers.tgz" -C "$OUT" logs -C "$PWD" $(cat "$L/written.txt")
