#!/bin/sh
# fdtdbench report on the synthetic sample in tests/data: the Markdown tables hold the numbers
# of the CSV rows they came from (read back cell by cell, by column name), the newest file
# wins, columns are found by name, and bad input ends with one line and exit status 2,
# leaving no page behind. FDTDBENCH is the binary (tests/run.sh sets it).
bin=${FDTDBENCH:-build/fdtdbench}
data=tests/data/results
sel="plots/select.awk"
. tests/shlib.sh

if [ ! -x "$bin" ]; then
    echo "SKIP all: $bin not built"
    skipped=1
    summary
fi

# One cell of a README table: machine section, table heading, the row whose column KEYCOL
# holds KEY, and the column named COLUMN.
md_cell() { # README MACHINE HEADING KEYCOL KEY COLUMN
    awk -v m="## $2" -v t="### $3" -v kc="$4" -v key="$5" -v cn="$6" '
    $0 == m { inm = 1; next }
    /^## / { inm = 0 }
    inm && $0 == t { intab = 1; hdr = 0; next }
    /^### / { intab = 0 }
    intab && /^\|/ {
        n = split($0, c, "|")
        for (i = 2; i < n; i++) gsub(/^ +| +$/, "", c[i])
        if (!hdr++) { for (i = 2; i < n; i++) { if (c[i] == cn) ci = i; if (c[i] == kc) ki = i }; next }
        if (ci && ki && c[ki] == key) { print c[ci]; exit }
    }' "$1"
}

# One CSV value, by column name, of the row of TABLE whose KEYCOL is KEY.
csv_val() { # CSV TABLE KEYCOL KEY COLUMN
    awk -f "$sel" -v where="table=$2;$3=$4" -v cols="$5" "$1" | head -n 1
}

cp -r "$data" "$tmp/r"
out=$("$bin" report --results "$tmp/r" 2>&1)
rc=$?
readme="$tmp/r/README.md"
f=
[ $rc -eq 0 ] || f="exit status $rc: $out"
[ -s "$readme" ] || f="$f
no $readme"
[ ! -e "$readme.tmp" ] || f="$f
temporary file left behind"
result report_writes_page "$f"
[ -s "$readme" ] || summary

