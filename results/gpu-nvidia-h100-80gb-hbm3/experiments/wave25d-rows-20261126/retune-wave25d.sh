#!/bin/bash
# wave25d's twelve steps tuned again with tune --step's seventh tile (their lines deleted from the
# tuned file first), then bench --device gpu with the result. Run with SOURCE_COMMIT set (the
# rows' commit); OUT=... bash retune-wave25d.sh
set -u
OUT=${OUT:-/tmp/out}
export PATH=/usr/local/cuda/bin:$PATH
conf=results/tuned/gpu-nvidia-h100-80gb-hbm3.conf
nvidia-smi --query-gpu=name --format=csv,noheader
make -j16 >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
stamp=$(mktemp)
sed -i '/step:wave25d /d' $conf
t0=$(date +%s); build/fdtdbench tune --step > $OUT/tune-step.log 2>&1; echo "tune --step: rc $? in $(($(date +%s) - t0)) s"
grep "wave25d: best" $OUT/tune-step.log
t0=$(date +%s); build/fdtdbench bench --device gpu > $OUT/bench-gpu.log 2>&1; echo "bench --device gpu: rc $? in $(($(date +%s) - t0)) s"
grep -c FAILED $OUT/bench-gpu.log
find results -newer "$stamp" -type f | tar czf "$OUT/results.tgz" -T -
