#!/bin/bash
# A component's climb (the commit after 4d5b746) on a lent GPU with its committed tuned file:
# FV24's, FV24-WB's and S{2,2}'s tile25d kernels tuned again at 512^3 (Hx, then the other five
# components from Hx's winner), then make bench's components table with the committed file and
# the new one, alternated twice. Repo root; writes under $OUT.
set -u
OUT=${OUT:-component-climb-out}
mkdir -p "$OUT"
slug=$(echo "gpu-$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)" | tr 'A-Z' 'a-z' |
    sed 's/[^a-z0-9]\{1,\}/-/g; s/-$//')
conf=results/tuned/$slug.conf
make -j16 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
cp "$conf" "$OUT/old.conf"
build/fdtdbench tune --scheme fv24,fv24wb,s22 --variant tile25d --force 2>&1 | tee "$OUT/tune.log" |
    grep -E "best|measurements"
cp "$conf" "$OUT/new.conf"
for round in 1 2; do
    for side in old new; do
        cp "$OUT/$side.conf" "$conf"
        echo "== round $round, $side"
        build/fdtdbench bench --device gpu --tables components --results "$OUT/$side$round" 2>&1 | grep -E "rows measured"
    done
done
cp "$OUT/new.conf" "$conf"
