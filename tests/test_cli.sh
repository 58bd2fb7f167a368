#!/bin/sh
# Bad input to fdtdbench: each case must end with exactly one "fdtdbench: ..." line naming the
# problem, a non-zero exit, and no file left behind. Also: help texts and the list command.
B=${FDTDBENCH:-build/fdtdbench}
passed=0 failed=0 skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); echo "ok   $1"; }
bad() { failed=$((failed + 1)); echo "FAIL $1"; }

# expect_error NAME PATTERN ARGS...: fails unless the command exits non-zero with one error line
# matching PATTERN and writes nothing under the results folder it was given.
expect_error() {
    name=$1 pattern=$2
    shift 2
    "$B" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    errors=$(grep -c '^fdtdbench: ' "$tmp/err")
    if [ $rc -ne 0 ] && [ "$errors" -eq 1 ] && grep -q -- "$pattern" "$tmp/err" &&
        [ -z "$(find "$tmp/results" -type f 2>/dev/null)" ]; then
        ok "$name"
    else
        bad "$name: exit $rc, $errors error lines, stderr: $(cat "$tmp/err" | head -n 3)"
    fi
}

# The schemes built in, as list names them: "yee, fv24, ..." (no test names them by hand).
schemes=$("$B" list --csv --component hx | awk -F, 'NR > 1 { printf "%s%s", n++ ? ", " : "", $1 }')
expect_error "unknown command" "unknown command 'frobnicate'" frobnicate
expect_error "unknown scheme" "unknown scheme 'nonesuch' (known: $schemes)" run --scheme nonesuch
expect_error "unknown component" "unknown component 'hw'" run --component hw
expect_error "unknown precision" "unknown precision 'f16' (known: f32, f64)" run --precision f16
expect_error "unknown storage" "unknown coef 'sparse'" run --coef sparse
expect_error "unknown device" "unknown device 'tpu'" run --device tpu
expect_error "grid smaller than the halo" "from 4 to" run --grid 3x40x40
expect_error "zero grid size" "each size must be a whole number" run --grid 0
expect_error "negative grid size" "each size must be a whole number" run --grid 40x-5x40
expect_error "malformed grid" "is not AxBxC" run --grid 40x40
expect_error "grid over memory" "needs .* GB, more than 80%" run --grid 100000
expect_error "zero threads" "--threads: '0' is not a whole number" run --threads 0
expect_error "too many threads" "--threads: '100000'" run --threads 100000
expect_error "bad tile" "--tile: '0x4' is not JxK" run --tile 0x4
expect_error "malformed tile" "is not JxK" run --tile 4x4x4
expect_error "zero reps" "--reps: '0'" run --reps 0
expect_error "missing value" "--grid needs a value" run --grid
expect_error "unknown option" "unknown option '--speed'" run --speed 11
# Rows per thread: tiled GPU variants only, within the launch limits.
expect_error "rows on a one-row variant" "variant plain updates one row of nodes per thread: rows must be 1 (tiled variants take more)" run --rows 2
expect_error "step rows on a one-row variant" "step: variant plain updates one row of nodes per thread" step --rows 2 --grid 8 --results "$tmp/results"
expect_error "rows out of range" "--rows: '17' is not a whole number from 1 to 16" run --rows 17
expect_error "stages on a variant without a pipeline" "variant plain has no pipeline: stages must be 0 (tiled variants take a depth)" run --stages 2
expect_error "stages out of range" "--stages: '9' is not a whole number from 1 to 8" run --stages 9
expect_error "sweep bad grid in list" "each size must be" sweep --grids 64,2 --results "$tmp/results"
expect_error "sweep grid over memory" "needs .* GB, more than 80%" sweep --grids 100000 --schemes yee --results "$tmp/results"
expect_error "list bad option" "unknown option" list --fancy
expect_error "empty item in a list" "--schemes: 'yee,,fv24' has an empty item" sweep --schemes yee,,fv24 --results "$tmp/results"
expect_error "trailing comma in a list" "--scheme: 'yee,' has an empty item" tune --scheme yee,
expect_error "bench unknown table" "--tables: 'nope' names no table (known: table2, " bench --device cpu --tables table5,nope --results "$tmp/results"
expect_error "bench empty table name" "--tables: '' names no table" bench --device cpu --tables table5, --results "$tmp/results"
S="--results tests/data/step-results --machine cpu-synthetic-step"
expect_error "cost budget 0" "--phase-error: '0' is not a number of degrees above 0 and below 180" cost --size 10 --phase-error 0 $S
expect_error "cost budget 180" "--phase-error: '180'" cost --size 10 --phase-error 180 $S
expect_error "cost budget in a list" "--phase-error: '-1'" cost --size 10 --phase-error 5,-1 $S
expect_error "cost empty budget in a list" "--phase-error: '5,,10' has an empty item" cost --size 10 --phase-error 5,,10 $S
expect_error "cost size 0" "--size: '0' is not L or LXxLYxLZ" cost --size 0 $S
expect_error "cost size malformed" "--size: '10x10'" cost --size 10x10 $S
expect_error "cost no size" "give --size" cost $S
expect_error "cost distance 0" "--distance: '0' is not a number of wavelengths above 0" cost --size 10 --distance 0 $S
expect_error "cost unreachable" "yee: no resolution up to 1000 cells per wavelength .* cannot reach that accuracy" cost --size 100 --phase-error 0.001 $S
expect_error "cost no throughput" "no full-step throughput for yee on the cpu (f32, uniform) .* give --measure" cost --size 10 --coef uniform $S
expect_error "cost no layer throughput" "no full-step throughput for yee on the cpu (f32, array, a 10-cell layer) .* step --pml" cost --size 10 --pml 10 $S
expect_error "cost --run with a layer" "--run steps a periodic eigenmode: not with --pml" cost --size 2 --run --pml 4 $S
expect_error "cost negative layer" "--pml: '-1' is not a whole number from 0" cost --size 2 --pml -1 $S
expect_error "cost --run with budgets" "--run takes one --phase-error budget, not 2" cost --size 2 --run --phase-error 5,10 $S
expect_error "cost --run over memory" "--run: grid 2128000x.* a yee step needs" cost --size 10000 --phase-error 170 --run $S
expect_error "cost --run no wave" "--run: yee: the 24x24x24 grid holds no wave of at least N = 47.2" cost --size 0.5 --distance 50 --run $S
expect_error "cost --run under the halo" "--run: fv24's grid 3x3x3 is under the step engine's" cost --size 1 --phase-error 60 --run $S
# Strict values (issue 13): no trailing, leading or empty parts, no sign or blank, no wrap-around.
for g in 300x300x300x x40x40x40 40xx40x40 40x +40 " 40" 4294967297; do
    expect_error "grid '$g' refused" "--grid: '$g' is not AxBxC" run --grid "$g"
