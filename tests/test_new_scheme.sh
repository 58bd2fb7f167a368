#!/bin/sh
# A scheme is one file: a copy of fv24.stencil under a new name (zz6), added to the build's
# spec list in a scratch build folder, goes through the whole chain with no other change:
# counts, every CPU kernel against the reference, dispersion, run, sweep and a report row with
# its ratio to the reference scheme. The repository's own build is not touched.
. tests/shlib.sh
# Under the sanitizers (SAN, from make test) the chain's code is the same as in the plain run, which
# checks it; building it a second time there took nine minutes of CI.
if [ -n "${SAN:-}" ]; then
    echo "SKIP a new scheme: checked in the build without sanitizers (SAN=$SAN)"
    skipped=1
    summary
fi

spec="$tmp/zz6.stencil"
sed 's/^scheme  *fv24$/scheme  zz6/; s/^title  *FV24$/title   ZZ6/' stencils/fv24.stencil >"$spec"
f=
grep -q '^scheme  zz6$' "$spec" && grep -q '^title   ZZ6$' "$spec" || f="could not rename fv24.stencil's scheme: $(head -n 6 "$spec")"
result copy_spec "$f"

# Without CUDA and at -O0: the chain is the same on every backend and at every optimisation, and
# this keeps it quick (the build compiles no kernel; zz6's CPU kernels are compiled at run time, by
# the sweeps below, with the scratch build's -O0). MAKEFLAGS is cleared so that the outer make's
# variables (BUILD, SPECS) do not leak in.
b="$tmp/build"
if ! MAKEFLAGS= MFLAGS= make -s -j2 BUILD="$b" CUDA= CFLAGS=-O0 SPECS="$(echo stencils/*.stencil) $spec" \
    "$b/fdtdbench" "$b/tests/test_spec" >"$tmp/make.log" 2>&1; then
    result scratch_build "$(tail -n 20 "$tmp/make.log")"
    summary
fi
result scratch_build ""
B="$b/fdtdbench"

# Counts: the copy costs what fv24 costs, for every component.
f=
"$B" list --csv >"$tmp/list"
for c in hx hy hz ex ey ez; do
    want=$(grep "^fv24,$c," "$tmp/list" | sed 's/^fv24,/zz6,/')
    [ -n "$want" ] && grep -qx "$want" "$tmp/list" || f="$f
$c: no row '$want' in: $(grep "^zz6,$c," "$tmp/list")"
done
[ "$("$B" list --reference)" = yee ] || f="$f
the reference is '$("$B" list --reference)', not yee (its spec's 'reference' line)"
"$B" run --help | grep -q 'zz6' || f="$f
run --help does not list zz6"
result counts_and_help "$f"

# The spec tests, over the six schemes built in.
out=$("$b/tests/test_spec" 2>&1)
f=
echo "$out" | grep -qE ' [1-9][0-9]* passed, 0 failed' || f="$out"
result scratch_test_spec "$f"

# zz6's CPU kernels, every component, precision and storage, against the reference: sweep
# verifies each before timing it, and skips (exit status 1) any that does not match.
f=
for p in f32 f64; do
    for c in array uniform; do
        "$B" sweep --schemes zz6 --components all --precision $p --coef $c --grids 9x7x5 --reps 1 \
            --results "$tmp/k" >"$tmp/k.log" 2>&1 || f="$f
$p $c: $(grep -v '^probing\|^  STREAM' "$tmp/k.log" | head -n 8)"
    done
done
n=$(cat "$tmp"/k/*/*.csv | grep -c '^sweep,zz6,')
[ "$n" -eq 24 ] || f="$f
$n verified rows, expected 6 components x 2 precisions x 2 storages = 24"
result kernels_match_reference "$f"

# Dispersion: the same weights and errors as fv24's, under the new name.
f=
for args in "--ppw 10 --csv" "--ppw 20 --direction body --csv"; do
    a=$("$B" dispersion --scheme fv24 $args 2>&1 | sed 's/^fv24,/zz6,/')
    z=$("$B" dispersion --scheme zz6 $args 2>&1)
    [ -n "$z" ] && [ "$a" = "$z" ] || f="$f
$args: fv24 gives '$a', zz6 '$z'"
done
result dispersion "$f"

# A run, and a sweep whose rows make a table on the report page, ratio to Yee included.
f=
"$B" run --scheme zz6 --grid 9x7x5 --reps 1 >"$tmp/run" 2>&1 && grep -q '^zz6 hx cpu .*: verified$' "$tmp/run" ||
    f="run: $(cat "$tmp/run")"
"$B" sweep --schemes yee,zz6 --coef uniform --grids 9x7x5 --reps 1 --name uniform --results "$tmp/r" >"$tmp/sweep" 2>&1 ||
    f="$f
sweep: $(cat "$tmp/sweep")"
"$B" report --results "$tmp/r" >"$tmp/report" 2>&1 || f="$f
report: $(cat "$tmp/report")"
# The zz6 row's Yee/scheme cell: Yee's MCells/s over zz6's, from the sweep's CSV.
csv=$(find "$tmp/r" -name 'uniform-*.csv' | head -n 1)
mc() { awk -f plots/select.awk -v where="scheme=$1" -v cols=mcells_per_s "$csv"; }
want=$(awk -v a="$(mc yee)" -v b="$(mc zz6)" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", a / b }')
got=$(awk -F '|' '
    /^\| scheme \|/ { for (i = 2; i < NF; i++) { c = $i; gsub(/^ +| +$/, "", c); if (c == "Yee/scheme") r = i } }
    /^\| zz6 \|/ && r { c = $r; gsub(/^ +| +$/, "", c); print c; exit }' "$tmp/r/README.md")
[ -n "$want" ] && [ "$got" = "$want" ] || f="$f
zz6 Yee/scheme on the page '$got', from the CSV '$want': $(grep '^| zz6 |' "$tmp/r/README.md")"
result report_row "$f"

summary
