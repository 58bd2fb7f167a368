#!/bin/bash
# A shorter lent-GPU call than gpu_session.sh: build for sm_90, run the GPU tests given as
# arguments (build/tests/NAME), then each fdtdbench command in FDTD_CMDS (one per line), and
# pack the results/ files written into $OUT/results.tgz with the logs in $OUT/logs.tgz.
#   FDTD_CMDS=$'tune --step\nbench --device gpu --quick' bash scripts/gpu_check.sh test_step test_gpu
# A command is not started once BUDGET_S seconds (default 520) have passed, so that the packing
# still happens inside the device call's limit.
set -u -o pipefail
OUT=${OUT:-gpu-check-out}
mkdir -p "$OUT"
stamp=$(mktemp)
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
start=$(date +%s)
t() { echo "[$(($(date +%s) - start)) s] $*"; }
t build
make -j16 CUDA_ARCH=-gencode=arch=compute_90,code=sm_90 build/fdtdbench ${1:+$(printf 'build/tests/%s ' "$@")} \
    >"$OUT/build.log" 2>&1 || { tail -n 30 "$OUT/build.log"; exit 1; }
rc=0
for test in "$@"; do
    t "$test"
    build/tests/"$test" >"$OUT/$test.log" 2>&1 || rc=1
    tail -n 2 "$OUT/$test.log"
done
n=0
while IFS= read -r cmd; do
    [ -n "$cmd" ] || continue
    n=$((n + 1))
    if [ $(($(date +%s) - start)) -gt "${BUDGET_S:-520}" ]; then
        t "skipped (past ${BUDGET_S:-520} s): $cmd"
        rc=1
        continue
    fi
    t "fdtdbench $cmd"
    # shellcheck disable=SC2086 # one command line per line: split it into words
    build/fdtdbench $cmd >"$OUT/cmd-$n.log" 2>&1 || { rc=1; echo "FAILED: $cmd"; }
    tail -n 3 "$OUT/cmd-$n.log"
done <<<"${FDTD_CMDS:-}"
t pack
(cd "$OUT" && tar czf logs.tgz ./*.log && rm -f ./*.log)
find results -type f -newer "$stamp" | sort >"$OUT/results.list"
[ -s "$OUT/results.list" ] && tar czf "$OUT/results.tgz" -T "$OUT/results.list"
cat "$OUT/results.list"
exit $rc
