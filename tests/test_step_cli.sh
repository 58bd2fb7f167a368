#!/bin/sh
# fdtdbench step: bad input ends with one "fdtdbench: ..." line, a non-zero exit and no file;
# a good run writes one complete CSV whose figures agree with each other.
. tests/shlib.sh
B=${FDTDBENCH:-build/fdtdbench}

# expect_error NAME PATTERN ARGS... (STEP_ENV: VAR=VALUE assignments for its environment)
STEP_ENV=
expect_error() {
    name=$1 pattern=$2
    shift 2
    env $STEP_ENV "$B" step --results "$tmp/results" "$@" >"$tmp/out" 2>"$tmp/err"
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
expect_error "layer thicker than a third" "--pml: 5 cells on every face of a 12x12x12 grid: from 0 to a third" --grid 12 --pml 5
expect_error "negative layer" "--pml: '-1' is not a whole number from 0" --pml -1
expect_error "grading order 0" "--pml-order: '0' is not a whole number from 1 to 6" --pml 2 --pml-order 0
expect_error "grading order 7" "--pml-order: '7' is not a whole number from 1 to 6" --pml 2 --pml-order 7
expect_error "layer in a periodic box" "--pml: the layer ends on PEC walls" --pml 2 --boundary periodic
# The GPU takes a layer (its kernels are verified by test_pml); without one, one line says so.
"$B" probe --device gpu >/dev/null 2>&1 ||
    expect_error "layer on a GPU that is not there" "the gpu is not usable" --pml 2 --device gpu --grid 16
# A grid split into slabs: refused before anything is allocated.
expect_error "slabs thinner than the halo" "--slabs 20: 41 planes along z make slabs of 2, thinner than the 4" \
    --grid 40x40x41 --slabs 20
expect_error "more GPUs than present" "--gpus 64: this machine has [0-9]* GPU\|this build has no NCCL" --grid 8x8x512 --gpus 64
STEP_ENV=FDTDBENCH_NCCL_LIBRARY=/nonexistent/libnccl.so
expect_error "NCCL missing" "NCCL: cannot load /nonexistent/libnccl.so\|this build has no NCCL" --gpus 2
STEP_ENV=
expect_error "slabs and GPUs" "--slabs and --gpus: one or the other" --gpus 2 --slabs 2
expect_error "GPUs on the CPU" "--gpus: a GPU step, not --device cpu" --gpus 2 --device cpu
expect_error "overlap with a layer" "not with --pml" --grid 24 --slabs 2 --pml 2 --overlap yes
expect_error "a wave step in slabs" "variant wave is not split into slabs" --grid 24 --slabs 2 --variant wave --steps 1 --reps 1
expect_error "a register cap on the CPU" "--regs: a register cap for the GPU's fused kernels" --grid 24 --regs 40
expect_error "slabs thinner than a layer's three" "--slabs 3: slabs of 8 planes: a 3-cell layer needs at least 9" \
    --grid 24 --slabs 3 --pml 3
# A rank whose transport fails ends the run naming the rank and the call, and writes no row.
STEP_ENV=FDTDBENCH_TEST_FAIL_RANK=1
expect_error "a failing rank" "copy transport, rank 1: copy: failed as FDTDBENCH_TEST_FAIL_RANK asked" \
    --grid 24 --slabs 3 --steps 1 --reps 1
STEP_ENV=

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
# With a layer: PEC walls, its reflection, its passes' time and their bytes. Yee f32 array on 12^3 with
# 3 cells: each axis' slab is 6 x 12 x 12 = 864 cells, corrected in both half-steps: 5184 pass cells
# of 2 terms x (output read and written, source, psi read and written, one coefficient) x 4 B = 48 B;
# twelve psi arrays of 864 cells read and written once a step add 2 x 4 x 2592 x 4 / 1728 = 48 B to
# the closed box's 120 per cell.
if "$B" step --grid 12 --pml 3 --steps 2 --reps 2 --scheme yee --results "$tmp/layer" >"$tmp/out" 2>"$tmp/err" &&
    g=$(find "$tmp/layer" -name 'step-*.csv') && [ "$(wc -l <"$g")" -eq 2 ]; then
    why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { if ($col["pml"] != 3 || $col["pml_order"] != 3 || $col["boundary"] != "pec") print "layer " $col["pml"] " " $col["boundary"]
          if ($col["layer_bytes"] != 248832) print "layer bytes " $col["layer_bytes"]
          if ($col["compulsory_bytes"] != 168) print "step bytes " $col["compulsory_bytes"]
          if (!($col["pml_reflection_db"] < -20)) print "reflection " $col["pml_reflection_db"]
          if (!($col["layer_ms"] > 0) || !($col["layer_share"] > 0)) print "layer time " $col["layer_ms"] " " $col["layer_share"]
          if ($col["verified"] != 1) print "not verified" }' "$g")
    result "step --pml writes one row with its layer" "$why"
else
    result "step --pml writes one row with its layer" "$(tail -n 3 "$tmp/err")"
fi

# Where the update kernels make the layer's corrections (the CPU's fused), its time is the difference
# of paired steps with and without it (16^3 with 4 cells a face: four in five cells in the layer):
# the row has one, and its share of the step. Its sign is a measurement, not tested: a CI run under
# the sanitizers beside other work read -0.95 ms once.
if "$B" step --grid 16 --pml 4 --steps 2 --reps 3 --scheme fv24 --variant fused --results "$tmp/folded" >"$tmp/out" 2>"$tmp/err" &&
    g=$(find "$tmp/folded" -name 'step-*.csv') && [ "$(wc -l <"$g")" -eq 2 ]; then
    why=$(awk -F, 'function number(v) { return v ~ /^-?[0-9.]+(e[-+]?[0-9]+)?$/ }
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { if (!number($col["layer_ms"]) || !number($col["layer_share"]) || !($col["layer_bytes"] > 0))
              print "layer time " $col["layer_ms"] " " $col["layer_share"] " " $col["layer_bytes"] }' "$g")
    result "step --variant fused --pml times its layer by paired steps" "$why"
else
    result "step --variant fused --pml times its layer by paired steps" "$(tail -n 3 "$tmp/err")"
fi

# In slabs: one verified row saying so. FV24 f32 on 12x10x21 in 3 slabs, periodic: 3 faces, and per
# face each of Hx, Hy, Ex, Ey 3 planes, Hz and Ez 2 (their shifts), of 16 x 14 padded cells of 4 bytes.
if "$B" step --grid 12x10x21 --slabs 3 --scheme fv24 --steps 2 --reps 2 --results "$tmp/slabs" >"$tmp/out" 2>"$tmp/err" &&
    g=$(find "$tmp/slabs" -name 'step-*.csv') && [ "$(wc -l <"$g")" -eq 2 ]; then
    why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { if ($col["slabs"] != 3 || $col["transport"] != "copy" || $col["overlap"] != 0) print "split " $col["slabs"] " " $col["transport"] " " $col["overlap"]
          if ($col["halo_bytes"] != 3 * (4 * 3 + 2 * 2) * 16 * 14 * 4) print "halo bytes " $col["halo_bytes"]
          if ($col["verified"] != 1) print "not verified" }' "$g")
    grep -q "in 3 slabs (copied)" "$tmp/out" || why="$why; no '3 slabs' in: $(head -n 3 "$tmp/out")"
    result "step --slabs writes one row saying so" "$why"
else
    result "step --slabs writes one row saying so" "$(tail -n 3 "$tmp/err")"
fi
# NVLink multicast off in every process the suite starts (here: the peers script, a stand-in).
mkdir -p "$tmp/nvls/scripts"
echo 'echo "NCCL_NVLS_ENABLE=$NCCL_NVLS_ENABLE"' >"$tmp/nvls/scripts/peers.sh"
bin=$(cd "$(dirname "$B")" && pwd)/$(basename "$B")
out=$(cd "$tmp/nvls" && NCCL_NVLS_ENABLE=1 "$bin" peers 2>&1)
if [ "$out" = "NCCL_NVLS_ENABLE=0" ]; then result "NCCL_NVLS_ENABLE=0 in processes it starts" ""
else result "NCCL_NVLS_ENABLE=0 in processes it starts" "$out"; fi

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
