#!/bin/sh
# Counts what a CPU kernel's vector loop issues, from its machine code: counts that no other
# process on the machine can change (timings here can be noisy; VMs hide the hardware counters).
#   sh scripts/loop_counts.sh BUILD KERNEL...     e.g. build k_fv24_hx_f32_array_plain
# For each kernel: the innermost loop with the widest vectors and the most vector instructions
# (the main SIMD loop, not a remainder), and per loop pass:
# instructions, vector loads (memory operands read by a vector instruction), scalar loads
# (spilled pointers and the like), stores, and the vector width; then vector loads per update.
set -eu
[ $# -ge 2 ] || { echo "usage: sh scripts/loop_counts.sh BUILD KERNEL..."; exit 2; }
build=$1
shift
obj="$build/gen/cpu_kernels.o"
[ -f "$obj" ] || { echo "loop_counts: no $obj (build first)"; exit 2; }
for k in "$@"; do
    objdump -d --no-show-raw-insn "$obj" | awk -v name="$k" '
    function hex(h,   v, i) { v = 0; for (i = 1; i <= length(h); i++) v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1; return v }
    /^[0-9a-f]+ <.*>:$/ { on = index($0, "<" name ".") > 0 || index($0, "<" name ">") > 0; next }
    on && /^ +[0-9a-f]+:\t/ {
        split($0, f, "\t"); gsub(/ /, "", f[1]); n++; at[n] = hex(substr(f[1], 1, length(f[1]) - 1)); ins[n] = f[2]
    }
    END {
        if (!n) { print name ": not found"; exit 1 }
        best = 0
        for (i = 1; i <= n; i++) {
            if (ins[i] !~ /^j/ || ins[i] ~ /^jmp/) continue
            if (!match(ins[i], /[0-9a-f]+ </)) continue
            target = hex(substr(ins[i], RSTART, RLENGTH - 2))
            if (target >= at[i]) continue
            for (s = i; s > 1 && at[s] > target; s--) ;
            inner = 1; vec = 0; w = 1
            for (j = s; j < i; j++) {
                if (ins[j] ~ /^j/ && ins[j] !~ /^jmp/) inner = 0
                if (ins[j] ~ /[xyz]mm/) vec++
                if (ins[j] ~ /zmm/) w = 3; else if (ins[j] ~ /ymm/ && w < 2) w = 2
            }
            score = w * 100000 + vec  # the widest vectors first: the main loop, not a remainder
            if (inner && vec && score > bestscore) { bestscore = score; best = i; start = s }
        }
        if (!best) { print name ": no vector loop"; exit 1 }
        total = vload = sload = store = 0; width = 16
        for (j = start; j <= best; j++) {
            x = ins[j]; total++
            if (x ~ /zmm/) width = 64; else if (x ~ /ymm/ && width < 32) width = 32
            if (x ~ /^(lea|nop)/ || x !~ /\(/) continue
            sub(/ +$/, "", x)
            if (x ~ /\)$/) { store++; continue }       # memory is the destination
            if (x ~ /%[xyz]mm/ && x !~ /^vmovq/) vload++; else sload++
        }
        lanes = width / (name ~ /_f64_/ ? 8 : 4)
        printf "%-36s %3d instructions, %2d vector loads, %2d scalar loads, %d stores per pass; %d-byte vectors (%d updates): %.2f vector loads, %.2f instructions per update\n",
               name, total, vload, sload, store, width, lanes, vload / lanes, total / lanes
    }'
done
