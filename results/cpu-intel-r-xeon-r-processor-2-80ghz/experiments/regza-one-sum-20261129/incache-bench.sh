#!/bin/sh
# The in-cache table (bench --tables incache: one and two threads, every variant, Hx f32 arrays)
# from BASE's build (a sum a bracket and field in regza) and this tree's (one sum a bracket),
# alternated ROUNDS times; each run's CSV under OUTDIR/base-N, OUTDIR/new-N.
#   BASE=/tmp/cpubase/build ROUNDS=3 OUTDIR=/tmp/ic sh incache-bench.sh
set -eu
for round in $(seq "${ROUNDS:-3}"); do
    "$BASE/fdtdbench" bench --device cpu --tables incache --results "$OUTDIR/base-$round" >/dev/null 2>&1
    build/fdtdbench bench --device cpu --tables incache --results "$OUTDIR/new-$round" >/dev/null 2>&1
done
