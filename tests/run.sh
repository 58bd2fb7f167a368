#!/bin/sh
# Runs every test program and shell test, then prints one closing line:
# "N passed, N failed, N skipped". Exit status 1 if anything failed.
# Environment: BUILD (build folder); ONLY, a list of test names (test_gpu test_cache.sh ...) to run
# those alone. Where nvcc is on the PATH, NVCC_PATH names it for the test that compares NVRTC's
# kernels with nvcc's (test_gpu, on a GPU).
BUILD=${BUILD:-build}
export FDTDBENCH="$BUILD/fdtdbench"
NVCC_PATH=$(command -v nvcc 2>/dev/null)
export NVCC_PATH
passed=0 failed=0 skipped=0
log=$(mktemp) skips=$(mktemp)
# The kernels the tests compile at run time go to a kernel cache of their own, empty at the start
# (every kernel compiled by this run) and removed at the end: never the user's.
FDTDBENCH_CACHE=$(mktemp -d)
export FDTDBENCH_CACHE
trap 'rm -f "$log" "$skips"; rm -rf "$FDTDBENCH_CACHE"' EXIT

tally() { # reads one program's output from $log and adds its summary line
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "FAIL $1: ended without a summary (crashed?)"
        failed=$((failed + 1))
        return
    fi
    set -- $(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\2 \3 \4/')
    passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
}

run_one() { # NAME COMMAND...
    name=$1
    shift
    echo "== $name"
    start=$(date +%s)
    "$@" >"$log" 2>&1
    rc=$?
    cat "$log"
    echo "   ($name: $(($(date +%s) - start)) s)"
    sed -n "s/^SKIP /  $name: /p" "$log" >>"$skips"
    tally "$name"
    if [ $rc -ne 0 ] && ! grep -q ' [1-9][0-9]* failed' "$log"; then
        echo "FAIL $name: exit status $rc"
        failed=$((failed + 1))
    fi
}

asked() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }

# Every CPU kernel the tests compile, first, on every core: the tests then find them in the cache
# instead of compiling them one at a time. The grid is test_cpu_kernels' large one, whose strides
# the regz and regza kernels are compiled for; the other tests take every other kernel there is.
if [ -z "${ONLY:-}" ]; then
    echo "== compiling the CPU kernels into the run's kernel cache"
    if ! "$FDTDBENCH" cache --warm --device cpu --grid 37x29x23 >"$log" 2>&1; then
        echo "FAIL warming the kernel cache:"
        failed=$((failed + 1))
    fi
    cat "$log"
fi
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] && asked "$(basename "$t")" && run_one "$(basename "$t")" "$t"
done
for t in tests/test_*.sh; do
    [ -f "$t" ] && asked "$(basename "$t")" && run_one "$(basename "$t")" sh "$t"
done
echo
if [ -s "$skips" ]; then
    echo "skipped, and why:"
    cat "$skips"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
