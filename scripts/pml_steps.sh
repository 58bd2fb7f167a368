#!/bin/sh
# The CPML's cost (issue 25): every scheme's full step without and with a layer of N cells, on a
# cube (the layer inside it) and on the grids fdtdbench cost picks for a problem (the layer around
# each domain, as cost --pml charges it), in one CSV, RESULTS/<machine>/steps/pml-<date>.csv, and
# its page beside it.
#   sh scripts/pml_steps.sh [--fdtdbench PATH] [--device cpu|gpu] [--pml N] [--grid N] [--size L]
#                           [--phase-error DEG] [--variant V] [--steps K] [--reps R] [--threads T]
#                           [--results DIR]
# The cost grids come from `fdtdbench cost --size L --phase-error DEG --csv` (the committed step
# rows of the device give its throughput; only its grids are used here).
set -eu
B=build/fdtdbench device=cpu pml=10 grid= size=10 budget=10 variant=components steps=10 reps=5 threads= results=results
while [ $# -gt 0 ]; do
    case $1 in
    --fdtdbench) B=$2 ;; --device) device=$2 ;; --pml) pml=$2 ;; --grid) grid=$2 ;; --size) size=$2 ;;
    --phase-error) budget=$2 ;; --variant) variant=$2 ;; --steps) steps=$2 ;; --reps) reps=$2 ;;
    --threads) threads=$2 ;; --results) results=$2 ;;
    *) echo "pml_steps.sh: unknown option '$1' (see the head of this script)" >&2; exit 2 ;;
    esac
    shift 2
done
[ -n "$grid" ] || { [ "$device" = cpu ] && grid=300 || grid=512; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/steps_lib.sh"

# scheme and domain side of every answer of the problem (both weightings of a designed scheme)
"$B" cost --device "$device" --size "$size" --phase-error "$budget" --csv >"$tmp/cost.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next } { print $col["scheme"], $col["nx"] }' \
    "$tmp/cost.csv" | sort -u >"$tmp/grids"

run() { # SCHEME GRID PML
    step_row "$1 ${2}^3 layer $3" --device "$device" --scheme "$1" --grid "$2" --pml "$3" --variant "$variant" \
        --steps "$steps" --reps "$reps" ${threads:+--threads "$threads"}
}
for s in $(awk '{ print $1 }' "$tmp/grids" | sort -u); do
    run "$s" "$grid" 0
    run "$s" "$grid" "$pml"
    for g in $(awk -v s="$s" '$1 == s { print $2 }' "$tmp/grids"); do
        run "$s" "$g" 0
        run "$s" $((g + 2 * pml)) "$pml"
    done
done

write_rows pml "$results" pml_steps.sh
