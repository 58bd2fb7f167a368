#!/bin/bash
# Alternates launches of one kernel on a lent GPU (repo root, build/fdtdbench built), three rounds:
# each line of LAUNCHES below is "scheme component coef block nodes rows stages", all tile25d at
# 512^3, f32. Prints: round scheme component coef block nodes rows stages MCells/s pct_bw.
set -u
LAUNCHES=(
    "fv24 hx uniform 128x1x1 16 4 3"   # 4d5b746's tune (the longer climb)
    "fv24 hx uniform 128x2x1 16 4 2"   # a69fc06's tune
    "fv24 hx uniform 64x2x1 32 4 3"    # a591435's tune (four rounds)
    "s22 hz array 256x2x1 64 2 2"      # 4d5b746's tune: 89.65% in its bench
    "s22 hz array 256x1x1 64 1 4"      # a591435's tune: 91.74%
)
for round in 1 2 3; do
    for l in "${LAUNCHES[@]}"; do
        read -r s c coef b n r st <<<"$l"
        build/fdtdbench run --device gpu --scheme "$s" --component "$c" --coef "$coef" --variant tile25d \
            --grid 512 --block "$b" --nodes "$n" --rows "$r" --stages "$st" --csv 2>/dev/null |
            awk -F, -v round="$round" -v l="$l" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
                { print round, l, $col["mcells_per_s"], $col["pct_bw"] }'
    done
done
