#!/bin/bash
# Launch shape against term order: 1-D blocks (committed order, loads first), row blocks of
# 256x1, 64x4 and 32x8 (committed order, loads first), each generated kernel timed alone
# (layer_pass.cu). Compiled in parallel, then timed one by one.
d=$(dirname "$0")
inc="-Ikernels_gpu -Iengine -Istencils -Icodegen -Iharness"
w=/tmp/shape; rm -rf $w; mkdir -p $w
i=0
for k in "yee 0 1 1" "yee 0 2 1" "fv24 0 1 4" "fv24 0 2 4" "s22 3 1 4" "fv24wb 0 1 3" "yee 0 0 1" "fv24 0 0 4"; do
  set -- $k
  for c in "ab-min 0 1-D,committed-order 256" "ab-min/fix1d 0 1-D,loads-first 256" \
           "ab-min/rowsA 1 rows,committed-order 256" ". 1 rows,loads-first 256" \
           "ab-min/rowsA 1 rows,committed-order 64" ". 1 rows,loads-first 64" \
           "ab-min/rowsA 1 rows,committed-order 32" ". 1 rows,loads-first 32"; do
    set -- $k $c
    i=$((i + 1)); n=$(printf %03d $i)
    ab-min/gen1 $5/kernels_gpu/cpml.cu.layer $1 $2 0 0 $3 > $w/$n.cu
    name=$(grep -o 'l_[a-z0-9_]*_cpml_gpu' $w/$n.cu | head -1)
    echo "nvcc -O3 -arch=sm_90 -std=c++17 $inc -DKSRC='\"$w/$n.cu\"' -DKNAME=$name -DAXIS_OF=$3 -DROWS=$6 -o $w/$n $d/layer_pass.cu 2>/dev/null" > $w/$n.cmd
    echo "$n $7 $4 $8" >> $w/list
  done
done
ls $w/*.cmd | xargs -P 16 -n 1 sh
while read n label G bw; do
  echo -n "$label $(cuobjdump -res-usage $w/$n 2>/dev/null | grep -o 'REG:[0-9]*' | head -1) "; $w/$n $G 0 $bw
done < $w/list
