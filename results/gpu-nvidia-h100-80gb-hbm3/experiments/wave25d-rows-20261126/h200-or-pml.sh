#!/bin/bash
# Asked for an H200: there, a new GPU's first sitting (make tune; make bench in the next call); on
# an H100, the CPML's cost at this code (layer kernels with the 32-bit slab index and the
# single-precision uniform coefficients): scripts/pml_steps.sh on the GPU, fused. OUT=... bash h200-or-pml.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
echo "GPU: $gpu"
case "$gpu" in
*H200*) FRESH=1 SKIP_TESTS=1 bash scripts/gpu_session.sh "make tune" ;;
*) make -j16 >"$OUT/build.log" 2>&1 || { tail "$OUT/build.log"; exit 1; }
   stamp=$(mktemp); t0=$(date +%s)
   timeout 540 sh scripts/pml_steps.sh --device gpu --variant fused > "$OUT/pml-steps.log" 2>&1
   echo "pml_steps: rc $? in $(($(date +%s) - t0)) s"; tail -n 30 "$OUT/pml-steps.log"
   find results -newer "$stamp" -type f | tar czf "$OUT/results.tgz" -T - ;;
esac
