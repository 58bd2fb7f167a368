#!/bin/sh
# In-cache A/B of regza's bodies: one running sum a bracket (this tree's build) against a sum a
# bracket and field (BASE's build: the tree before), alternated ROUNDS times, one thread, its CPU
# time (scripts/cputime.c), the in-cache grid 128 x 15 x 15, four nodes along z.
#   BASE=/tmp/cpubase/build ROUNDS=5 sh incache.sh > incache.log
set -eu
ROUNDS=${ROUNDS:-5}
for round in $(seq "$ROUNDS"); do
    for k in fv24_hx_f32_array_regza s22_hx_f32_array_regza fv24wb_hx_f32_array_regza s44_hx_f32_array_regza \
        yee_hx_f32_array_regza fv24_hx_f32_uniform_regza fv24_hx_f32_array_plain; do
        for side in base new; do
            b=build
            [ $side = base ] && b=$BASE
            nodes=4
            case $k in *plain) nodes=1 ;; esac
            echo "round $round $side $("$b/cputime" "$k" 128 15 15 1500 0 1 $nodes 2>&1 | tail -n 1)"
        done
    done
done
