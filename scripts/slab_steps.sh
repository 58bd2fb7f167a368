#!/bin/sh
# What splitting the grid into slabs costs on one device (issue 26): each scheme's full step
# undivided and in N slabs (the copy transport), in both schedules, round after round (so the
# machine's drift falls on every count alike), in one CSV, RESULTS/<machine>/steps/slabs-<date>.csv,
# and its page beside it. The ratio that matters is a split row's ms/step over the undivided row's
# of the same round.
#   sh scripts/slab_steps.sh [--fdtdbench PATH] [--device cpu|gpu] [--schemes "yee fv24"]
#                            [--slabs "2 4 8"] [--grid N] [--variant V] [--steps K] [--reps R]
#                            [--threads T] [--rounds N] [--results DIR]
set -eu
B=build/fdtdbench device=cpu schemes="yee fv24 s44" counts="2 4 8" grid=200 variant=fused steps=5 reps=5 threads=
rounds=2 results=results
while [ $# -gt 0 ]; do
    case $1 in
    --fdtdbench) B=$2 ;; --device) device=$2 ;; --schemes) schemes=$2 ;; --slabs) counts=$2 ;; --grid) grid=$2 ;;
    --variant) variant=$2 ;; --steps) steps=$2 ;; --reps) reps=$2 ;; --threads) threads=$2 ;; --rounds) rounds=$2 ;;
    --results) results=$2 ;;
    *) echo "slab_steps.sh: unknown option '$1' (see the head of this script)" >&2; exit 2 ;;
    esac
    shift 2
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/steps_lib.sh"

run() { # SCHEME SLABS OVERLAP
    step_row "$1 ${grid}^3 in $2 slab(s), overlap $3" --device "$device" --scheme "$1" --grid "$grid" \
        --slabs "$2" --overlap "$3" --variant "$variant" --steps "$steps" --reps "$reps" ${threads:+--threads "$threads"}
}
r=0
while [ $r -lt "$rounds" ]; do
    r=$((r + 1))
    for s in $schemes; do
        run "$s" 1 no
        for n in $counts; do
            run "$s" "$n" no
            run "$s" "$n" yes
        done
    done
done

write_rows slabs "$results" slab_steps.sh
