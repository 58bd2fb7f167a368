#!/bin/sh
# In cache, one thread: regz and regza at 2 and 4 nodes along z, plain beside, ROUNDS alternated rounds.
# Grids: the in-cache table's for one thread on this VM (bench --tables incache).
B=${B:-build/fdtdbench}
for round in $(seq 1 ${ROUNDS:-5}); do
  for sg in yee:20 fv24:15 fv24wb:16 s22:15 s44:11; do
    s=${sg%:*} n=${sg#*:}
    for vn in plain:1 regz:2 regz:4 regza:2 regza:4; do
      v=${vn%:*} k=${vn#*:}
      $B run --device cpu --scheme $s --variant $v --nodes $k --grid 128x${n}x${n} --threads 1 --reps 5 --csv 2>/dev/null |
        awk -F, -v r=$round 'NR==2{print r, $2, $7, $12, $19, $36, $37}'
    done
  done
done
