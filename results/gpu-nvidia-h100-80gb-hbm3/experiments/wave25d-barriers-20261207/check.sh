#!/bin/bash
# The kept form (13f6aff) on a lent GPU, repo root: racecheck at one row a thread (the barriers
# dropped) over boundaries, storages and precisions, and at two rows (every barrier kept), then
# Yee's wave25d step tuned again (tune --step --force) to see whether its best launch moved.
# Logs and the tune's CSV and tuned file into $OUT. SKIP_TUNE=1: racecheck only.
set -u -o pipefail
OUT=${OUT:-.}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$OUT/gpu2.log"
make -j16 >/dev/null 2>&1 || exit 1
for spec in "--tsteps 3 --boundary pec --rows 2 --block 32x8x1" "--tsteps 3 --boundary pec --rows 1 --block 32x16x1" \
    "--tsteps 2 --rows 1 --block 64x16x1 --coef array" "--tsteps 4 --rows 1 --block 32x32x1" \
    "--tsteps 3 --rows 1 --block 32x16x1 --coef indexed --precision f64"; do
    echo "== racecheck $spec"
    timeout 80 compute-sanitizer --tool racecheck --racecheck-report all build/fdtdbench step --device gpu --variant wave25d \
        --scheme yee --coef uniform --grid 45x37x23 --reps 1 --steps 1 --results /tmp/rc $spec >/tmp/rc.log 2>&1
    echo "rc $?"
    grep -E "verified|RACECHECK SUMMARY" /tmp/rc.log
done 2>&1 | tee "$OUT/racecheck-3.log"
[ "${SKIP_TUNE:-0}" = 1 ] && exit 0
t0=$(date +%s)
timeout ${TUNE_SECONDS:-330} build/fdtdbench tune --step --variant wave25d --scheme yee --force >"$OUT/tune.log" 2>&1
echo "tune rc $? in $(($(date +%s) - t0)) s" | tee -a "$OUT/tune.log"
grep "yee.*step:wave25d" results/tuned/gpu-*.conf | tee "$OUT/tuned-lines.txt"
find results -name "tune-*.csv" -newer "$OUT/gpu2.log" -exec cp {} "$OUT/" \;
tail -5 "$OUT/tune.log"
