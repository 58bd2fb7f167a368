#!/bin/sh
# Counts what a CPU kernel's vector loop issues, from its machine code (as fdtdbench compiles it
# at run time: kernel_objs.sh): counts that no other process on the machine can change (timings
# here can be noisy; VMs hide the hardware counters).
#   sh scripts/loop_counts.sh BUILD KERNEL...     e.g. build k_fv24_hx_f32_array_plain
#   GRID=128x15x15 sh scripts/loop_counts.sh ...   regz compiled for that grid's strides (512^3's if not given)
# For each kernel: its main vector loops (innermost loops at its widest vector width; a kernel
# in two passes has two), and per vector of updates: instructions, vector loads (memory
# operands read by a vector instruction), scalar loads (spilled pointers and the like),
# stores (masked ones too; rarely run blocks, such as regz's lane-by-lane store of a row's
# partial vector with AVX2, left out: scripts/loops.awk); then loads and instructions per update.
# A kernel with a loop per node count (regz: one for each number of nodes along z per pass, and
# GCC splits each into a loop for a row's first vector and one for the rest) also gets a line
# per loop, its nodes counted as its vector stores that are not to the stack.
set -eu
[ $# -ge 2 ] || { echo "usage: sh scripts/loop_counts.sh BUILD KERNEL..."; exit 2; }
build=$1
shift
[ -x "$build/fdtdbench" ] || { echo "loop_counts: no $build/fdtdbench (build first)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/kernel_objs.sh"
kernel_objs "$build" "$tmp" "$@" || exit 2
# the main loops (loops.awk: innermost, rarely run blocks left out) at the kernel's widest vector
# width, counted per vector of updates
cat >"$tmp/counts.awk" <<'EOF'
END {
    if (!n) { print name ": not found"; exit 1 }
    widest = 0
    for (l = 1; l <= find_loops(); l++) if (width[l] > widest) widest = width[l]
    if (!widest) { print name ": no vector loop"; exit 1 }
    total = vload = sload = store = loops = 0
    lanes = widest / (name ~ /_f64_/ ? 8 : 4)
    for (l = 1; l <= nl; l++) {
        if (width[l] != widest) continue
        loops++
        t0 = total; v0 = vload; s0 = sload; st0 = store; out = 0
        for (h = 1; h <= nh[l]; h++) {
            x = ins[hot[l, h]]; total++
            if (x ~ /^(lea|nop)/ || x !~ /\(/) continue
            sub(/ +$/, "", x)
            if (x ~ /\)$/ || x ~ /\)[{]%k[0-7][}]$/) { store++; if (x ~ /%[xyz]mm/ && x !~ /rsp/) out++; continue } # memory is the destination
            if (x ~ /%[xyz]mm/ && x !~ /^vmovq/) vload++; else sload++
        }
        if (out < 1) out = 1
        line[loops] = sprintf("  loop %d, %d node(s) along z: %3d instructions, %3d vector loads, %3d scalar loads, %d stores: %.2f loads, %.2f instructions per update", loops, out, total - t0, vload - v0, sload - s0, store - st0, (vload - v0 + sload - s0) / (lanes * out), (total - t0) / (lanes * out))
    }
    printf "%-36s %d loop(s): %3d instructions, %2d vector loads, %2d scalar loads, %d stores per %d-byte vector (%d updates): %.2f loads, %.2f instructions per update\n",
           name, loops, total, vload, sload, store, widest, lanes, (vload + sload) / lanes, total / lanes
    if (name ~ /_regza?$/ || name ~ /_fused_cpu$/) for (l = 1; l <= loops; l++) print line[l]
}
EOF
for k in "$@"; do
    objdump -d --no-show-raw-insn "$tmp/$k.so" | awk -v name="$k" -f "$(dirname "$0")/loops.awk" -f "$tmp/counts.awk"
done
