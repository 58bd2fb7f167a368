#!/bin/bash
# What bounds each fused25d step row that the morning's ncu did not cover (11 of 15, f32, 512³,
# at the sitting's tuned launches, 25f8f21).
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || exit 1
specs=()
for sc in yee:uniform yee:indexed yee:array fv24:array fv24wb:indexed fv24wb:array s22:uniform s22:array \
    s44:uniform s44:indexed s44:array; do
    specs+=("step --scheme ${sc%:*} --variant fused25d --coef ${sc#*:} --grid 512")
done
timeout 330 bash scripts/gpu_bound.sh "${specs[@]}" >"$OUT/bound.md" 2>&1
(cd "$OUT" && tar czf ncu.tgz *.csv && rm -f *.csv)
cat "$OUT/bound.md" | cut -c1-330