# Every table's rows have as many cells as its header.
f=$(awk '/^\|/ { n = split($0, c, "|"); if (!intab++) want = n; else if (n != want) print "line " NR ": " n - 2 " cells, header " want - 2 }
         !/^\|/ { intab = 0 }' "$readme")
result tables_well_formed "$f"

# CPU Table 5, one thread: from the newest of the two files holding it, every cell checked.
new="$data/cpu-synthetic-sample/bench-2000-01-02.csv"
old="$data/cpu-synthetic-sample/bench-2000-01-01.csv"
cpu=cpu-synthetic-sample
t5="Table 5: CPU, one thread"
f=
grep -q 'From `bench-2000-01-02.csv`.*the newest of 2 files holding this table' "$readme" || f="no source line naming bench-2000-01-02.csv as the newest"
yee=$(csv_val "$new" table5-1thread scheme yee mcells_per_s)
pyee=$(csv_val "$new" table5-1thread scheme yee paper_mcells)
for s in yee fv24 fv24wb s22 s44; do
    for pair in "MCells/s (eq. 5)|mcells_per_s|%.1f" "paper MCells/s|paper_mcells|%.0f" \
        "GB/s effective|gbs_effective|%.1f" "% of measured BW|pct_bw|%.1f" "GFLOP/s|gflops|%.1f" "threads|threads|%s"; do
        col=${pair%%|*} rest=${pair#*|}
        want=$(printf "${rest#*|}" "$(csv_val "$new" table5-1thread scheme $s "${rest%%|*}")")
        got=$(md_cell "$readme" $cpu "$t5" scheme $s "$col")
        [ "$got" = "$want" ] || f="$f
$s $col: page '$got', CSV '$want'"
    done
    mc=$(csv_val "$new" table5-1thread scheme $s mcells_per_s)
    pp=$(csv_val "$new" table5-1thread scheme $s paper_mcells)
    up=$(csv_val "$new" table5-1thread scheme $s updates_per_s)
    for pair in "Yee/scheme|$(awk -v a="$yee" -v b="$mc" 'BEGIN { printf "%.2f", a / b }')" \
        "paper Yee/scheme|$(awk -v a="$pyee" -v b="$pp" 'BEGIN { printf "%.1f", a / b }')" \
        "measured/paper|$(awk -v a="$mc" -v b="$pp" 'BEGIN { printf "%.2f", a / b }')" \
        "M updates/s|$(awk -v a="$up" 'BEGIN { printf "%.1f", a / 1e6 }')"; do
        got=$(md_cell "$readme" $cpu "$t5" scheme $s "${pair%%|*}")
        [ "$got" = "${pair#*|}" ] || f="$f
$s ${pair%%|*}: page '$got', expected '${pair#*|}'"
    done
    older=$(printf %.1f "$(csv_val "$old" table5-1thread scheme $s mcells_per_s)")
    [ "$(md_cell "$readme" $cpu "$t5" scheme $s "MCells/s (eq. 5)")" != "$older" ] || f="$f
$s shows the older file's $older"
done
result cpu_table5_matches_newest_csv "$f"

f=
grep -q '^- `sizes`: 30 rows from `bench-2000-01-01.csv`' "$readme" || f="the sizes sweep is not credited to bench-2000-01-01.csv"
grep -q '^| newest file `bench-2000-01-03.csv` |' "$readme" || f="$f
machine context not from the newest file"
result tables_name_their_files "$f"

# GPU Tables 4 and 2 and the machine context.
gpu=gpu-synthetic-sample
t4="Tables 3 and 4: GPU, each scheme at its best block"
g="$data/$gpu/bench-2000-01-03.csv"
f=
for s in yee fv24 fv24wb s22 s44; do
    for pair in "block|block|%s" "MCells/s (eq. 5)|mcells_per_s|%.1f" "paper MCells/s|paper_mcells|%.0f"; do
        col=${pair%%|*} rest=${pair#*|}
        want=$(printf "${rest#*|}" "$(csv_val "$g" table4 scheme $s "${rest%%|*}")")
        got=$(md_cell "$readme" $gpu "$t4" scheme $s "$col")
        [ "$got" = "$want" ] || f="$f
table4 $s $col: page '$got', CSV '$want'"
    done
done
for b in 4x4x4 32x8x4; do
    want=$(printf %.0f "$(csv_val "$g" table2 block $b paper_mcells)")
    got=$(md_cell "$readme" $gpu "Table 2: GPU, Yee per block shape" block $b "paper MCells/s")
    [ "$got" = "$want" ] || f="$f
table2 $b paper: page '$got', CSV '$want'"
done
grep -q '^| device | Synthetic GPU (sample data for tests) |$' "$readme" || f="$f
no device line for the GPU"
result gpu_tables_match_csv "$f"

# Columns are found by name: the same file with its columns in another order gives the same page.
mkdir -p "$tmp/shuf/$gpu"
awk -F, 'BEGIN { OFS = "," } { t = $1; $1 = $NF; $NF = t; t = $2; $2 = $19; $19 = t; print }' "$g" >"$tmp/shuf/$gpu/bench-2000-01-03.csv"
cp -r "$data/$gpu/plots" "$tmp/shuf/$gpu/" 2>/dev/null
"$bin" report --results "$tmp/shuf" >/dev/null 2>&1
f=
for s in yee s44; do
    a=$(md_cell "$readme" $gpu "$t4" scheme $s "MCells/s (eq. 5)")
    b=$(md_cell "$tmp/shuf/README.md" $gpu "$t4" scheme $s "MCells/s (eq. 5)")
    [ -n "$a" ] && [ "$a" = "$b" ] || f="$f
$s: '$a' in order, '$b' shuffled"
done
result columns_found_by_name "$f"

mkdir -p "$tmp/empty"
f=
"$bin" report --results "$tmp/empty" >/dev/null 2>&1 || f="exit status $?"
grep -q 'No results yet' "$tmp/empty/README.md" 2>/dev/null || f="$f
no 'No results yet' on the page"
result empty_results_folder "$f"

f=
"$bin" report --help >"$tmp/help" 2>&1 || f="exit status $?"
grep -q '^usage: fdtdbench report' "$tmp/help" || f="$f
no usage line"
result help "$f"

# The README's column glossary is the metric table's, as report --columns prints it.
f=
"$bin" report --columns >"$tmp/columns" 2>&1 || f="exit status $?"
awk '/^<!-- columns -->$/ { on = 1; next } /^<!-- \/columns -->$/ { exit } on' README.md >"$tmp/readme-columns"
[ "$(wc -l <"$tmp/columns")" -gt 10 ] || f="$f
report --columns printed too little: $(head -n 3 "$tmp/columns")"
diff "$tmp/readme-columns" "$tmp/columns" >"$tmp/diff" || f="$f
README.md's glossary (between <!-- columns --> and <!-- /columns -->) differs from fdtdbench report --columns; paste its output:
$(head -n 10 "$tmp/diff")"
result readme_glossary_is_the_metric_table "$f"

# The plots' extracts: the newest file's rows of each table, the page's ratios, no page written.
f=
mkdir -p "$tmp/xr"
cp -r "$data/$cpu" "$tmp/xr/"
"$bin" report --results "$tmp/xr" --extract "$tmp/x" >/dev/null 2>"$tmp/err" || f="exit status $?: $(cat "$tmp/err")"
[ ! -e "$tmp/xr/README.md" ] || f="$f
--extract wrote the page too"
x="$tmp/x/$cpu/table5-1thread.csv"
[ "$(awk -f "$sel" -v cols=source "$x" | sort -u)" = bench-2000-01-02.csv ] || f="$f
table5-1thread extract not from the newest file: $(awk -f "$sel" -v cols=source "$x" 2>&1 | sort -u)"
[ "$(awk -f "$sel" -v cols=scheme "$x" | wc -l)" -eq 5 ] || f="$f
table5-1thread extract does not hold its 5 rows"
[ -s "$tmp/x/$cpu/sizes.csv" ] || f="$f
no sizes extract (its rows are only in the older file)"
for s in fv24 s44; do
    want=$(md_cell "$readme" $cpu "$t5" scheme $s "Yee/scheme")
    got=$(printf %.2f "$(awk -f "$sel" -v where="scheme=$s" -v cols=ratio_to_ref "$x")")
    [ "$got" = "$want" ] || f="$f
$s ratio_to_ref $got, the page's Yee/scheme $want"
done
result extract_for_plots "$f"

# A newer file holding only some kernels of a table (a tune of one variant) keeps the older
# file's rows of the others: blocks rows of variants va (both files) and vb (older only).
f=
mkdir -p "$tmp/xb/$cpu"
src="$data/$cpu/bench-2000-01-02.csv"
blocks_file() { # FILE DATE VARIANT...
    out=$1 day=$2
    shift 2
    awk -F, -v OFS=, -v day="$day" -v vars="$*" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
        NR == 2 { n = split(vars, v, " "); for (k = 1; k <= n; k++) { $c["table"] = "blocks"; $c["variant"] = v[k];
                  $c["date"] = day; print } }' "$src" >"$out"
}
blocks_file "$tmp/xb/$cpu/tune-old.csv" 2000-01-04T00:00:00Z va vb
blocks_file "$tmp/xb/$cpu/tune-new.csv" 2000-01-05T00:00:00Z va
"$bin" report --results "$tmp/xb" --extract "$tmp/xbx" >/dev/null 2>"$tmp/err" || f="exit status $?: $(cat "$tmp/err")"
got=$(awk -f "$sel" -v cols=variant,source "$tmp/xbx/$cpu/blocks.csv" | sort | tr '\t\n' '  ')
[ "$got" = "va tune-new.csv vb tune-old.csv " ] || f="$f
blocks extract: '$got', expected va from the newer file and vb from the older"
result extract_keeps_older_kernels "$f"

# An older file kept gzipped (the device takes the working tree only up to 64 MiB) is read as it
# was; a .gz that does not decompress is one line and exit 2.
f=
gzip -n "$tmp/xb/$cpu/tune-old.csv"
"$bin" report --results "$tmp/xb" --extract "$tmp/xbz" >/dev/null 2>"$tmp/err" || f="exit status $?: $(cat "$tmp/err")"
got=$(awk -f "$sel" -v cols=variant,source "$tmp/xbz/$cpu/blocks.csv" | sort | tr '\t\n' '  ')
[ "$got" = "va tune-new.csv vb tune-old.csv.gz " ] || f="$f
blocks extract with the older file gzipped: '$got', expected vb from tune-old.csv.gz"
printf 'not gzip\n' >"$tmp/xb/$cpu/tune-bad.csv.gz"
"$bin" report --results "$tmp/xb" --extract "$tmp/xbz2" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'tune-bad.csv.gz: gzip -dc failed' "$tmp/err" || f="$f
a broken .gz: exit $rc, '$(head -c 300 "$tmp/err")'"
result extract_reads_gzipped_files "$f"

# Bad input: exit status 2, one line "fdtdbench: ..." naming the problem, the old page untouched.
bad() { # NAME EXPECTED_TEXT ARGS...
    name=$1 text=$2
    shift 2
    echo "old page" >"$tmp/b/README.md"
    "$bin" report "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    f=
    [ $rc -eq 2 ] || f="exit status $rc, expected 2"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "^fdtdbench: .*$text" "$tmp/err" || f="$f
stderr is not one line 'fdtdbench: ...$text...': $(cat "$tmp/err")"
    [ "$(cat "$tmp/b/README.md")" = "old page" ] || f="$f
the old page was replaced"
    [ -z "$(find "$tmp/b" -name '*.tmp')" ] || f="$f
a temporary file was left"
    result "$name" "$f"
}
mkb() { # a results folder with one sample file transformed by an awk program
    rm -rf "$tmp/b"
    mkdir -p "$tmp/b/m"
    awk -F, "$1" "$data/$gpu/bench-2000-01-03.csv" >"$tmp/b/m/x.csv"
}
mkb '{ print }'
bad bad_missing_folder "cannot open '$tmp/nonexistent'" --results "$tmp/nonexistent"
bad bad_unknown_option "unknown option '--frobnicate'" --results "$tmp/b" --frobnicate
bad bad_option_without_value "needs a value" --results
mkb 'BEGIN { OFS = "," } NR == 1 { $19 = "mcells" } { print }'
bad bad_missing_column "no column 'mcells_per_s'" --results "$tmp/b"
mkb 'NR == 3 { sub(/,[^,]*$/, "") } { print }'
bad bad_short_row "x.csv:3: 39 fields where the header has 40" --results "$tmp/b"
mkb 'BEGIN { OFS = "," } NR == 4 { $19 = "fast" } { print }'
bad bad_number "x.csv:4: column mcells_per_s: 'fast' is not a number" --results "$tmp/b"

# The peers tables (steps/peers-*.csv): each peer's time per step over the suite's fastest step
# of the same coefficient storage and grid, per device; and the page of one peers file.
peers_ratio() { # README MACHINE CODE GRID: the peer ÷ suite cells of that code at that grid
    awk -v m="## $2" -v code="$3" -v grid="$4" '
    $0 == m { inm = 1; next }
    /^## / { inm = 0 }
    inm && /^### Full step beside other FDTD codes/ { intab = 1; next }
    /^### / { intab = 0 }
    intab && /^\|/ { n = split($0, c, "|"); for (i = 2; i < n; i++) gsub(/^ +| +$/, "", c[i])
        if (c[2] == code && c[8] == grid) print c[n - 1] }' "$1"
}
f=
# CPU: openEMS 3 ms over fused indexed 2 ms; Meep (f64: no suite row of its precision) 10 ms
# over fused uniform 2.5; gprMax 6 over 2. GPU: gprMax 0.08 over fused25d indexed 0.016,
# fdtdx (array) 0.06 over fused array 0.03, at each grid.
for want in "$cpu openEMS 100×100×100 1.50" "$cpu Meep 100×100×100 4.00" "$cpu gprMax 100×100×100 3.00" \
    "$gpu gprMax 64×64×64 5.00" "$gpu gprMax 128×128×128 5.00" "$gpu fdtdx 128×128×128 2.00"; do
    set -- $want
    got=$(peers_ratio "$readme" "$1" "$2" "$3")
    [ "$got" = "$4" ] || f="$f
$1 $2 $3: peer ÷ suite '$got', expected $4"
done
[ "$(peers_ratio "$readme" "$cpu" fdtdbench 100×100×100 | sort -u)" = "" ] || f="$f
a suite row has a ratio"
rm -f "$tmp/r/$cpu/steps/"*.md
"$bin" report --page "$tmp/r/$cpu/steps/peers-2000-01-04.csv" >/dev/null 2>"$tmp/err" || f="$f
report --page of a peers file: $(cat "$tmp/err")"
grep -q '^## Full step beside other FDTD codes (peers), CPU' "$tmp/r/$cpu/steps/peers-2000-01-04.md" 2>/dev/null ||
    f="$f
no peers table on the peers file's page"
result peers_table_ratio "$f"

# The scaling tables (steps/scaling-*.csv, made-up rows): efficiency = MCells/s over N times the
# one-GPU row's, worked out here from the CSV's times: weak T1 / TN (512^3 per GPU), strong
# T1 / (N TN); the goal met or missed at 8 GPUs; the same efficiency in the plots' extract.
scaling_row() { # README_OR_PAGE KIND SCHEME GPUS: its efficiency and goal cells
    awk -v kind="# $2 scaling" -v s="$3" -v g="$4" '
    index($0, kind) { intab = 1; next }
    /^#/ { intab = 0 }
    intab && /^\|/ { n = split($0, c, "|"); for (i = 2; i < n; i++) gsub(/^ +| +$/, "", c[i])
        if (c[2] == s && c[5] == g) print c[9] (c[11] == "" ? "" : " " c[11]) }' "$1"
}
sc="$tmp/r/$gpu/steps/scaling-2000-01-06.csv"
ms() { # KIND SCHEME GPUS: ms per step in the CSV (one GPU: slabs empty, undivided)
    awk -f "$sel" -v where="table=$1;scheme=$2;slabs=$([ "$3" = 1 ] || echo "$3")" -v cols=median_ms "$sc"
}
f=
for want in "Weak yee 8 $(ms weak yee 1) $(ms weak yee 8) 1 met" "Weak fv24 8 $(ms weak fv24 1) $(ms weak fv24 8) 1 missed" \
    "Strong yee 8 $(ms strong yee 1) $(ms strong yee 8) 8 met" "Strong fv24 4 $(ms strong fv24 1) $(ms strong fv24 4) 4 " \
    "Strong fv24 8 $(ms strong fv24 1) $(ms strong fv24 8) 8 missed"; do
    set -- $want
    eff=$(awk -v t1="$4" -v tn="$5" -v n="$6" 'BEGIN { printf "%.1f%%", 100 * t1 / (n * tn) }')
    got=$(scaling_row "$readme" "$1" "$2" "$3")
    [ "$got" = "$(echo "$eff $7" | sed 's/ $//')" ] || f="$f
results page, $1 $2 on $3 GPUs: '$got', expected '$eff $7'"
done
"$bin" report --page "$sc" >/dev/null 2>"$tmp/err" || f="$f
report --page of a scaling file: $(cat "$tmp/err")"
[ "$(scaling_row "${sc%.csv}.md" Strong yee 8)" = "$(scaling_row "$readme" Strong yee 8)" ] || f="$f
the scaling file's page differs from the results page: $(scaling_row "${sc%.csv}.md" Strong yee 8)"
"$bin" report --results "$tmp/r" --extract "$tmp/x" >/dev/null 2>"$tmp/err" || f="$f
report --extract: $(cat "$tmp/err")"
x=$(awk -f "$sel" -v where="table=strong;scheme=yee;slabs=8" -v cols=efficiency,goal "$tmp/x/$gpu/scaling.csv" 2>&1 |
    awk -F '\t' '{ printf "%.1f%% %g", 100 * $1, $2 }')
[ "$x" = "$(scaling_row "$readme" Strong yee 8 | sed 's/ met$/ 85/')" ] || f="$f
the extract's efficiency and goal '$x' differ from the page's"
result scaling_efficiency "$f"

# Weak and strong measured apart (bench --tables strong a day later): each table from the newest
# file holding it, on the page and in the plots' extract.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next }
    $c["table"] == "strong" { if ($c["slabs"] == 8) { $c["median_ms"] *= 2; $c["mcells_per_s"] /= 2 } $c["date"] = "2000-01-07T00:00:00Z"; print }' \
    OFS=, "$sc" >"$tmp/r/$gpu/steps/scaling-2000-01-07.csv"
f=
"$bin" report --results "$tmp/r" >/dev/null 2>"$tmp/err" || f="report with a strong-only file: $(cat "$tmp/err")"
[ -n "$(scaling_row "$readme" Weak fv24 8)" ] || f="$f
the weak table is gone once a newer file holds strong rows only"
strong=$(scaling_row "$readme" Strong yee 8)
want=$(awk -v t1="$(ms strong yee 1)" -v tn="$(ms strong yee 8)" 'BEGIN { printf "%.1f%%", 100 * t1 / (8 * 2 * tn) }')
[ "${strong% *}" = "$want" ] || f="$f
strong yee on 8 GPUs: '$strong', expected the newer file's $want"
grep -q 'the strong table from `scaling-2000-01-07.csv`' "$readme" || f="$f
the page does not name the strong table's file"
"$bin" report --results "$tmp/r" --extract "$tmp/x2" >/dev/null 2>"$tmp/err" || f="$f
report --extract: $(cat "$tmp/err")"
[ "$(awk -f "$sel" -v where="table=weak" -v cols=source "$tmp/x2/$gpu/scaling.csv" | sort -u)" = scaling-2000-01-06.csv ] &&
    [ "$(awk -f "$sel" -v where="table=strong" -v cols=source "$tmp/x2/$gpu/scaling.csv" | sort -u)" = scaling-2000-01-07.csv ] ||
    f="$f
the extract's rows do not come from each table's newest file"
result scaling_tables_apart "$f"

summary
