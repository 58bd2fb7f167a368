#!/bin/bash
# What bounds each fused25d step row at 512³ (all 15 are below 90% of the probe on the H100), f32,
# at the tuned launches of the fresh sitting at e0eacac (2026-12-06), code at 2a71812.
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || exit 1
specs=()
for sc in fv24:indexed s22:indexed fv24:uniform fv24wb:indexed s22:uniform fv24wb:uniform yee:uniform yee:indexed \
    yee:array fv24:array fv24wb:array s22:array s44:uniform s44:indexed s44:array; do
    specs+=("step --scheme ${sc%:*} --variant fused25d --coef ${sc#*:} --grid 512")
done
timeout 520 bash scripts/gpu_bound.sh "${specs[@]}" >"$OUT/bound.md" 2>&1
(cd "$OUT" && tar czf ncu.tgz *.csv && rm -f *.csv)
cut -c1-330 "$OUT/bound.md"
