#!/bin/bash
# Asked for an H200: there, a new GPU's first sitting (make tune; make bench in the next call); on
# an H100, the GPU tests not yet run at this code (test_decomp, test_cache.sh, test_simulation,
# test_cost). Run with SOURCE_COMMIT set. OUT=... bash h200-or-tests.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
echo "GPU: $gpu"
case "$gpu" in
*H200*) FRESH=1 SKIP_TESTS=1 bash scripts/gpu_session.sh "make tune" ;;
*) make -j16 >"$OUT/build.log" 2>&1 || { tail "$OUT/build.log"; exit 1; }
   t0=$(date +%s)
   TEST_JOBS=4 TEST_ONLY=gpu timeout 540 make test ONLY="test_decomp test_cache.sh test_simulation test_cost" > "$OUT/test-gpu.log" 2>&1
   echo "tests: rc $? in $(($(date +%s) - t0)) s"; tail -n 3 "$OUT/test-gpu.log"; grep -E "^FAIL|^SKIP" "$OUT/test-gpu.log" | head ;;
esac
