#!/bin/sh
# In cache, one thread: each kernel with the arrays as cpu_alloc places them (default) and at n * S mod 4 KiB.
B=${B:-build/cputime}
for round in $(seq 1 ${ROUNDS:-3}); do
  for kn in fv24_hx_f32_array_regz:15:4 fv24_hx_f32_array_regza:15:4 fv24_hx_f32_array_plain:15:1 s22_hx_f32_array_regza:15:4 fv24wb_hx_f32_array_regza:16:4; do
    k=${kn%%:*} rest=${kn#*:} n=${rest%%:*} nodes=${rest#*:}
    for st in default 0 1088 2112; do
      if [ $st = default ]; then r=$($B $k 128 $n $n 300 0 1 $nodes); else r=$(CPUTIME_STAGGER=$st $B $k 128 $n $n 300 0 1 $nodes); fi
      echo "$round $k stagger=$st $(echo "$r" | awk '{print $5}')"
    done
  done
done
