#!/bin/sh
# scripts/ab.sh: a base tree built beside this one, each command run by both in turn, one line
# a run; bad input ends with its reason and status 2.
. tests/shlib.sh
BUILD=${BUILD:-build}
export BUILD

f=""
OLD= sh -c 'bash scripts/ab.sh "step"' >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "OLD must name a source tree" "$tmp/err" || f="no OLD: $(cat "$tmp/err")"
OLD=. bash scripts/ab.sh >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "no command" "$tmp/err" || f="$f no command: $(cat "$tmp/err")"
result bad_input "$f"

f=""
mkdir "$tmp/old"
if git archive HEAD ':!results' 2>/dev/null | tar x -C "$tmp/old" 2>/dev/null && [ -f "$tmp/old/Makefile" ]; then
    OLD="$tmp/old" bash scripts/ab.sh -r 2 "step --device cpu --scheme yee --grid 16 --reps 1" \
        "step --device cpu --scheme nosuch" "sweep --device cpu --schemes yee,fv24 --grids 16 --reps 1" \
        >"$tmp/out" 2>"$tmp/err" || f="exit $?: $(cat "$tmp/out" "$tmp/err")"
    [ "$(grep -c '^old step --device cpu --scheme yee --grid 16 --reps 1: mcells_per_s=[0-9.]* $' "$tmp/out")" = 2 ] &&
        [ "$(grep -c '^new step --device cpu --scheme yee --grid 16 --reps 1: mcells_per_s=[0-9.]* $' "$tmp/out")" = 2 ] ||
        f="$f two runs a side expected: $(cat "$tmp/out")"
    grep -q "^new step --device cpu --scheme nosuch: .*unknown scheme 'nosuch'" "$tmp/out" || f="$f the error not shown"
    [ "$(sed -n 1p "$tmp/out" | cut -c1-4)$(sed -n 5p "$tmp/out" | cut -c1-4)" = "old new " ] || f="$f not alternated: $(cat "$tmp/out")"
    result both_sides_alternate "$f"
    # a sweep: one line a row it measured, two rows a run, two runs a side
    f=""
    for side in old new; do
        [ "$(grep -cE "^$side sweep --device cpu --schemes yee,fv24 --grids 16 --reps 1: \[[12]/2\] (yee|fv24) hx 16x16x16 .*MCells/s" "$tmp/out")" = 4 ] ||
            f="$f $side: four sweep rows expected"
    done
    grep -q "ETA" "$tmp/out" && f="$f ETA left in"
    result a_sweep_row_by_row "$f${f:+: $(grep sweep "$tmp/out")}"
else
    echo "skip both_sides_alternate: not a git checkout"
    skipped=$((skipped + 1))
fi
summary
