#!/bin/bash
# SASS instruction mix of every fused25d f32 cubin in the kernel caches named: the loop's
# shared loads, FP adds, FMAs/multiplies, moves and all instructions (static counts, prologue
# and the queues' first-plane fill included).
for c in "$@"; do
    for f in "$c"/*; do
        s=$(cuobjdump -sass "$f" 2>/dev/null) || continue
        n=$(echo "$s" | grep -o 'Function : k_[a-z0-9_]*f32[a-z0-9_]*fused25d_gpu' | head -1 | cut -d' ' -f3)
        [ -n "$n" ] || continue
        ins=$(echo "$s" | grep -E '^\s+/\*[0-9a-f]{4}\*/')
        printf '%s %s LDS %d FADD %d FFMA/FMUL %d MOV %d total %d\n' "$(basename "$c")" "$n" \
            "$(echo "$ins" | grep -c ' LDS')" "$(echo "$ins" | grep -c ' FADD')" "$(echo "$ins" | grep -cE ' (FFMA|FMUL)')" \
            "$(echo "$ins" | grep -cE ' MOV ')" "$(echo "$ins" | wc -l)"
    done
done