done
expect_error "tile past int range" "--tile: '4294967297x1' is not JxK" run --tile 4294967297x1 --grid 40x1000x40
expect_error "tile beyond the grid" "y extent 2000 is more than the grid's 1000" run --tile 2000x1 --grid 40x1000x40
expect_error "name with a slash" "--name: '../../x' is not a plain file-name stem" sweep --name ../../x --results "$tmp/results"
expect_error "empty name" "--name: '' is not a plain" sweep --name "" --results "$tmp/results"
long=$(printf '%5000s' | tr ' ' d)
expect_error "results path too long" "--results: the path" sweep --results "$tmp/$long"
expect_error "direction out of range" "--direction (polar angle THETA): '720'" dispersion --scheme yee --ppw 10 --direction 720,-45
expect_error "direction overflow" "--direction (polar angle THETA): '1e308'" dispersion --scheme yee --ppw 10 --direction 1e308,0
expect_error "design Courant out of range" "--design-courant: '10' is not a number" dispersion --scheme fv24 --ppw 10 --design-courant 10
expect_error "design Courant unstable" "not below the stability limit" dispersion --scheme fv24 --ppw 10 --design-courant 0.9
# Tables on standard output count as results: a full disk there is a failure too.
if [ -w /dev/full ]; then
    "$B" list >/dev/full 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 1 ] && grep -q "^fdtdbench: cannot write the standard output" "$tmp/err"; then ok "stdout on a full disk: exit 1"
    else bad "stdout on a full disk: exit $rc, $(cat "$tmp/err")"; fi
fi
# The fit check sees what the process may use (here an address-space limit), not only the RAM.
if ! ( ulimit -v 1500000 && "$B" list ) >/dev/null 2>&1; then
    skipped=$((skipped + 1))
    echo "SKIP ulimit -v seen by the fit check: this binary cannot start under ulimit -v (sanitizer shadow memory?)"
