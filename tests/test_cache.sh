#!/bin/sh
# The kernel cache (codegen/kcache.h), CPU kernels (compiled by the build's C compiler) everywhere
# and GPU kernels where NVRTC is, GPU or not: kernels compiled once and then read back; an entry
# truncated or damaged by hand is compiled again, never loaded; two processes filling one empty
# cache at once both succeed and leave whole entries; a kernel that does not compile ends the
# command with one line naming it and its log, exit 2, no entry and no row; --no-cache keeps
# nothing; bad input is one line. With a GPU, two GPU benches sharing one empty cache both succeed.
. tests/shlib.sh
B=${FDTDBENCH:-build/fdtdbench}
export FDTDBENCH_CACHE="$tmp/cache"
# The CPU's compilations work in folders of their own here: none may be left behind.
export TMPDIR="$tmp/tmpdir"
mkdir -p "$TMPDIR"

# compile_failed STATUS KERNEL: a command that ended with STATUS, its stderr in $tmp/err, failed as a
# kernel that does not compile must: exit 2, one line naming KERNEL and its log, the log holding
# the compiler's error and the planted line; the failures, or nothing.
compile_failed() {
    log=$(sed -n 's/.*; the log: //p' "$tmp/err")
    [ "$1" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "could not compile $2" "$tmp/err" ||
        echo "exit $1: $(cat "$tmp/err")"
    [ -f "$log" ] && grep -q "error" "$log" && grep -q "planted by FDTDBENCH_TEST_BAD_KERNEL" "$log" ||
        echo "no log with the error at '$log'"
}

# once WARM COUNTS ENTRIES N: from an absent cache, WARM compiles N kernels into N entries, then a
# second WARM compiles none; the failures, or nothing.
once() {
    "$B" cache >"$tmp/out" 2>&1 && grep -q "empty: not created yet" "$tmp/out" || echo "an absent cache: $(cat "$tmp/out")"
    $1 >"$tmp/out" 2>"$tmp/err" || echo "first warm failed: $(cat "$tmp/err")"
    $2 "$4" 0 && [ "$($3)" -eq "$4" ] || echo "first warm: $(cat "$tmp/out"), $($3) entries"
    $1 >"$tmp/out" 2>"$tmp/err" && $2 0 "$4" || echo "second warm compiled again: $(cat "$tmp/out")"
}

# damaged WARM COUNTS EXT N: one of N entries (files *EXT) cut short (its trailer gone), another with
# a byte of its code changed: both compiled again by WARM, with a line each saying so, and whole
# again afterwards (COUNTS COMPILED CACHED reads WARM's summary); the failures, or nothing.
damaged() {
    set -- "$1" "$2" "$4" $(find "$FDTDBENCH_CACHE" -name "*$3" | sort | head -n 2)
    head -c 300 "$4" >"$tmp/cut" && mv "$tmp/cut" "$4"
    printf 'X' | dd of="$5" bs=1 seek=100 conv=notrunc 2>/dev/null
    $1 >"$tmp/out" 2>"$tmp/err" && $2 2 $(($3 - 2)) || echo "damaged entries not compiled again: $(cat "$tmp/out")"
    [ "$(grep -c "is damaged: it has no trailer" "$tmp/err")" -eq 1 ] &&
        [ "$(grep -c "is damaged: its code does not match its hash" "$tmp/err")" -eq 1 ] ||
        echo "not one line per damaged entry: $(cat "$tmp/err")"
    $1 >"$tmp/out" 2>"$tmp/err" && $2 0 "$3" || echo "the rewritten entries are not whole: $(cat "$tmp/out")"
}

# at_once WARM COUNTS ENTRIES N: two WARMs on one empty cache both succeed, every one of the N
# entries whole (a third run compiles nothing), no temporary file left; the failures, or nothing.
at_once() {
    rm -rf "$FDTDBENCH_CACHE"
    $1 >"$tmp/out1" 2>"$tmp/err1" &
    $1 >"$tmp/out2" 2>"$tmp/err2"
    rc2=$?
    wait $!
    rc1=$?
    [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || echo "exit statuses $rc1 and $rc2: $(cat "$tmp/err1" "$tmp/err2")"
    $1 >"$tmp/out" 2>"$tmp/err" && $2 0 "$4" && [ "$($3)" -eq "$4" ] ||
        echo "after two at once: $(cat "$tmp/out"), $($3) entries"
    [ -z "$(find "$FDTDBENCH_CACHE" -name '.tmp-*')" ] || echo "temporary files left: $(ls -a "$FDTDBENCH_CACHE")"
}

# ---- CPU kernels: yee's plain ones, 36 kernels (6 components, 2 precisions, 3 storages), seconds.
cwarm() { "$B" cache --warm --scheme yee --variant plain "$@"; }
centries() { find "$FDTDBENCH_CACHE" -name '*.so' 2>/dev/null | wc -l; }
# ccounts COMPILED CACHED: the warm summary says so
ccounts() { grep -q "kernels for this CPU .*: $1 compiled (.*), $2 already in the cache" "$tmp/out"; }

f=$(once cwarm ccounts centries 36)
"$B" cache --list >"$tmp/out" 2>&1 && [ "$(grep -c ' cpu .*k_yee_.*_plain$' "$tmp/out")" -eq 36 ] &&
    grep -q "36 kernels (36 CPU, 0 GPU)" "$tmp/out" || f="$f
--list: $(head -n 3 "$tmp/out")"
result "CPU kernels: compiled once, then read from the cache" "$f"

# A step's row says how its kernels were obtained: compiled by cc this run, then from the cache
# (a grid that fits in the cache: no bandwidth probe, a fraction of a second).
f=""
step() { "$B" step --scheme yee --precision f64 --grid 24x20x8 --steps 2 --reps 1 --results "$tmp/r" --csv "$@"; }
from() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "kernel_from") c = i } NR == 2 { print $c }' "$tmp/row"; }
step --no-cache >"$tmp/row" 2>"$tmp/err" && from | grep -qx "cc [0-9]* ms" || f="--no-cache: '$(from)' $(cat "$tmp/err")"
step >"$tmp/row" 2>"$tmp/err" && [ "$(from)" = cache ] || f="$f
from the cache: '$(from)' $(cat "$tmp/err")"
result "a CPU row says where its kernels came from" "$f"

