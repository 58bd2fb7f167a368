#!/bin/bash
# One session on a lent GPU machine, run through the device tool (repo root as the working
# folder, $OUT the folder that comes back):
#   bash scripts/gpu_session.sh ["FDTDBENCH ARGS" ...]
#   e.g. bash scripts/gpu_session.sh "tune --scheme yee,fv24" "bench --device gpu"
# Shows the GPU, builds (plain C: the GPU kernels are compiled at run time by NVRTC for this GPU,
# into the kernel cache), runs make test, then build/fdtdbench with each argument's words in
# turn (a failed one does not stop the next), each timed, and packs
# the results/ files this session wrote into $OUT/results.tgz; its logs (*.log, and *.clock: each
# line behind the time it came) into $OUT/logs.tgz. Everything runs inside SESSION_SECONDS (570,
# under the tool's 600 s limit), so the packing always happens.
# Exit status: 0 if every step that ran succeeded. Environment: BUILD (build), JOBS (16),
# NCCL_HOME (else the Python's nvidia-nccl wheel where it has one),
# SKIP_TESTS=1 to go straight to the benchmark (a later call in a session that tested already),
# FRESH=1 to start as a new GPU would: no tuned file for it, an empty kernel cache; FRESH=again
# for a later call of that sitting on the same warm machine (its cache, its tuned file);
# SOURCE_COMMIT=<local HEAD> for the rows' commit (the lent machine's git history is a stale
# copy: without it every row there reads the session's first commit, +dirty). An
# argument "make TARGET" runs that make target instead: "make tune" "make bench".
set -u -o pipefail
OUT=${OUT:-gpu-session-out}
mkdir -p "$OUT"
start=$(date +%s)
deadline=$((start + ${SESSION_SECONDS:-570}))
stamp=$(mktemp)  # results/ files newer than this one were written by this session
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
BUILD=${BUILD:-build}
mk=(make -j"${JOBS:-16}" BUILD="$BUILD")
# NCCL (step --gpus): the Python's nvidia-nccl wheel where it has one, ahead of the toolkit's and
# the system's headers that the Makefile looks in otherwise
if [ -z "${NCCL_HOME:-}" ] && nccl=$(python3 -c 'import nvidia.nccl as n; print(n.__path__[0])' 2>/dev/null) &&
    [ -f "$nccl/include/nccl.h" ]; then
    mk+=(NCCL_HOME="$nccl")
fi
times=""
build="not run" tests="not run" bench=""

# Shows each line of its input and keeps it in FILE behind the time it came (the time split of a
# long command, e.g. make bench's tables).
clocked() { # FILE
    local line
    while IFS= read -r line; do
        printf '%(%T)T %s\n' -1 "$line" >>"$1"
        printf '%s\n' "$line"
    done
}

# Runs COMMAND... with its output shown and kept in $OUT/LOG, stopped SPARE seconds before the
# deadline; prints its exit status (124: stopped at the deadline).
step() { # LOG SPARE COMMAND...
    local log=$1 spare=$2 left
    shift 2
    left=$((deadline - spare - $(date +%s)))
    if [ "$left" -le 5 ]; then echo "(no time left for: $*)"; return 124; fi
    echo "== $* (at most ${left}s)"
    local t0=$(date +%s) rc
    timeout --kill-after=10 "$left" "$@" 2>&1 | tee "$OUT/$log" | clocked "$OUT/${log%.log}.clock"
    rc=${PIPESTATUS[0]}
    times="$times${times:+, }$log $(($(date +%s) - t0))s"
    return "$rc"
}
verdict() { # EXIT_STATUS
    case $1 in 0) echo ok ;; 124|137) echo "STOPPED at the deadline" ;; *) echo "FAILED ($1)" ;; esac
}

echo "== nvidia-smi"
nvidia-smi 2>&1 | tee "$OUT/nvidia-smi.log"
[ "$(nvidia-smi -L 2>/dev/null | wc -l)" -gt 1 ] && nvidia-smi topo -m 2>&1 | tee -a "$OUT/nvidia-smi.log"
gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | head -n 1)

step build.log 60 "${mk[@]}"
rc=$?
# the GPU's tuned file, as fdtdbench names it
conf=$([ $rc -eq 0 ] && "$BUILD/fdtdbench" tune --path) || conf=/nonexistent
case ${FRESH:-0} in
1)
    export FDTDBENCH_CACHE=$PWD/$BUILD/fresh-cache
    rm -rf "$FDTDBENCH_CACHE" "$BUILD/fresh-tuned"
    echo "== a new GPU: no $conf, an empty kernel cache"
    rm -f "$conf"
    ;;
again) # a later call of a FRESH=1 sitting on the same warm machine: its cache and tuned file
    export FDTDBENCH_CACHE=$PWD/$BUILD/fresh-cache
    echo "== the new GPU again: the kernel cache and tuned file of this machine's FRESH=1 call"
    rm -f "$conf"
    cp "$BUILD/fresh-tuned/${conf##*/}" "$conf" 2>/dev/null || echo "(no tuned file kept)"
    ;;
esac
build=$(verdict $rc)
if [ $rc -eq 0 ]; then
    if [ "${SKIP_TESTS:-0}" != 1 ]; then
        step test.log 40 "${mk[@]}" test
        rc=$?
        tests=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$OUT/test.log" | tail -n 1)
        [ $rc -eq 0 ] || tests="${tests:-no summary} -- $(verdict $rc)"
    fi
    # kernels are verified again before every timing, so run the benchmarks either way
    n=0 bench=""
    for cmd in "$@"; do
        n=$((n + 1))
        # shellcheck disable=SC2086 # each argument is one command line: split it into words
        case $cmd in
        make\ *) step "bench-$n.log" 20 "${mk[@]}" ${cmd#make } ;; # a make target: "make tune"
        *) step "bench-$n.log" 20 "$BUILD/fdtdbench" $cmd ;;
        esac
        bench="$bench${bench:+; }$cmd: $(verdict $?)"
    done
fi

if [ "${FRESH:-0}" != 0 ] && [ -f "$conf" ]; then # for a FRESH=again call
    mkdir -p "$BUILD/fresh-tuned" && cp "$conf" "$BUILD/fresh-tuned/"
fi

# At most 8 files come back: keep the test log and the summary files, pack the other logs.
(cd "$OUT" && ls ./*.log ./*.clock 2>/dev/null | grep -v '^./test.log$' | tar czf logs.tgz -T - && ls ./*.log ./*.clock 2>/dev/null | grep -v '^./test.log$' | xargs rm -f)
find results -type f -newer "$stamp" 2>/dev/null | sort >"$OUT/results.list"
if [ -s "$OUT/results.list" ]; then
    tar czf "$OUT/results.tgz" -T "$OUT/results.list"
    packed="$(wc -l <"$OUT/results.list") files in results.tgz: $(tr '\n' ' ' <"$OUT/results.list")"
else
    packed="none written"
fi
rm -f "$stamp"

echo
echo "== summary ($(($(date +%s) - start)) s)"
echo "gpu:     ${gpu:-no nvidia-smi answer}"
echo "build:   $build"
echo "tests:   $tests"
echo "bench:   ${bench:-not asked for}"
echo "results: $packed"
echo "times:   $times"
[ "$build" = ok ] && [[ "$tests" != *FAILED* && "$tests" != *STOPPED* ]] && [[ "$bench" != *FAILED* && "$bench" != *STOPPED* ]]
