#!/bin/bash
# Builds and times layer_pass.cu for each kernel below, from the old template (ab-old) and the new.
# Run from the repository root on the GPU machine: bash .../layer_pass.sh GEN_OLD GEN_NEW
d=$(dirname "$0")
inc="-Ikernels_gpu -Iengine -Istencils -Icodegen -Iharness"
for k in "yee 0 1 1" "yee 0 2 1" "yee 0 0 1" "fv24 0 1 4" "fv24 0 0 4"; do
  set -- $k
  for v in old new; do
    rows=0; [ $v = new ] && rows=1
    gen=ab-min/gen1; src=/tmp/k-$v-$1-$3.cu
    $gen $( [ $v = old ] && echo ab-min/kernels_gpu/cpml.cu.layer || echo kernels_gpu/cpml.cu.layer) $1 $2 0 0 $3 > $src
    name=$(grep -o 'l_[a-z0-9_]*_cpml_gpu' $src | head -1)
    nvcc -O3 -arch=sm_90 -std=c++17 $inc -DKSRC="\"$src\"" -DKNAME=$name -DAXIS_OF=$3 -DROWS=$rows -o /tmp/lp $d/layer_pass.cu 2>&1 | grep -v Wno-deprecated | head -5
    /tmp/lp $4
  done
done