result "a damaged CPU entry is compiled again, never loaded" "$(damaged cwarm ccounts .so 36)"
result "two processes fill one cache with CPU kernels at once" "$(at_once cwarm ccounts centries 36)"

# A CPU kernel that does not compile (the test hook plants a syntax error): one line naming it and
# the log, exit 2, no entry and no row, the log holds the compiler's error.
before=$(centries)
rm -rf "$tmp/r"
FDTDBENCH_TEST_BAD_KERNEL=k_yee_hy_f32_array_plain step --precision f32 >"$tmp/row" 2>"$tmp/err"
f=$(compile_failed $? k_yee_hy_f32_array_plain)
[ "$(centries)" -eq "$before" ] && [ ! -s "$tmp/row" ] && [ -z "$(find "$tmp/r" -type f 2>/dev/null)" ] || f="$f
entries $before -> $(centries), output: $(cat "$tmp/row"), files: $(find "$tmp/r" -type f 2>/dev/null)"
result "a CPU kernel that does not compile: one line, its log, exit 2, no row" "$f"

# A kernel that includes <immintrin.h> (regz) compiles with it precompiled once into the cache, by
# GCC: the .gch made by the first such compilation, not by a plain kernel's, and counted by `cache`.
# One cut short by hand fails no kernel: the compilation that fails on it is made again without it,
# which removes it with a warning (regz compiled for another grid's strides), and the next run
# precompiles it again. --clear removes it.
rwarm() { "$B" cache --warm --scheme yee --variant regz --grid "${1:-24x20x8}"; }
gch() { find "$FDTDBENCH_CACHE" -name 'aux-*.gch'; }
if "${CC:-cc}" -dM -E -x c /dev/null | grep -q '#define __clang__'; then
    echo "SKIP precompiled headers: the build's compiler is clang"
    skipped=$((skipped + 1))
else
    f=""
    [ -z "$(gch)" ] || f="a plain kernel's compilations made $(gch)"
    rwarm >"$tmp/out" 2>"$tmp/err" && [ -s "$(gch)" ] || f="$f
no .gch after regz's: $(cat "$tmp/err")"
    "$B" cache >"$tmp/out" 2>&1 && grep -q "precompiled header [0-9.]* MiB" "$tmp/out" || f="$f
