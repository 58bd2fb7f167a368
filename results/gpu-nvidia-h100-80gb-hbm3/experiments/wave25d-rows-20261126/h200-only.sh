#!/bin/bash
# Asked for an H200: there, a new GPU's first sitting (make tune; make bench in the next call);
# on an H100, nothing (this session's H100 work is done). Run with SOURCE_COMMIT set.
set -u
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)
echo "GPU: $gpu"
case "$gpu" in
*H200*) FRESH=1 SKIP_TESTS=1 bash scripts/gpu_session.sh "make tune" ;;
esac
