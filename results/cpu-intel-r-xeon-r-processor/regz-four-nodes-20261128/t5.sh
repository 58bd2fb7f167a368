#!/bin/sh
# Table 5's rows (Hx, f32, arrays, 300^3, 2 threads, the declared tile): regz and regza at 2 and 4
# nodes along z, ROUNDS alternated rounds; pct_bw is against the STREAM probes interleaved with the samples.
B=${B:-build/fdtdbench}
for round in $(seq 1 ${ROUNDS:-3}); do
  for s in yee fv24 fv24wb s22 s44; do
    for vn in regz:2 regz:4 regza:2 regza:4; do
      v=${vn%:*} k=${vn#*:}
      $B run --device cpu --scheme $s --variant $v --nodes $k --grid 300 --reps 5 --csv 2>/dev/null |
        awk -F, -v r=$round 'NR==2{print r, $2, $7, $12, $19, $21, $32}'
    done
  done
done