else
    ( ulimit -v 1500000 && "$B" run --grid 530 ) >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "needs .* GB, more than 80% of the 1.5 GB the cpu may use" "$tmp/err"; then
        ok "ulimit -v seen by the fit check"
    else bad "ulimit -v seen by the fit check: exit $rc, $(cat "$tmp/err")"; fi
fi
# Bad input ends before the bandwidth probe (which would print "probing") and leaves no folder.
for args in "run --variant nosuch" "run --nodes 2" "run --rows 2" "sweep --variant nosuch --results $tmp/results" "sweep --tiles 500x1 --grids 40"; do
    "$B" $args >/dev/null 2>"$tmp/err"
    rc=$?
    if [ $rc -eq 2 ] && ! grep -q probing "$tmp/err" && [ ! -e "$tmp/results" ]; then ok "$args: before the probe, exit 2"
    else bad "$args: exit $rc, $(cat "$tmp/err")"; fi
done
for cmd in list run sweep bench probe dispersion cost tune report compare; do
    if "$B" $cmd --help 2>&1 | grep -q "usage: fdtdbench $cmd"; then ok "$cmd --help"; else bad "$cmd --help"; fi
done
# tune --path names the tuned file that run, sweep and bench read, for scripts; --threads only on a CPU.
p1=$("$B" tune --device cpu --threads 1 --path 2>&1)
case $p1 in results/tuned/cpu-*-1t.conf) ok "tune --path: $p1" ;; *) bad "tune --path: '$p1'" ;; esac
expect_error "tune --threads on the GPU" "--threads is a CPU option" tune --threads 1 --path
# tune --step on the CPU compiles only the steps it tunes: with each of Yee's in the tuned file, none.
mkdir -p "$tmp/all-tuned/results/tuned"
for c in array uniform indexed; do
    for v in fused wave; do echo "yee hx f32 $c step:$v 0x0x1 1 0 0 0 1.0 1.0 300x300x300"; done
done >"$tmp/all-tuned/$("$B" tune --device cpu --path)"
babs=$(cd "$(dirname "$B")" && pwd)/$(basename "$B")
(cd "$tmp/all-tuned" && FDTDBENCH_CACHE="$tmp/all-tuned/cache" "$babs" tune --device cpu --step --scheme yee) >"$tmp/out" 2>&1
if grep -q "0 CPU steps tuned" "$tmp/out" && [ -z "$(find "$tmp/all-tuned/cache" -name '*.so' 2>/dev/null)" ]; then
    ok "tune --device cpu --step with every step tuned compiles nothing"
else bad "tune --device cpu --step with every step tuned: $(tail -n 3 "$tmp/out"), $(find "$tmp/all-tuned/cache" -name '*.so' | wc -l) kernels"; fi
# Help texts list the schemes that are built in.
for cmd in run sweep dispersion; do
    if [ -n "$schemes" ] && "$B" $cmd --help 2>&1 | grep -qF "$schemes"; then ok "$cmd --help lists the schemes"
    else bad "$cmd --help lists the schemes: '$schemes' not in it"; fi
done
# The paper's five schemes are in the default build (Table 1 below checks their counts).
for s in yee fv24 fv24wb s22 s44; do
    case ", $schemes, " in *", $s, "*) ;; *) bad "scheme $s not built in: $schemes" ;; esac
done
# A run's CSV header is the metric table's column list, in order (the glossary's first table).
"$B" report --columns | awk -F'`' 'NR > 2 && /^$/ { exit } NR > 2 { printf "%s%s", n++ ? "," : "", $2 }' >"$tmp/cols"
if [ -s "$tmp/cols" ] && [ "$("$B" run --grid 8 --reps 1 --csv 2>/dev/null | head -n 1)" = "$(cat "$tmp/cols")" ]; then
    ok "CSV header is the metric table"
else
    bad "CSV header is the metric table: $(cat "$tmp/cols")"
fi
# The GPU path on a machine without one says why, in one line.
if "$B" probe --device gpu >/dev/null 2>"$tmp/err"; then
    skipped=$((skipped + 1))
    echo "SKIP gpu refused without a GPU: this machine has a usable GPU"
    # A block given without nodes: a marching variant keeps its declared nodes per thread.
    nodes=$("$B" run --device gpu --variant tile25d --block 32x4x1 --grid 40 --reps 1 --csv 2>"$tmp/err" |
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "nodes") c = i } NR == 2 { print $c }')
    if [ "${nodes:-0}" -gt 1 ]; then ok "--block alone keeps a marching variant's nodes ($nodes)"
    else bad "--block alone keeps a marching variant's nodes: '$nodes' $(head -n 2 "$tmp/err")"; fi
