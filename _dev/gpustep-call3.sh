#!/bin/bash
# device call 3 (gpustep): fused columns of 1, 2, 4 nodes along z
set -u
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
mkdir -p /tmp/g && tar xzf _dev/gpustep-src.tgz -C /tmp/g && cd /tmp/g || exit 3
t0=$(date +%s)
mk=(make -j16 BUILD=build CUDA_ARCH=-gencode=arch=compute_90,code=sm_90)
{ time "${mk[@]}" build/fdtdbench build/tests/test_step ; } > "$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 4; }
echo "build done $(( $(date +%s) - t0 ))s" >> "$OUT/run.log"
timeout 150 build/tests/test_step > "$OUT/test.log" 2>&1; echo "test_step rc=$? $(( $(date +%s) - t0 ))s" >> "$OUT/run.log"
S="build/fdtdbench step --device gpu --csv --results $OUT/res"
st() { echo "== $*" >> "$OUT/steps.log"; timeout 40 $S "$@" 2>>"$OUT/steps.err" | tail -n 1 >> "$OUT/steps.log"; }
for c in array uniform indexed; do for z in 1 2 4; do
  for b in 1024x1x1 512x1x1 256x1x1 128x2x1; do st --grid 512 --scheme yee --variant fused --coef $c --block $b --nodes $z; done
done; done
st --grid 512 --scheme yee --variant fused --precision f64 --block 512x1x1 --nodes 1
st --grid 512 --scheme yee --variant fused --precision f64 --block 512x1x1 --nodes 2
echo "yee done $(( $(date +%s) - t0 ))s" >> "$OUT/run.log"
for s in fv24 fv24wb s22 s44; do for c in array uniform; do for z in 1 2; do for b in 128x2x1 32x4x1 256x1x1; do
  st --grid 512 --scheme $s --variant fused --coef $c --block $b --nodes $z; done; done; done; done
echo "steps done $(( $(date +%s) - t0 ))s" >> "$OUT/run.log"
cd "$OUT" && tar czf res.tgz res 2>/dev/null; rm -rf res
cat run.log; grep -E "^ok|FAIL|passed|GPU" test.log; tail -5 steps.err
