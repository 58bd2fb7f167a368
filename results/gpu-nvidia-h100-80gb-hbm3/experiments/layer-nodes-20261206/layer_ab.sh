#!/bin/bash
# scratch: the GPU layer kernels at 1, 2 and 4 slab cells along z a thread (FDTDBENCH_LAYER_NODES="X,Y,Z")
set -u -o pipefail
OUT=${OUT:-.}
cd "$(dirname "$0")"
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/gpu.txt
make -j16 all build/tests/test_pml >$OUT/build.log 2>&1 || { tail $OUT/build.log; exit 1; }
export FDTDBENCH_CACHE=/tmp/kc
for rz in 1:1,1,1 1:2,2,1 1:2,2,2 1:4,4,1 2:1,1,1 2:2,2,1 2:2,2,2 2:4,4,1; do r=${rz%%:*} z=${rz#*:}; for s in ${SCHEMES:-yee fv24 fv24wb s22 s44}; do
  [ $SECONDS -gt 290 ] && { echo "skipped $r $z $s: time"; continue; }
  FDTDBENCH_LAYER_NODES=$z timeout 60 build/fdtdbench step --device gpu --scheme $s --variant fused --coef array --grid 512 --pml 10 --reps 3 --results /tmp/ab 2>&1 |
    awk -v z=$z -v s=$s -v r=$r '$1 ~ /^(layer_ms|layer_pct_bw|layer_share|pct_bw|mcells_per_s|verified)$/ {l = l " " $1 "=" $2} /FAILED|rror/ {print r, z, s, $0} END {print r, z, s, l}'
done; done | tee $OUT/layer-nodes.log
left() { echo $((540 - SECONDS)); }
for z in 2,2,2 4,4,4; do [ "$(left)" -gt 30 ] || break; echo "== test_pml at $z"; FDTDBENCH_LAYER_NODES=$z timeout $(left) build/tests/test_pml 2>&1 | tail -4; done | tee $OUT/test.log
[ "$(left)" -gt 30 ] && { echo "== cost --measure on the GPU (its first run on one)"; timeout $(left) build/fdtdbench cost --size 10 --device gpu --measure --results /tmp/costr 2>&1 | tail -40 | tee $OUT/cost-gpu.log; }
