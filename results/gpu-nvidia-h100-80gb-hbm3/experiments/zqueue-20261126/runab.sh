#!/bin/bash
# run (Table 4's single-component kernel, which writes no CSV) by the old build (ab-old) and this
# tree's, alternated ROUNDS times: "old|new ARGS: mcells_per_s=.. pct_bw=..".
set -u -o pipefail
ROUNDS=${ROUNDS:-2}
for round in $(seq "$ROUNDS"); do
    for side in old new; do
        bin=$PWD/build/fdtdbench; [ $side = old ] && bin=$PWD/ab-old/build/fdtdbench
        for args in "$@"; do
            # shellcheck disable=SC2086
            o=$(FDTDBENCH_CACHE=$PWD/build/ab-cache-$side "$bin" $args 2>&1)
            m=$(echo "$o" | awk '$1=="mcells_per_s"||$1=="pct_bw"||$1=="block"{printf "%s=%s ", $1, $2}')
            echo "$side $args: ${m:-$(echo "$o" | tail -n 2 | tr '\n' ' ')} $(echo "$o" | grep -o 'block [0-9x]*.*' | head -1)"
        done
    done
done
