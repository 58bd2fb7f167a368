#!/bin/bash
# ncu of single generated layer kernels timed alone (layer_shape.sh's binaries, which it builds
# and times first): scripts/gpu_bound.sh's counters for one launch each (the sixth), so no
# verification launch is profiled.
d=$(dirname "$0")
bash $d/layer_shape.sh > $OUT/shape.log 2>&1
sed -e 's/--metrics "\$metrics"/--launch-skip 5 --launch-count 1 --metrics "$metrics"/' \
    -e 's#"\$B" \$spec --device gpu --reps 1#"$BIN" $spec#' scripts/gpu_bound.sh > /tmp/bound-run.sh
# 1-D committed order and 1-D loads first: Yee y, FV24 y, S{2,2} E y, Yee x, FV24 x
for n in 001 002 017 018 033 034 049 057; do
  G=$(awk -v n=$n '$1 == n { print $3 }' /tmp/shape/list); label=$(awk -v n=$n '$1 == n { print $2 }' /tmp/shape/list)
  mkdir -p $OUT/ncu-$n
  echo "$n $label $(BIN=/tmp/shape/$n KERNELS='^l_' OUT=$OUT/ncu-$n bash /tmp/bound-run.sh "$G 0 256" | tail -1)"
done
