#!/bin/sh
# Counts what a CPU kernel's vector loop issues, from its machine code (as fdtdbench compiles it
# at run time: kernel_objs.sh): counts that no other process on the machine can change (timings
# here can be noisy; VMs hide the hardware counters).
#   sh scripts/loop_counts.sh BUILD KERNEL...     e.g. build k_fv24_hx_f32_array_plain
#   GRID=128x15x15 sh scripts/loop_counts.sh ...   regz compiled for that grid's strides (512^3's if not given)
# For each kernel: its main vector loops (innermost loops at its widest vector width; a kernel
# in two passes has two), and per vector of updates: instructions, vector loads (memory
# operands read by a vector instruction), scalar loads (spilled pointers and the like),
# stores (masked ones too; a block that a forward branch inside the loop skips, regz's partial
# last vector of a row without AVX-512, left out); then loads and instructions per update. A
# kernel with a loop per node count (regz: one for each number of nodes along z per pass) also
# gets a line per loop, its nodes counted as its vector stores that are not to the stack.
set -eu
[ $# -ge 2 ] || { echo "usage: sh scripts/loop_counts.sh BUILD KERNEL..."; exit 2; }
build=$1
shift
[ -x "$build/fdtdbench" ] || { echo "loop_counts: no $build/fdtdbench (build first)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/kernel_objs.sh"
kernel_objs "$build" "$tmp" "$@" || exit 2
for k in "$@"; do
    objdump -d --no-show-raw-insn "$tmp/$k.so" | awk -v name="$k" '
    function hex(h,   v, i) { v = 0; for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
    /^[0-9a-f]+ <.*>:$/ {  # the kernel, its _run entry, and their OpenMP bodies
        on = 0
        for (x = 0; x < 2; x++) {
            fn = name (x ? "_run" : "")
            on = on || index($0, "<" fn ".") > 0 || index($0, "<" fn ">") > 0
        }
        next
    }
    on && /^ +[0-9a-f]+:\t/ {
        split($0, f, "\t"); gsub(/ /, "", f[1]); n++; at[n] = hex(substr(f[1], 1, length(f[1]) - 1)); ins[n] = f[2]
    }
    END {
        if (!n) { print name ": not found"; exit 1 }
        # Innermost loops (a backward branch with none inside), by the widest vector register
        # they use; the main loops are those at the widest width of the kernel.
        nl = 0; widest = 0
        for (i = 1; i <= n; i++) {
            if (ins[i] !~ /^j/ || ins[i] ~ /^jmp/) continue
            if (!match(ins[i], /[0-9a-f]+ </)) continue
            target = hex(substr(ins[i], RSTART, RLENGTH - 2))
            if (target >= at[i]) continue
            for (s = i; s > 1 && at[s] > target; s--) ;
            # Innermost: no backward branch inside. A forward branch inside skips a block the
            # loop rarely runs (regz: the partial last vector of a row): not counted (cold[]).
            inner = 1; w = 0
            for (j = s; j < i; j++) {
                if (ins[j] ~ /^j/ && ins[j] !~ /^jmp/ && match(ins[j], /[0-9a-f]+ </))
                    if (hex(substr(ins[j], RSTART, RLENGTH - 2)) <= at[j]) inner = 0
                if (ins[j] ~ /zmm/) w = 64; else if (ins[j] ~ /ymm/ && w < 32) w = 32; else if (ins[j] ~ /xmm/ && w < 16) w = 16
            }
            if (!inner || !w) continue
            for (j = s; j < i; j++)
                if (ins[j] ~ /^j/ && ins[j] !~ /^jmp/ && match(ins[j], /[0-9a-f]+ </)) {
                    tj = hex(substr(ins[j], RSTART, RLENGTH - 2))
                    if (tj <= at[i]) for (c = j + 1; c < i && at[c] < tj; c++) cold[c] = 1 # a way out of the loop skips nothing
                }
            nl++; from[nl] = s; to[nl] = i; lw[nl] = w
            if (w > widest) widest = w
        }
        if (!widest) { print name ": no vector loop"; exit 1 }
        total = vload = sload = store = loops = 0; width = widest
        lanes = width / (name ~ /_f64_/ ? 8 : 4)
        for (l = 1; l <= nl; l++) {
            if (lw[l] != widest) continue
            loops++
            t0 = total; v0 = vload; s0 = sload; st0 = store; out = 0
            for (j = from[l]; j <= to[l]; j++) {
                if (cold[j]) continue
                x = ins[j]; total++
                if (x ~ /^(lea|nop)/ || x !~ /\(/) continue
                sub(/ +$/, "", x)
                if (x ~ /\)$/ || x ~ /\)[{]%k[0-7][}]$/) { store++; if (x ~ /%[xyz]mm/ && x !~ /rsp/) out++; continue } # memory is the destination
                if (x ~ /%[xyz]mm/ && x !~ /^vmovq/) vload++; else sload++
            }
            if (out < 1) out = 1
            line[loops] = sprintf("  loop %d, %d node(s) along z: %3d instructions, %3d vector loads, %3d scalar loads, %d stores: %.2f loads, %.2f instructions per update", loops, out, total - t0, vload - v0, sload - s0, store - st0, (vload - v0 + sload - s0) / (lanes * out), (total - t0) / (lanes * out))
        }
        printf "%-36s %d loop(s): %3d instructions, %2d vector loads, %2d scalar loads, %d stores per %d-byte vector (%d updates): %.2f loads, %.2f instructions per update\n",
               name, loops, total, vload, sload, store, width, lanes, (vload + sload) / lanes, total / lanes
        if (name ~ /_regza?$/ || name ~ /_fused_cpu$/) for (l = 1; l <= loops; l++) print line[l]
    }'
done