cache: $(cat "$tmp/out")"
    head -c 1000 "$(gch)" >"$tmp/cut" && mv "$tmp/cut" "$(gch)"
    rwarm 24x21x8 >"$tmp/out" 2>"$tmp/err" || f="$f
a damaged .gch failed the warm: $(cat "$tmp/err")"
    [ "$(grep -c "precompiled header .*failed a compilation; removed" "$tmp/err")" -eq 1 ] && [ -z "$(gch)" ] ||
        f="$f
the damaged .gch not removed with one line: $(cat "$tmp/err"), $(gch)"
    "$B" cache --clear >/dev/null 2>&1 && rwarm >/dev/null 2>&1 && [ -s "$(gch)" ] || f="$f
not precompiled again: $(gch)"
    "$B" cache --clear >"$tmp/out" 2>&1 && [ -z "$(find "$FDTDBENCH_CACHE" -name 'aux-*')" ] || f="$f
--clear left $(find "$FDTDBENCH_CACHE" -name 'aux-*')"
    result "<immintrin.h> precompiled once; a damaged .gch is removed, no kernel fails" "$f"
fi

f=""
[ -z "$(ls -A "$TMPDIR")" ] || f="left in TMPDIR: $(ls -A "$TMPDIR")"
result "CPU compilations leave nothing behind" "$f"

# Bad input: one line, exit 2.
f=""
for args in "--warm --arch sm_9x" "--warm --arch sm_1000" "--arch sm_90" "--warm --arch sm_90 --scheme nosuch" "--clear --warm" "--speed"; do
    # shellcheck disable=SC2086 # the options are words
    "$B" cache $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(grep -c '^fdtdbench: ' "$tmp/err")" -eq 1 ] || f="$f
cache $args: exit $rc, $(cat "$tmp/err")"
done
result "bad input is one line and exit 2" "$f"

# ---- GPU kernels: yee's baseline kernels for the H100's architecture, 24 kernels, a few seconds.
rm -rf "$FDTDBENCH_CACHE"
warm() { "$B" cache --warm --arch sm_90 --scheme yee --variant baseline "$@"; }
entries() { find "$FDTDBENCH_CACHE" -name '*.cubin' 2>/dev/null | wc -l; }
# counts COMPILED CACHED: the warm summary says so
counts() { grep -q "kernels for sm_90 .*: $1 compiled (.*), $2 already in the cache" "$tmp/out"; }

if ! warm >"$tmp/out" 2>"$tmp/err" && grep -q "no GPU backend" "$tmp/err"; then
    echo "SKIP GPU kernel cache: $(cat "$tmp/err")"
    skipped=1
    summary
fi
rm -rf "$FDTDBENCH_CACHE"

result "compiled once, then read from the cache" "$(once warm counts entries 24)"

result "a damaged entry is compiled again, never loaded" "$(damaged warm counts .cubin 24)"
result "two processes fill one cache at once" "$(at_once warm counts entries 24)"

# The wave step's GPU kernels (kernels_gpu/wave.cu.step) compile for the H100 (run and verified on a
# GPU only, by test_step): FV24's, the widest stencil, 12 kernels.
f=""
"$B" cache --warm --arch sm_90 --scheme fv24 --variant wave >"$tmp/out" 2>"$tmp/err" && counts 12 0 ||
    f="$(cat "$tmp/out" "$tmp/err")"
result "the wave step's GPU kernels compile" "$f"

# The CPML's GPU layer kernels (kernels_gpu/cpml.cu.layer) compile for the H100 (run and verified on a
# GPU only, by test_pml): FV24's, 36 kernels (two half-steps, three axes, two precisions, three storages).
f=""
"$B" cache --warm --arch sm_90 --scheme fv24 --variant cpml >"$tmp/out" 2>"$tmp/err" && counts 36 0 ||
    f="$(cat "$tmp/out" "$tmp/err")"
result "the CPML's GPU layer kernels compile" "$f"

