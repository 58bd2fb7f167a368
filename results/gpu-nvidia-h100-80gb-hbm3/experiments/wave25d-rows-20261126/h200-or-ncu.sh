#!/bin/bash
# One call asked for an H200: there, a new GPU's first sitting (make tune, the wave25d steps
# included); on an H100, ncu of the wave25d launches that changed (the array step with the row
# skip, the uniform one, FV24's new tile). OUT=... bash h200-or-ncu.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
echo "GPU: $gpu"
case "$gpu" in
*H200*) FRESH=1 SKIP_TESTS=1 bash scripts/gpu_session.sh "make tune" ;;
*) make -j16 >"$OUT/build.log" 2>&1 || { tail "$OUT/build.log"; exit 1; }
   bash scripts/gpu_bound.sh "step --scheme yee --variant wave25d --coef array --grid 512 --steps 3" \
       "step --scheme yee --variant wave25d --coef uniform --grid 512 --steps 3" \
       "step --scheme fv24 --variant wave25d --coef uniform --grid 512 --steps 1" ;;
esac
