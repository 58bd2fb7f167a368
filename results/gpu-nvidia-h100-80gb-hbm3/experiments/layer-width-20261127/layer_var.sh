#!/bin/bash
# What in a generated layer kernel's body costs its y pass (new template, row launch): the kernel
# as generated, then with plain stores instead of store_images_at, without __restrict__, both.
d=$(dirname "$0")
inc="-Ikernels_gpu -Iengine -Istencils -Icodegen -Iharness"
for k in "yee 0 1 1" "fv24 0 1 4" "yee 0 0 1"; do
  set -- $k
  base=/tmp/v-$1-$3.cu
  ab-min/gen1 kernels_gpu/cpml.cu.layer $1 $2 0 0 $3 > $base
  name=$(grep -o 'l_[a-z0-9_]*_cpml_gpu' $base | head -1)
  sed 's/store_images_at<REAL>(O_\([01]\), n, [^;]*v\[\([01]\)\]);/O_\1[n] = v[\2];/' $base > /tmp/v-plain.cu
  sed 's/__restrict__//g' $base > /tmp/v-norestrict.cu
  sed 's/__restrict__//g' /tmp/v-plain.cu > /tmp/v-both.cu
  for v in $base /tmp/v-plain.cu /tmp/v-norestrict.cu /tmp/v-both.cu; do
    nvcc -O3 -arch=sm_90 -std=c++17 $inc -DKSRC="\"$v\"" -DKNAME=$name -DAXIS_OF=$3 -DROWS=1 -o /tmp/lp $d/layer_pass.cu 2>&1 | grep -v Wno-deprecated | head -5
    echo -n "$(basename $v) "; /tmp/lp $4
    cuobjdump -res-usage /tmp/lp 2>/dev/null | grep -o 'REG:[0-9]*' | head -1
  done
done
