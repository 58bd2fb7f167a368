#!/bin/bash
# FV24's Table 4 row at 300^3 (tile25d, 85% of the probe): ncu showed one block an SM (225 KB of
# shared memory, 10 warps) and 11 waves of blocks of 32 planes, so each block's pipeline fill is
# exposed. Launches with fewer stages (two blocks an SM) and other chunks, each once, pct_bw.
# OUT=... bash tile25d-300-sweep.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >"$OUT/build.log" 2>&1 || { tail "$OUT/build.log"; exit 1; }
r() { echo "$*: $(build/fdtdbench run --device gpu --scheme fv24 --variant tile25d --grid 300 $* 2>&1 |
      grep -E "^ +(pct_bw|mcells_per_s) |rror|refused" | awk '{printf "%s=%s ", $1, $2}')"; }
{
r
for b in 160x2x1 160x4x1 320x1x1; do for rows in 1 2; do for st in 1 2 3 4; do for n in 20 32 60 100; do
    r --block $b --rows $rows --stages $st --nodes $n; done; done; done; done
} 2>&1 | tee "$OUT/sweep.log" | tail -3
