#!/bin/sh
# Result files are complete or absent: a full disk, several runs at once with the same name,
# and a signal mid-run each leave either whole files or nothing, never a temporary file.
. tests/shlib.sh
B=${FDTDBENCH:-build/fdtdbench}
rows() { tail -n +2 "$1" | wc -l; } # data rows of a CSV

# A full disk, simulated by a file-size limit: one error line naming the file, exit 1, and
# nothing left (the machine folder this run made is removed too). Its kernels are compiled first,
# without the limit (a compiler under it could write nothing); taken from the cache, they need no
# writing.
f=""
"$B" cache --warm --device cpu --variant plain >/dev/null 2>&1
# (stderr through a pipe: the limit would cut the file it went to as well)
rc=$( (ulimit -f 2 && "$B" sweep --schemes all --components hx,hy --grids 8 --reps 1 --results "$tmp/full" \
    2>&1 >/dev/null; echo "rc=$?") | tee "$tmp/err" | sed -n 's/^rc=//p')
[ $rc -eq 1 ] || f="$f
exit status $rc, not 1"
[ "$(grep -c '^fdtdbench: ' "$tmp/err")" -eq 1 ] && grep -q '^fdtdbench: cannot write .*/sweep-.*\.csv: File too large' "$tmp/err" ||
    f="$f
stderr: $(grep fdtdbench "$tmp/err")"
[ -z "$(find "$tmp/full" -type f 2>/dev/null)" ] || f="$f
left: $(find "$tmp/full" -type f)"
[ -z "$(find "$tmp/full" -mindepth 1 -type d 2>/dev/null)" ] || f="$f
left a folder: $(find "$tmp/full" -mindepth 1 -type d)"
result "full disk: one line, exit 1, nothing left" "$f"

# The same for bench's Markdown and for the results page: report --out into a file-size limit.
f=""
rc=$( (ulimit -f 1 && "$B" report --results tests/data/results --out "$tmp/page/README.md" 2>&1 >/dev/null;
    echo "rc=$?") | tee "$tmp/err" | sed -n 's/^rc=//p')
[ $rc -eq 1 ] && grep -q '^fdtdbench: cannot write .*README.md' "$tmp/err" && [ -z "$(ls -A "$tmp/page" 2>/dev/null)" ] ||
    f="exit $rc, stderr $(cat "$tmp/err"), left: $(ls -A "$tmp/page" 2>/dev/null)"
result "report into a full disk: nothing left" "$f"

# Four sweeps at once with one --name: every run's rows in exactly one complete file of its own.
f=""
for g in 8 9 10 11; do
    "$B" sweep --schemes yee,s44 --grids $g --reps 1 --name conc --results "$tmp/conc" 2>"$tmp/err$g" &
done
wait
n=$(find "$tmp/conc" -name 'conc-*.csv' | wc -l)
[ "$n" -eq 4 ] || f="$f
$n files, not 4: $(cat "$tmp"/err*)"
for g in 8 9 10 11; do
    c=$(grep -l ",$g,$g,$g," "$tmp"/conc/*/conc-*.csv 2>/dev/null)
    if [ "$(echo "$c" | wc -w)" -ne 1 ] || [ "$(rows "$c")" -ne 2 ] || [ "$(grep -c ",$g,$g,$g," "$c")" -ne 2 ]; then
        f="$f
grid $g: in '$c'"
    fi
done
[ -z "$(find "$tmp/conc" -name '.fdtdbench-tmp-*')" ] || f="$f
temporary files left"
result "four sweeps at once: each run in one complete file" "$f"

# A stale temporary file (its process is gone) is ignored by report and removed by the next run.
f=""
d=$(dirname "$(find "$tmp/conc" -name 'conc-*.csv' | head -n 1)")
printf 'table,scheme\nhalf' >"$d/.fdtdbench-tmp-999999999-AbCdEf"
"$B" report --results "$tmp/conc" --out "$tmp/page.md" >/dev/null 2>"$tmp/err" || f="report: $(cat "$tmp/err")"
"$B" sweep --schemes yee --grids 8 --reps 1 --results "$tmp/conc" 2>/dev/null
[ -e "$d/.fdtdbench-tmp-999999999-AbCdEf" ] && f="$f
stale temporary file not removed"
result "stale temporary file ignored, then removed" "$f"

# A signal mid-sweep removes the temporary file (and the folders the run made) and ends with the
# usual status (128 + signal).
signal_test() { # SIGNAL NUMBER
    f=""
    "$B" sweep --schemes all --components all --grids 48 --reps 5 --results "$tmp/sig$1" 2>/dev/null &
    pid=$!
    i=0
    until [ -n "$(find "$tmp/sig$1" -name '.fdtdbench-tmp-*' 2>/dev/null)" ] || [ $i -ge 300 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    [ $i -lt 300 ] || f="no temporary file appeared"
    kill -"$1" $pid
    wait $pid 2>/dev/null
    rc=$?
    [ $rc -eq $((128 + $2)) ] || f="$f
exit status $rc, not $((128 + $2))"
    [ ! -e "$tmp/sig$1" ] || f="$f
left: $(find "$tmp/sig$1")"
    result "SIG$1 mid-sweep: nothing left, status $((128 + $2))" "$f"
}
signal_test TERM 15
# (SIGINT: tests/test_outfile.c, as a background job of a script starts with SIGINT ignored)

summary
