#!/bin/sh
# The throughput llvm-mca's model of a core predicts for each vector loop of a CPU kernel (as
# fdtdbench compiles it at run time: kernel_objs.sh), beside loop_counts.sh's counts: timings on a
# shared VM move by tens of percent, a model does not.
#   sh scripts/loop_mca.sh BUILD CPU KERNEL...   e.g. build znver3 k_fv24_hx_f32_array_regz
# For each innermost loop with 32- or 64-byte vector registers (rarely run blocks left out:
# scripts/loops.awk): its nodes along z (vector stores not to the
# stack), instructions, vector and scalar loads, then cycles per iteration and per update (lanes
# from the widest register the loop uses) and the units the model keeps busiest (load-store units, FP load pipes, FP
# add pipes, FP multiply pipe; columns of llvm-mca's Zen 3 resource table, so other CPUs'
# columns differ). Data are assumed in L1: misses, and what the VM takes, come on top.
set -eu
[ $# -ge 3 ] || { echo "usage: sh scripts/loop_mca.sh BUILD CPU KERNEL..."; exit 2; }
build=$1 cpu=$2
shift 2
command -v llvm-mca >/dev/null || { echo "loop_mca: llvm-mca not found (apt-get install llvm)"; exit 2; }
[ -x "$build/fdtdbench" ] || { echo "loop_mca: no $build/fdtdbench (build first)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/kernel_objs.sh"
kernel_objs "$build" "$tmp" "$@" || exit 2
# each loop (loops.awk: innermost, rarely run blocks left out) as llvm-mca's input, its branches
# left out (not taken in the model), and a line: loop, nodes, instructions, loads, lanes
cat >"$tmp/list.awk" <<'EOF'
END {
    for (l = 1; l <= find_loops(); l++) {
        if (width[l] < 32) continue
        st = vl = sl = nin = 0; file = out l ".s"; printf "" > file
        for (h = 1; h <= nh[l]; h++) {
            x = ins[hot[l, h]]
            if (x ~ /^j/) continue
            sub(/ *#.*/, "", x); print x > file; nin++
            if (x ~ /^(lea|nop)/ || x !~ /\(/) continue
            if (x ~ /\)$/) { if (x ~ /mm/ && x !~ /rsp/) st++; continue }
            if (x ~ /%[xyz]mm/ && x !~ /^vmovq/) vl++; else sl++
        }
        close(file); printf "%d %d %d %d %d %d\n", l, st ? st : 1, nin, vl, sl, width[l] / (name ~ /_f64_/ ? 8 : 4)
    }
}
EOF
for k in "$@"; do
    objdump -d --no-show-raw-insn "$tmp/$k.so" | awk -v name="$k" -v out="$tmp/loop" -f "$(dirname "$0")/loops.awk" -f "$tmp/list.awk" >"$tmp/list"
    [ -s "$tmp/list" ] || { echo "$k: no vector loop found"; continue; }
    while read -r nl st ni vl sl lanes; do
        llvm-mca -mcpu="$cpu" -iterations=100 "$tmp/loop$nl.s" 2>/dev/null | awk -v k="$k" -v nl="$nl" -v st="$st" \
            -v ni="$ni" -v vl="$vl" -v sl="$sl" -v lanes="$lanes" '
            /Total Cycles/ { cyc = $3 / 100 }
            /^Resource pressure per iteration:/ { getline; getline; lsu = $16 > $17 ? $16 : $17; ld = $13; add = $11 > $12 ? $11 : $12; mul = $9 }
            END { printf "%s loop %d, %d node(s): %d instructions, %d vector loads, %d scalar loads; %.1f cycles per iteration, %.2f per update; busiest: load-store units %.1f, FP load pipes %.1f, FP add pipes %.1f, FP multiply %.1f\n",
                  k, nl, st, ni, vl, sl, cyc, cyc / (lanes * st), lsu, ld, add, mul }'
    done <"$tmp/list"
done
