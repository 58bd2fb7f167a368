#!/bin/sh
# In cache, one thread, thread CPU time (best of 7 a run): plain, regz and regza at 4 nodes, alternated ROUNDS times.
B=${B:-build/cputime}
for round in $(seq 1 ${ROUNDS:-20}); do
  for sn in fv24:15 fv24wb:16 s22:15; do
    s=${sn%:*} n=${sn#*:}
    for vn in plain:1 regz:4 regza:4; do
      v=${vn%:*} k=${vn#*:}
      echo "$round $s $v $($B ${s}_hx_f32_array_$v 128 $n $n 300 0 1 $k | awk '{print $5}')"
    done
  done
done
