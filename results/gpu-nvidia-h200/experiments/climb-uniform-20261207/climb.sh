#!/bin/bash
# The longer climb (4d5b746) on a lent GPU with its committed tuned file: the uniform Hx kernels
# tuned again from the committed f32 array winners, then make bench's uniform table with the
# committed file and with the new one, alternated twice. Repo root; writes under $OUT.
set -u
OUT=${OUT:-climb-out}
mkdir -p "$OUT"
slug=$(echo "gpu-$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)" | tr 'A-Z' 'a-z' |
    sed 's/[^a-z0-9]\{1,\}/-/g; s/-$//')
conf=results/tuned/$slug.conf
make -j16 >/dev/null 2>&1 || { echo "build failed"; exit 1; }
cp "$conf" "$OUT/old.conf"
build/fdtdbench tune --component hx --coef uniform --force 2>&1 | grep -v '^\[' | tee "$OUT/tune.log"
cp "$conf" "$OUT/new.conf"
for round in 1 2; do
    for side in old new; do
        cp "$OUT/$side.conf" "$conf"
        echo "== round $round, $side"
        build/fdtdbench bench --device gpu --tables uniform --results "$OUT/$side$round" 2>&1 | tail -n 3
    done
done
cp "$OUT/new.conf" "$conf"
# one archive: the device tool brings back only a few files a call
tar czf "$OUT/benches.tgz" -C "$OUT" old1 old2 new1 new2 && rm -rf "$OUT"/old[12] "$OUT"/new[12]