elif grep -q "^fdtdbench: the gpu is not usable: " "$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
    ok "gpu refused without a GPU"
    # cost names the GPUs whose committed rows --machine could answer from
    mkdir -p "$tmp/gpurows/gpu-b/steps" "$tmp/gpurows/gpu-a/steps" "$tmp/gpurows/cpu-c/steps" "$tmp/gpurows/gpu-nosteps"
    expect_error "cost on a missing GPU names --machine" \
        "--machine NAME answers from the committed rows of $tmp/gpurows/NAME (gpu-a, gpu-b)\$" \
        cost --size 5 --device gpu --results "$tmp/gpurows"
else
    bad "gpu refused without a GPU: $(cat "$tmp/err")"
fi
# cost answers from committed full-step rows: one row per scheme and weighting, Yee's ratio 1; and
# a row of the temporally blocked step where the results have one (Yee, FV24), against Yee's.
if "$B" cost --size 2 --csv $S >"$tmp/cost.csv" 2>"$tmp/err" && [ "$(wc -l <"$tmp/cost.csv")" -eq 12 ] &&
    grep -q '^10,.*,yee,spec,0.5,12.5,.*,fused,1,1e+08,.*,1,1,,,,,,,,,,step table of [^,]*$' "$tmp/cost.csv" &&
    grep -q '^10,.*,yee,spec,0.5,12.5,.*,wave,4,9e+08,.*,1,1,,,,,,,,,,step table of [^,]*$' "$tmp/cost.csv" &&
    [ "$(grep -c ',fv24,.*,wave,2,3e+08,' "$tmp/cost.csv")" -eq 2 ]; then
    ok "cost from step rows"
else
    bad "cost from step rows: $(head -n 3 "$tmp/cost.csv" "$tmp/err")"
fi
# cost --pml: the layer around each scheme's domain, measured with it: Yee's 25-cell domain (12.5 cells
# per wavelength, 2 wavelengths) steps 33 cells a side with 4 cells on each face.
if "$B" cost --size 2 --pml 4 --measure --scheme fv24 --csv >"$tmp/layer.csv" 2>"$tmp/err" &&
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["scheme"] == "yee" { ok = $col["nx"] == 33 && $col["pml"] == 4 && $col["cells"] == 33 * 33 * 33 }
        END { exit !ok }' "$tmp/layer.csv" && grep -q "with the layer" "$tmp/layer.csv"; then
    ok "cost --pml"
else
    bad "cost --pml: $(head -n 3 "$tmp/layer.csv" "$tmp/err")"
fi

# cost --measure: every one-step variant of the device measured (components and fused on a CPU),
# and each scheme's row takes the fastest of them.
if "$B" cost --size 2 --measure --scheme fv24 --csv >"$tmp/measure.csv" 2>"$tmp/err" &&
    awk '/^cost: measuring [a-z0-9]+ [a-z0-9]+ .* Mcells\/s$/ && $4 != "wave" {
            r = $(NF - 1) * 1e6; n[$3]++; if (r > best[$3]) { best[$3] = r; won[$3] = $4 } }
        END { for (s in n) { if (n[s] < 2) exit 1; print s "," won[s] "," best[s] } }' \
        "$tmp/err" >"$tmp/fastest" &&
    awk -F, 'NR == FNR { want[$1] = $2 "," $3; next } FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["step_variant"] != "wave" { split(want[$col["scheme"]], w, ",")
            if ($col["step_variant"] != w[1] || $col["cells_per_s"] / w[2] > 1.0001 || w[2] / $col["cells_per_s"] > 1.0001) bad = 1; rows++ }
        END { exit bad || rows != 3 }' "$tmp/fastest" "$tmp/measure.csv"; then
    ok "cost --measure keeps the fastest variant"
else
    bad "cost --measure keeps the fastest variant: $(cat "$tmp/err" "$tmp/fastest"; head -n 3 "$tmp/measure.csv")"
fi

