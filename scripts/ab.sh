#!/bin/bash
# A/B on one machine: this tree's build ("new") against another source tree's ("old"), each
# fdtdbench command run by both, alternated ROUNDS times so that drift in the machine falls on
# both sides alike:
#   OLD=DIR bash scripts/ab.sh [-r ROUNDS] [-k KEYS] "ARGS" ...
#   e.g. OLD=ab-old bash scripts/ab.sh -r 2 "step --device gpu --variant wave25d --scheme yee --coef uniform"
#        OLD=ab-old bash scripts/ab.sh "sweep --device gpu --schemes all --grids 300,512 --variant tile25d"
# DIR holds the base's sources, made here before a device call with
#   mkdir ab-old && git archive BASE ':!results' | tar x -C ab-old
# (ab-old is ignored: name it in the device call's carry), since the lent machine's copy carries
# the working tree, not its git history (there `git archive HEAD` gives a stale commit). Each side builds in its own folder and keeps its own
# kernel cache. ARGS: a command that takes --results (step, bench, sweep, cost; run writes no CSV
# and tune always writes under results/, so neither takes it). KEYS: the result lines kept, an
# extended regex (mcells_per_s). Prints one line a run: "old|new ARGS:
# key=value ...", or its last two lines where it printed none of KEYS (an error, a refusal); a
# command that measures several rows (sweep, bench: "[i/n] ..." progress lines) one line a row,
# "old|new ARGS: [i/n] row: figures".
# Writes nothing under results/ (each run's CSV goes to a scratch folder). BUILD: the new
# tree's build folder (build); the old tree builds in its own.
set -u -o pipefail
rounds=2 keys=mcells_per_s
while getopts r:k: o; do
    case $o in
    r) rounds=$OPTARG ;;
    k) keys=$OPTARG ;;
    *) echo "usage: OLD=DIR $0 [-r ROUNDS] [-k KEYS] \"ARGS\" ..." >&2; exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ -n "${OLD:-}" ] && [ -f "$OLD/Makefile" ] || { echo "ab.sh: OLD must name a source tree (OLD=$OLD)" >&2; exit 2; }
[ $# -gt 0 ] || { echo "ab.sh: no command to run" >&2; exit 2; }
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
jobs=${JOBS:-$(nproc)}
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac # an absolute BUILD (make test BUILD=/tmp/x) as given
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
build() { # SIDE MAKE-ARGS...: its output kept apart from the runs' lines, shown if it fails
    local side=$1
    shift
    make "$@" >"$scratch/make-$side.log" 2>&1 && return
    tail -n 20 "$scratch/make-$side.log" >&2
    echo "ab.sh: the $side tree does not build" >&2
    exit 1
}
build new -j"$jobs" BUILD="$BUILD"
build old -C "$OLD" -j"$jobs" BUILD=build
for ((round = 1; round <= rounds; round++)); do
    for side in old new; do
        bin=$BUILD/fdtdbench
        [ $side = old ] && bin=$(cd "$OLD" && pwd)/build/fdtdbench
        for args in "$@"; do
            # shellcheck disable=SC2086 # ARGS is a command line: split it into words
            out=$(FDTDBENCH_CACHE=$BUILD/ab-cache-$side "$bin" $args --results "$scratch" 2>&1)
            kept=$(echo "$out" | grep -E "^ +($keys) " | awk '{printf "%s=%s ", $1, $2}')
            rows=$(echo "$out" | grep -E '^\[[0-9]+/[0-9]+\] ' | sed 's/ (ETA [^)]*)$//')
            if [ -n "$rows" ] && [ -z "$kept" ]; then
                echo "$rows" | while IFS= read -r row; do echo "$side $args: $row"; done
            else
                echo "$side $args: ${kept:-$(echo "$out" | tail -n 2 | tr '\n' ' ')}"
            fi
        done
    done
done
