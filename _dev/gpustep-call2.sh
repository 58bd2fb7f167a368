#!/bin/bash
# device call 2 (gpustep): halo images in the fused kernels
set -u
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
mkdir -p /tmp/g && tar xzf _dev/gpustep-src.tgz -C /tmp/g && cd /tmp/g || exit 3
t0=$(date +%s)
mk=(make -j16 BUILD=build CUDA_ARCH=-gencode=arch=compute_90,code=sm_90)
{ time "${mk[@]}" build/fdtdbench build/tests/test_step build/tests/test_simulation ; } > "$OUT/build.log" 2>&1 || { tail -50 "$OUT/build.log"; exit 4; }
echo "build done $(( $(date +%s) - t0 ))s" >> "$OUT/run.log"
timeout 150 build/tests/test_step > "$OUT/test.log" 2>&1; echo "test_step rc=$? $(( $(date +%s) - t0 ))s" >> "$OUT/run.log"
timeout 100 build/tests/test_simulation >> "$OUT/test.log" 2>&1; echo "test_simulation rc=$? $(( $(date +%s) - t0 ))s" >> "$OUT/run.log"
S="build/fdtdbench step --device gpu --csv --results $OUT/res"
st() { echo "== $*" >> "$OUT/steps.log"; timeout 40 $S "$@" 2>>"$OUT/steps.err" | tail -n 1 >> "$OUT/steps.log"; }
for c in array uniform indexed; do
  for b in 512x1x1 256x2x1 256x1x1 128x4x1 1024x1x1; do st --grid 512 --scheme yee --variant fused --coef $c --block $b; done
done
st --grid 512 --scheme yee --coef array --boundary pec --variant fused --block 512x1x1
st --grid 512 --scheme yee --coef array
for s in fv24 fv24wb s22 s44; do for c in array uniform; do for b in 128x2x1 256x1x1 32x4x1; do st --grid 512 --scheme $s --variant fused --coef $c --block $b; done; done; done
for c in array uniform; do st --grid 256 --scheme yee --variant fused --coef $c --block 512x1x1; done
echo "steps done $(( $(date +%s) - t0 ))s" >> "$OUT/run.log"
OUT=$OUT timeout 100 bash scripts/gpu_step_profile.sh "--scheme yee --variant fused --grid 512 --block 512x1x1" "--scheme yee --variant fused --coef uniform --grid 512 --block 256x1x1" "--scheme yee --grid 512" > /dev/null 2>&1
echo "profile done $(( $(date +%s) - t0 ))s" >> "$OUT/run.log"
cd "$OUT" && tar czf ncu.tgz ncu-step-*.csv res 2>/dev/null; rm -rf ncu-step-*.csv res
cat run.log step-profile.log; grep -E "^ok|FAIL|passed|GPU" test.log; tail -5 steps.err
