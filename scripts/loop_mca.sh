#!/bin/sh
# The throughput llvm-mca's model of a core predicts for each vector loop of a CPU kernel (as
# fdtdbench compiles it at run time: kernel_objs.sh), beside loop_counts.sh's counts: timings on a
# shared VM move by tens of percent, a model does not.
#   sh scripts/loop_mca.sh BUILD CPU KERNEL...   e.g. build znver3 k_fv24_hx_f32_array_regz
# For each innermost loop with vector registers (a block a forward branch inside it skips left
# out, as in loop_counts.sh): its nodes along z (vector stores not to the
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
for k in "$@"; do
    objdump -d --no-show-raw-insn "$tmp/$k.so" | awk -v name="$k" -v out="$tmp/loop" '
    function hex(h,   v, i) { v = 0; for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
    /^[0-9a-f]+ <.*>:$/ { on = index($0, "<" name "_run.") > 0 || index($0, "<" name "_run>") > 0; next }
    on && /^ +[0-9a-f]+:\t/ { split($0, f, "\t"); gsub(/ /, "", f[1]); n++; at[n] = hex(substr(f[1], 1, length(f[1]) - 1)); ins[n] = f[2] }
    END {
        nl = 0
        for (i = 1; i <= n; i++) {
            if (ins[i] !~ /^j/ || ins[i] ~ /^jmp/ || !match(ins[i], /[0-9a-f]+ </)) continue
            t = hex(substr(ins[i], RSTART, RLENGTH - 2)); if (t >= at[i]) continue
            for (s = i; s > 1 && at[s] > t; s--) ;
            inner = 1; w = 0 # as loop_counts.sh: a block a forward branch skips is left out
            for (j = s; j < i; j++) {
                if (ins[j] ~ /^j/ && ins[j] !~ /^jmp/ && match(ins[j], /[0-9a-f]+ </))
                    if (hex(substr(ins[j], RSTART, RLENGTH - 2)) <= at[j]) inner = 0
                if (ins[j] ~ /zmm/) w = 64; else if (ins[j] ~ /ymm/ && w < 32) w = 32
            }
            if (!inner || !w) continue
            for (j = s; j < i; j++)
                if (ins[j] ~ /^j/ && ins[j] !~ /^jmp/ && match(ins[j], /[0-9a-f]+ </)) {
                    tj = hex(substr(ins[j], RSTART, RLENGTH - 2))
                    if (tj <= at[i]) for (c = j + 1; c < i && at[c] < tj; c++) cold[c] = 1 # a way out of the loop skips nothing
                }
            nl++; st = vl = sl = nin = 0; file = out nl ".s"; printf "" > file
            for (j = s; j < i; j++) {
                if (cold[j] || (ins[j] ~ /^j/ && ins[j] !~ /^jmp/)) continue # the skip itself: not taken in the model
                x = ins[j]; sub(/ *#.*/, "", x); print x > file; nin++
                if (x ~ /^(lea|nop)/ || x !~ /\(/) continue
                if (x ~ /\)$/) { if (x ~ /mm/ && x !~ /rsp/) st++; continue }
                if (x ~ /%[xyz]mm/ && x !~ /^vmovq/) vl++; else sl++
            }
            close(file); printf "%d %d %d %d %d %d\n", nl, st ? st : 1, nin, vl, sl, w / (name ~ /_f64_/ ? 8 : 4)
        }
    }' >"$tmp/list"
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
