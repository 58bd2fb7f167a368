#!/bin/sh
# The temporally blocked step against the one-step variants (issue 24, item 3): each scheme and
# storage's fused and components steps and its wave step at each steps-per-pass asked for (or its
# tuned one), back to back, round after round, in one CSV, RESULTS/<machine>/steps/wave-<date>.csv,
# and its page beside it. Each row's pct_bw is against its own interleaved probe samples.
#   sh scripts/wave_steps.sh [--fdtdbench PATH] [--schemes "yee fv24 ..."] [--coefs "uniform ..."]
#                            [--tsteps "2 4"] [--grid N] [--steps K] [--reps R] [--rounds N]
#                            [--threads T] [--results DIR]
# --tsteps "" (the default): the wave at its tuned steps per pass (tune --device cpu --step).
set -eu
B=build/fdtdbench schemes="yee fv24 fv24wb s22 s44" coefs="uniform indexed array" tsteps="" grid=300 steps=8
reps=5 rounds=1 threads=2 results=results
while [ $# -gt 0 ]; do
    case $1 in
    --fdtdbench) B=$2 ;; --schemes) schemes=$2 ;; --coefs) coefs=$2 ;; --tsteps) tsteps=$2 ;; --grid) grid=$2 ;;
    --steps) steps=$2 ;; --reps) reps=$2 ;; --rounds) rounds=$2 ;; --threads) threads=$2 ;; --results) results=$2 ;;
    *) echo "wave_steps.sh: unknown option '$1' (see the head of this script)" >&2; exit 2 ;;
    esac
    shift 2
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/steps_lib.sh"

run() { # SCHEME COEF VARIANT [TSTEPS]
    step_row "$1 $2 $3${4:+ T=$4} ${grid}^3" --scheme "$1" --coef "$2" --variant "$3" ${4:+--tsteps "$4"} \
        --grid "$grid" --steps "$steps" --reps "$reps" --threads "$threads"
}
r=0
while [ $r -lt "$rounds" ]; do
    for s in $schemes; do
        for c in $coefs; do
            run "$s" "$c" components
            run "$s" "$c" fused
            if [ -z "$tsteps" ]; then run "$s" "$c" wave; fi
            for t in $tsteps; do run "$s" "$c" wave "$t"; done
        done
    done
    r=$((r + 1))
done

write_rows wave "$results" wave_steps.sh
