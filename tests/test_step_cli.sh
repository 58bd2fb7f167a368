#!/bin/sh
# fdtdbench step: bad input ends with one "fdtdbench: ..." line, a non-zero exit and no file;
# a good run writes one complete CSV whose figures agree with each other.
. tests/shlib.sh
B=${FDTDBENCH:-build/fdtdbench}

# expect_error NAME PATTERN ARGS...
expect_error() {
    name=$1 pattern=$2
    shift 2
    "$B" step --results "$tmp/results" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    errors=$(grep -c '^fdtdbench: ' "$tmp/err")
    if [ $rc -eq 2 ] && [ "$errors" -eq 1 ] && grep -q -- "$pattern" "$tmp/err" &&
        [ -z "$(find "$tmp/results" -type f 2>/dev/null)" ]; then
        result "$name" ""
    else
        result "$name" "exit $rc, $errors error lines: $(head -n 3 "$tmp/err")"
    fi
}

expect_error "grid too small for the halo" "each size must be a whole number from 4" --grid 3x16x16
expect_error "steps beyond an int" "--steps: '2147483648' is not a whole number from 1 to 2147483647" --steps 2147483648
expect_error "zero steps" "--steps: '0'" --steps 0
expect_error "unknown boundary" "unknown boundary 'absorbing' (known: periodic, pec)" --boundary absorbing
expect_error "unknown variant" "no cpu variant 'warp'" --variant warp
expect_error "grid beyond memory" "needs .* GB .*more than 80%" --grid 100000
expect_error "unknown option" "unknown option" --speed 3
expect_error "missing value" "--grid needs a value" --grid
expect_error "stray argument" "unexpected argument 'yee'" yee

# One small run per boundary: one file each, header and one row; mcells_per_s is
# nx ny nz / median_ms / 1000 and the GB/s is that times the compulsory bytes.
for bc in periodic pec; do
    rm -rf "$tmp/results"
    if "$B" step --grid 12x10x8 --steps 3 --reps 3 --boundary $bc --scheme s44 --results "$tmp/results" \
        >"$tmp/out" 2>"$tmp/err" && f=$(find "$tmp/results" -name 'step-*.csv') && [ "$(wc -l <"$f")" -eq 2 ]; then
        why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
            { m = $col["nx"] * $col["ny"] * $col["nz"] / $col["median_ms"] / 1000
              g = m * $col["compulsory_bytes"] / 1000
              if ($col["verified"] != 1) print "not verified"
              if ($col["boundary"] != bc) print "boundary " $col["boundary"]
              if ($col["compulsory_bytes"] != 288) print "s44 f32 array bytes " $col["compulsory_bytes"]
              if ((m - $col["mcells_per_s"]) ^ 2 > (1e-4 * m) ^ 2) print "mcells " $col["mcells_per_s"] " != " m
              if ((g - $col["gbs_effective"]) ^ 2 > (1e-4 * g) ^ 2) print "GB/s " $col["gbs_effective"] " != " g
              # a cache-resident grid takes no bandwidth probe: nothing to compare with
              if ($col["cache_resident"] != 1 || $col["pct_bw"] != "") print "probe columns on a cache-resident grid" }' \
            bc=$bc "$f")
        [ -z "$(find "$tmp/results" -name '*.tmp')" ] || why="$why temporary file left"
        result "step $bc writes one consistent row" "$why"
    else
        result "step $bc writes one consistent row" "$(tail -n 3 "$tmp/err")"
    fi
done
# The step files sit apart (<machine>/steps/): the single-component report still reads its folder.
if find "$tmp/results" -path '*/steps/step-*.csv' | grep -q . &&
    "$B" report --results "$tmp/results" --out "$tmp/report.md" >/dev/null 2>"$tmp/err"; then
    result "step files beside a results folder the report reads" ""
else
    result "step files beside a results folder the report reads" "$(cat "$tmp/err")"
fi
# Its header is the step metric table's column list, in order (the glossary's second table).
cols=$("$B" report --columns | awk -F'`' '/^Full-step rows/ { on = 1; n = 0; next } on && /^\| `/ { printf "%s%s", n++ ? "," : "", $2 }')
if [ -n "$cols" ] && [ "$(head -n 1 "$f")" = "$cols" ]; then result "step CSV header is the step metric table" ""
else result "step CSV header is the step metric table" "$(head -n 1 "$f") != $cols"; fi
# Its page: report --page writes the step table beside the CSV (what make bench does after a step table).
if "$B" report --page "$f" >/dev/null 2>"$tmp/err" && md=${f%.csv}.md && grep -q '^## Full time step' "$md" &&
    grep -q '^| s44 |' "$md"; then result "report --page of a step CSV" ""
else result "report --page of a step CSV" "$(cat "$tmp/err")"; fi
if "$B" step --help | grep -q "usage: fdtdbench step"; then result "step --help" ""; else result "step --help" "no usage"; fi

summary
