#!/bin/sh
# Table 5's rows (Hx, f32, arrays, 300^3, 2 threads) with the arrays on 4 KiB pages and on 2 MiB
# transparent huge pages (HUGE=1: madvise(MADV_HUGEPAGE) in cpu_alloc, the STREAM probe's arrays
# too), ROUNDS alternated rounds.
B=${B:-build/fdtdbench}
for round in $(seq 1 ${ROUNDS:-3}); do
  for s in yee fv24 fv24wb s22 s44; do
    for v in plain regz regza; do
      for h in 0 1; do
        if [ $h = 1 ]; then export HUGE=1; else unset HUGE; fi
        $B run --device cpu --scheme $s --variant $v --grid 300 --reps 5 --csv 2>/dev/null |
          awk -F, -v r=$round -v h=$h 'NR==2{print r, h, $2, $7, $12, $19, $21, $28, $32}'
      done
    done
  done
done