# fused25d's GPU kernels (kernels_gpu/fused25d.cu.step) compile for the H100 with their rings
# filled by tensor copies (TILE_TMA: sm_90 on, gpu_rules.h's fused25d_tma) and for the A100 with
# cp.async (run and verified on a GPU only, by test_step): FV24's, 12 kernels each.
f=""
fused25d_listed() { "$B" cache --list | grep "k_fv24_.*_fused25d_gpu" | grep -c -- "$1"; }
"$B" cache --warm --arch sm_90 --scheme fv24 --variant fused25d >"$tmp/out" 2>"$tmp/err" && counts 12 0 &&
    [ "$(fused25d_listed -DTILE_TMA=1)" -eq 12 ] || f="sm_90: $(fused25d_listed -DTILE_TMA=1) with TILE_TMA, $(cat "$tmp/out" "$tmp/err")"
"$B" cache --warm --arch sm_80 --scheme fv24 --variant fused25d >"$tmp/out" 2>"$tmp/err" &&
    grep -q "kernels for sm_80 .*: 12 compiled" "$tmp/out" && [ "$(fused25d_listed -DTILE_STAGES)" -eq 24 ] &&
    [ "$(fused25d_listed -DTILE_TMA=1)" -eq 12 ] || f="$f
sm_80: $(fused25d_listed -DTILE_TMA=1) with TILE_TMA of $(fused25d_listed -DTILE_STAGES), $(cat "$tmp/out" "$tmp/err")"
"$B" cache --warm --arch sm_100 --scheme fv24 --variant fused25d >"$tmp/out" 2>"$tmp/err" &&
    grep -q "kernels for sm_100 .*: 12 compiled" "$tmp/out" && [ "$(fused25d_listed -DTILE_TMA=1)" -eq 24 ] || f="$f
sm_100 (Blackwell, a three-digit architecture): $(fused25d_listed -DTILE_TMA=1) with TILE_TMA, $(cat "$tmp/out" "$tmp/err")"
result "fused25d's GPU kernels compile, with tensor copies from sm_90 on" "$f"

# A kernel that does not compile (the test hook plants a syntax error): one line naming it and
# the log, exit 2, no entry for it, the log holds NVRTC's error.
before=$(entries)
FDTDBENCH_TEST_BAD_KERNEL=k_yee_hx_f32_array_baseline warm >"$tmp/out" 2>"$tmp/err"
f=$(compile_failed $? k_yee_hx_f32_array_baseline)
[ "$(entries)" -eq "$before" ] || f="$f
entries $before -> $(entries)"
result "a kernel that does not compile: one line, its log, exit 2" "$f"

# --no-cache (on any command) and FDTDBENCH_CACHE=off: compiled, nothing kept.
f=""
rm -rf "$FDTDBENCH_CACHE"
warm --no-cache >"$tmp/out" 2>"$tmp/err" &&
    grep -q ": 24 compiled" "$tmp/out" && grep -q "kernel cache: none" "$tmp/out" || f="--no-cache: $(cat "$tmp/out" "$tmp/err")"
[ "$(entries)" -eq 0 ] || f="$f
--no-cache kept $(entries) entries"
result "--no-cache keeps nothing" "$f"

f=""
warm >/dev/null 2>&1
"$B" cache --list >"$tmp/out" 2>&1 && [ "$(grep -c ' gpu .*k_yee_.*_baseline' "$tmp/out")" -eq 24 ] &&
    grep -q "24 kernels (0 CPU, 24 GPU)" "$tmp/out" || f="--list: $(head -n 3 "$tmp/out")"
"$B" cache --clear >"$tmp/out" 2>&1 && grep -q "removed 24 kernels" "$tmp/out" && [ "$(entries)" -eq 0 ] || f="$f
--clear: $(cat "$tmp/out"), $(entries) left"
result "list and clear" "$f"

# With a GPU: two GPU benches at once on one empty cache (each its own results folder).
if "$B" probe --device gpu >/dev/null 2>&1; then
    f=""
    rm -rf "$FDTDBENCH_CACHE"
    "$B" bench --device gpu --quick --reps 1 --results "$tmp/r1" >"$tmp/b1" 2>&1 &
    "$B" bench --device gpu --quick --reps 1 --results "$tmp/r2" >"$tmp/b2" 2>&1
    rc2=$?
    wait $!
    rc1=$?
    [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || f="exit statuses $rc1 and $rc2: $(tail -n 3 "$tmp/b1" "$tmp/b2")"
    result "two GPU benches fill one empty cache at once" "$f"
else
    echo "SKIP two GPU benches at once: no usable GPU"
    skipped=$((skipped + 1))
fi
summary
