#!/bin/bash
# The same generated kernels with their arrays' starts staggered: does the arrays' placement in
# DRAM (their offsets against one another) bound the passes?
d=$(dirname "$0")
inc="-Ikernels_gpu -Iengine -Istencils -Icodegen -Iharness"
for k in "yee 0 1 1" "yee 0 2 1" "fv24 0 1 4" "yee 0 0 1"; do
  set -- $k
  src=/tmp/s-$1-$3.cu
  ab-min/gen1 kernels_gpu/cpml.cu.layer $1 $2 0 0 $3 > $src
  name=$(grep -o 'l_[a-z0-9_]*_cpml_gpu' $src | head -1)
  nvcc -O3 -arch=sm_90 -std=c++17 $inc -DKSRC="\"$src\"" -DKNAME=$name -DAXIS_OF=$3 -DROWS=1 -o /tmp/lp $d/layer_pass.cu 2>&1 | grep -v Wno-deprecated | head -5
  for st in 0 32 64 256 1024 4096 65536 524288; do /tmp/lp $4 $st; done
done
