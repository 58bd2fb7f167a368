# What the step-sweep scripts (pml_steps.sh, slab_steps.sh, wave_steps.sh) share, sourced by each
# after it sets B (the fdtdbench binary) and tmp (a scratch folder it removes on exit).

# step_row LABEL FDTDBENCH-STEP-ARGS...: one verified `fdtdbench step` row, appended to $tmp/rows
# (the header once); LABEL is what it says on stderr.
step_row() {
    echo "  step $1" >&2
    shift
    "$B" step "$@" --results "$tmp/r" --csv >"$tmp/row.csv"
    [ -s "$tmp/rows" ] || head -n 1 "$tmp/row.csv" >"$tmp/rows"
    tail -n +2 "$tmp/row.csv" >>"$tmp/rows"
}

# write_rows NAME RESULTS SCRIPT: the rows as RESULTS/<machine>/steps/NAME-<date>.csv (written whole
# or not at all) and its page; the machine is the one the rows' step files were written for.
write_rows() {
    machine=$(basename "$(dirname "$(dirname "$(find "$tmp/r" -name 'step-*.csv' | head -n 1)")")")
    dir="$2/$machine/steps"
    mkdir -p "$dir"
    out="$dir/$1-$(date -u +%Y%m%d-%H%M%S).csv"
    cp "$tmp/rows" "$out.tmp" && mv "$out.tmp" "$out"
    "$B" report --page "$out" >/dev/null
    echo "$3: wrote $out and its page" >&2
}
