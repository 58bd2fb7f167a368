#!/bin/bash
# wave25d's barriers only where a level reads other threads' values of the plane the level before
# it stored in the same sweep step (Yee: T of the 2T a sweep step). On a lent GPU, repo root:
#   mkdir ab-old && git archive BASE ':!results' | tar x -C ab-old      (here, before the call)
#   bash results/.../wave25d-barriers-20261207/run.sh                    (device call, carry ab-old)
# Builds; times the Yee rows at the tuned launches, old template and new alternated
# (scripts/ab.sh); runs racecheck on small grids (shared-memory hazards between threads), then
# test_step (wave25d verified at T = 1, 2, 3 against T plain steps). Logs into $OUT.
set -u -o pipefail
OUT=${OUT:-.}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit --format=csv,noheader | tee "$OUT/gpu.log"
make -j16 >"$OUT/build.log" 2>&1 || { tail -20 "$OUT/build.log"; exit 1; }
args=()
for c in ${COEFS:-uniform indexed array}; do args+=("step --device gpu --variant wave25d --scheme yee --coef $c --grid 512"); done
OLD=ab-old timeout 280 bash scripts/ab.sh -r ${ROUNDS:-2} -k 'mcells_per_s|pct_bw|tsteps|block' "${args[@]}" 2>&1 | tee "$OUT/ab.log"
for spec in "--tsteps 2" "--tsteps 3 --boundary pec --rows 2 --block 32x8x1"; do
    echo "== racecheck $spec"
    timeout 70 compute-sanitizer --tool racecheck --racecheck-report all build/fdtdbench step --device gpu --variant wave25d \
        --scheme yee --coef uniform --grid 45x37x23 --reps 1 --steps 1 --results "$OUT/rc" $spec 2>&1 | tail -4
done | tee "$OUT/racecheck.log"
t0=$(date +%s)
timeout 170 make test ONLY="${TESTS:-test_step}" >"$OUT/test.log" 2>&1
echo "test rc $? in $(($(date +%s) - t0)) s" | tee -a "$OUT/test.log"
tail -5 "$OUT/test.log"
