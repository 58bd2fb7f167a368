#!/bin/sh
# The kernel cache (kernels_gpu/rtc.h), tested where NVRTC is, GPU or not: kernels compiled once
# and then read back; an entry truncated or damaged by hand is compiled again, never loaded; two
# processes filling one empty cache at once both succeed and leave whole entries; a kernel that
# does not compile ends the command with one line naming it and its log, exit 2 and no entry;
# --no-cache keeps nothing; bad input is one line. With a GPU, two GPU benches sharing one empty
# cache both succeed.
. tests/shlib.sh
B=${FDTDBENCH:-build/fdtdbench}
export FDTDBENCH_CACHE="$tmp/cache"
# yee's baseline kernels for the H100's architecture: 24 kernels, a few seconds.
warm() { "$B" cache --warm --arch sm_90 --scheme yee --variant baseline "$@"; }
entries() { find "$FDTDBENCH_CACHE" -name '*.cubin' 2>/dev/null | wc -l; }
# counts COMPILED CACHED: the warm summary says so
counts() { grep -q "kernels for sm_90 .*: $1 compiled (.*), $2 already in the cache" "$tmp/out"; }

if ! "$B" cache >"$tmp/out" 2>"$tmp/err" && grep -q "no GPU backend" "$tmp/err"; then
    echo "SKIP kernel cache: $(cat "$tmp/err")"
    skipped=1
    summary
fi

f=""
"$B" cache >"$tmp/out" 2>&1 && grep -q "empty: not created yet" "$tmp/out" || f="an absent cache: $(cat "$tmp/out")"
warm >"$tmp/out" 2>"$tmp/err" || f="$f
first warm failed: $(cat "$tmp/err")"
counts 24 0 && [ "$(entries)" -eq 24 ] || f="$f
first warm: $(cat "$tmp/out"), $(entries) entries"
warm >"$tmp/out" 2>"$tmp/err" && counts 0 24 || f="$f
second warm compiled again: $(cat "$tmp/out")"
result "compiled once, then read from the cache" "$f"

# One entry cut short, another with a byte of its code changed: both compiled again, with a line
# each saying so, and whole again afterwards.
f=""
set -- $(find "$FDTDBENCH_CACHE" -name '*.cubin' | sort | head -n 2)
head -c 300 "$1" >"$tmp/cut" && mv "$tmp/cut" "$1"
size=$(wc -c <"$2")
printf 'X' | dd of="$2" bs=1 seek=$((size - 100)) conv=notrunc 2>/dev/null
warm >"$tmp/out" 2>"$tmp/err" && counts 2 22 || f="damaged entries not compiled again: $(cat "$tmp/out")"
[ "$(grep -c "is damaged: it is truncated" "$tmp/err")" -eq 1 ] && [ "$(grep -c "is damaged: its code does not match its hash" "$tmp/err")" -eq 1 ] ||
    f="$f
not one line per damaged entry: $(cat "$tmp/err")"
warm >"$tmp/out" 2>"$tmp/err" && counts 0 24 || f="$f
the rewritten entries are not whole: $(cat "$tmp/out")"
result "a damaged entry is compiled again, never loaded" "$f"

# Two processes on one empty cache: both succeed, every entry whole (a third run compiles nothing).
f=""
rm -rf "$FDTDBENCH_CACHE"
warm >"$tmp/out1" 2>"$tmp/err1" &
warm >"$tmp/out2" 2>"$tmp/err2"
rc2=$?
wait $!
rc1=$?
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] || f="exit statuses $rc1 and $rc2: $(cat "$tmp/err1" "$tmp/err2")"
warm >"$tmp/out" 2>"$tmp/err" && counts 0 24 && [ "$(entries)" -eq 24 ] || f="$f
after two at once: $(cat "$tmp/out"), $(entries) entries"
[ -z "$(find "$FDTDBENCH_CACHE" -name '.tmp-*')" ] || f="$f
temporary files left: $(ls -a "$FDTDBENCH_CACHE")"
result "two processes fill one cache at once" "$f"

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

# A kernel that does not compile (the test hook plants a syntax error): one line naming it and
# the log, exit 2, no entry for it, the log holds NVRTC's error.
f=""
before=$(entries)
FDTDBENCH_TEST_BAD_KERNEL=k_yee_hx_f32_array_baseline warm >"$tmp/out" 2>"$tmp/err"
rc=$?
log=$(sed -n 's/.*; the log: //p' "$tmp/err")
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "could not compile k_yee_hx_f32_array_baseline" "$tmp/err" ||
    f="exit $rc: $(cat "$tmp/err")"
[ -f "$log" ] && grep -q "error" "$log" && grep -q "planted by FDTDBENCH_TEST_BAD_KERNEL" "$log" || f="$f
no log with the error at '$log'"
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
"$B" cache --list >"$tmp/out" 2>&1 && [ "$(grep -c 'k_yee_.*_baseline' "$tmp/out")" -eq 24 ] &&
    grep -q "24 kernels" "$tmp/out" || f="--list: $(head -n 3 "$tmp/out")"
"$B" cache --clear >"$tmp/out" 2>&1 && grep -q "removed 24 kernels" "$tmp/out" && [ "$(entries)" -eq 0 ] || f="$f
--clear: $(cat "$tmp/out"), $(entries) left"
result "list and clear" "$f"

# Bad input: one line, exit 2.
f=""
for args in "--warm --arch sm_9x" "--arch sm_90" "--warm --arch sm_90 --scheme nosuch" "--clear --warm" "--speed"; do
    # shellcheck disable=SC2086 # the options are words
    "$B" cache $args >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] && [ "$(grep -c '^fdtdbench: ' "$tmp/err")" -eq 1 ] || f="$f
cache $args: exit $rc, $(cat "$tmp/err")"
done
result "bad input is one line and exit 2" "$f"

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