# cost --run: the run columns, every run's phase error within the budget and its prediction
# (run_phase_ok: cost_phase_agrees, the simulation check's rule); --save writes run-*.csv, and
# a run refused after the file was opened leaves none.
col() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) at = i; next } { print $at }' "$2"; }
if "$B" cost --size 2 --run --csv $S >"$tmp/run.csv" 2>"$tmp/err" && [ "$(wc -l <"$tmp/run.csv")" -eq 9 ] &&
    head -n 1 "$tmp/run.csv" | grep -q ',time_s,.*,run_variant,run_mode,run_mode_ppw,run_phase_predicted_deg,run_phase_deg,run_phase_ok,run_s,run_vs_predicted,run_time_ok,throughput_source$' &&
    [ "$(col run_phase_ok "$tmp/run.csv" | sort -u)" = 1 ] && [ -z "$(col run_s "$tmp/run.csv" | grep -v '^[0-9.e-]*[0-9]$')" ]; then
    ok "cost --run"
else
    bad "cost --run: $(head -n 3 "$tmp/run.csv" "$tmp/err")"
fi
# and its measurements' samples are sized by time (at least STEP_SAMPLE_SECONDS by the warm-up's
# step), not a tenth of the run's steps alone: every run here is under 100 steps, whose tenth is
# the floor of 10 steps, about a millisecond on these grids. (Not the samples' time: with two
# tests at once a warm-up of 10 steps on an 8^3 grid read over 5x slower a step than its samples.)
if awk '/^cost: measuring / { n++; if ($(NF - 4) != "steps," || $(NF - 5) <= 10) bad = 1 } END { exit bad || n < 8 }' \
    "$tmp/err" && [ "$(col steps "$tmp/run.csv" | sort -n | tail -n 1)" -lt 100 ]; then
    ok "cost --run's samples sized by time"
else
    bad "cost --run's samples sized by time: $(grep '^cost: measuring' "$tmp/err" | head -n 5)"
fi
mkdir -p "$tmp/r" && cp -r tests/data/step-results/cpu-synthetic-step "$tmp/r/"
R="--results $tmp/r --machine cpu-synthetic-step"
if "$B" cost --size 2 --scheme fv24 --run --save $R 2>"$tmp/err" && f=$(ls "$tmp"/r/cpu-synthetic-step/cost/run-*.csv) &&
    [ "$(col run_phase_ok "$f" | sort -u)" = 1 ]; then
    ok "cost --run --save"
else
    bad "cost --run --save: $(cat "$tmp/err")"
fi
rm -rf "$tmp/r/cpu-synthetic-step/cost"
if ! "$B" cost --size 10000 --phase-error 170 --run --save $R 2>"$tmp/err" && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
    [ ! -e "$tmp/r/cpu-synthetic-step/cost" ]; then
    ok "cost --run refused: no partial file"
else
    bad "cost --run refused: no partial file: $(cat "$tmp/err"; find "$tmp/r/cpu-synthetic-step/cost")"
fi
# Table 1 through the CLI, for hx.
"$B" list --csv --component hx >"$tmp/list"
if grep -qx "yee,hx,6,7,1,5,32,24" "$tmp/list" && grep -qx "fv24,hx,45,46,1,8,188,36" "$tmp/list" &&
    grep -qx "fv24wb,hx,28,29,1,7,120,32" "$tmp/list" && grep -qx "s22,hx,45,46,1,8,188,36" "$tmp/list" &&
    grep -qx "s44,hx,17,18,1,12,76,52" "$tmp/list"; then
    ok "list --csv equals Table 1"
else
    bad "list --csv equals Table 1: $(cat "$tmp/list")"
fi
# A tiny sweep writes one complete CSV (header + rows), named by machine, and no temporary file.
if "$B" sweep --schemes yee,s44 --grids 8x6x5 --reps 1 --results "$tmp/results" 2>"$tmp/err" &&
    f=$(find "$tmp/results" -name 'sweep-*.csv') && [ "$(wc -l <"$f")" -eq 3 ] &&
    head -n 1 "$f" | grep -q '^table,scheme,component' && [ -z "$(find "$tmp/results" -name '*.tmp')" ]; then
    ok "sweep writes a complete CSV"
else
    bad "sweep writes a complete CSV: $(tail -n 3 "$tmp/err")"
fi
# A second sweep never replaces the first.
"$B" sweep --schemes yee --grids 8 --reps 1 --results "$tmp/results" 2>/dev/null
"$B" sweep --schemes yee --grids 8 --reps 1 --results "$tmp/results" 2>/dev/null
n=$(find "$tmp/results" -name 'sweep-*.csv' | wc -l)
if [ "$n" -eq 3 ]; then ok "sweeps never overwrite"; else bad "sweeps never overwrite: $n files"; fi

echo "test_cli.sh: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
