#!/bin/sh
# Runs every test program and shell test, then prints one closing line:
# "N passed, N failed, N skipped". Exit status 1 if anything failed.
# Environment: BUILD (build folder); ONLY, a list of test names (test_gpu test_cache.sh ...) to run
# those alone; TEST_JOBS, how many tests run at once (2). Where nvcc is on the PATH, NVCC_PATH names
# it for the test that compares NVRTC's kernels with nvcc's (test_gpu, on a GPU).
BUILD=${BUILD:-build}
export FDTDBENCH="$BUILD/fdtdbench"
NVCC_PATH=$(command -v nvcc 2>/dev/null)
export NVCC_PATH
jobs=${TEST_JOBS:-2}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
# Two tests at once: most of a test's time is one thread (its checks, a script's commands), and the
# other core would wait. OpenMP threads waiting for work sleep instead of spinning, so that they do
# not take the core the other test needs.
OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
export OMP_WAIT_POLICY
passed=0 failed=0 skipped=0
out=$(mktemp -d) skips=$(mktemp)
# The kernels the tests compile at run time go to a kernel cache of their own, empty at the start
# (every kernel compiled by this run) and removed at the end: never the user's.
FDTDBENCH_CACHE=$(mktemp -d)
export FDTDBENCH_CACHE
trap 'rm -rf "$out" "$skips" "$FDTDBENCH_CACHE"' EXIT

tally() { # NAME LOG: adds the program's summary line to the counts
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$2" | tail -n 1)
    if [ -z "$line" ]; then
        echo "FAIL $1: ended without a summary (crashed?)"
        failed=$((failed + 1))
        return
    fi
    set -- $(echo "$line" | sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped$/\2 \3 \4/')
    passed=$((passed + $1)) failed=$((failed + $2)) skipped=$((skipped + $3))
}

# Test N's files in $out: N.name, N.log (its output), N.s (seconds), N.rc (its exit status, written
# last, whole: the sign that it ended).
start() { # N NAME COMMAND...
    n=$1
    echo "$2" >"$out/$n.name"
    shift 2
    (
        t0=$(date +%s)
        "$@" >"$out/$n.log" 2>&1
        echo $? >"$out/$n.tmp"
        echo $(($(date +%s) - t0)) >"$out/$n.s"
        mv "$out/$n.tmp" "$out/$n.rc"
    ) &
}

shown=0
show() { # prints the tests that have ended, in order, up to the first still running
    while [ -f "$out/$((shown + 1)).rc" ]; do
        shown=$((shown + 1))
        name=$(cat "$out/$shown.name") log=$out/$shown.log
        echo "== $name"
        cat "$log"
        echo "   ($name: $(cat "$out/$shown.s") s)"
        sed -n "s/^SKIP /  $name: /p" "$log" >>"$skips"
        tally "$name" "$log"
        if [ "$(cat "$out/$shown.rc")" -ne 0 ] && ! grep -q ' [1-9][0-9]* failed' "$log"; then
            echo "FAIL $name: exit status $(cat "$out/$shown.rc")"
            failed=$((failed + 1))
        fi
    done
}

started=0
queue() { # NAME COMMAND...: starts it once fewer than $jobs tests are running
    while [ $((started - $(find "$out" -name '*.rc' | wc -l))) -ge "$jobs" ]; do
        show
        sleep 0.2
    done
    started=$((started + 1))
    start $started "$@"
}

asked() { [ -z "${ONLY:-}" ] || case " $ONLY " in *" $1 "*) true ;; *) false ;; esac; }

# No kernel is compiled ahead: the tests compile what they use, side by side (a stage that compiled
# every CPU kernel on every core first, 720 of them for test_cpu_kernels' grid, made make test
# 16 s slower and its sanitized run 23 s slower on the 2-core VM: not every one is used, and the
# tests' own compiling overlaps the other test's checks).

# The slowest first (then the rest in the files' order), so that the run does not end on one of
# them alone with a core idle.
queued=" "
for t in "$BUILD/tests/test_cpu_kernels" tests/test_cli.sh tests/test_cache.sh "$BUILD"/tests/test_* tests/test_*.sh; do
    name=$(basename "$t")
    case "$queued" in *" $name "*) continue ;; esac
    asked "$name" || continue
    case $t in
    *.sh) [ -f "$t" ] && queue "$name" sh "$t" ;;
    *) [ -x "$t" ] && queue "$name" "$t" ;;
    esac
    queued="$queued$name "
done
wait
show
echo
if [ -s "$skips" ]; then
    echo "skipped, and why:"
    cat "$skips"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
