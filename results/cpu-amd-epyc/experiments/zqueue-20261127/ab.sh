#!/bin/sh
# zqueue against regz in L2, one thread, thread CPU time: best of 7 samples a run, R rounds alternated
cd /work/main
R=${R:-5}
for round in $(seq $R); do
  for s in "fv24wb 128 6 6" "fv24 128 5 5" "s22 128 5 5" "yee 128 8 8" "s44 128 4 4"; do
    for coef in array uniform; do
      for v in "regz 2" "regz 1" "zqueue 2" "zqueue 1"; do
        set -- $s; vv=${v% *}; nn=${v#* }
        t=$(build/cputime ${1}_hx_f32_${coef}_$vv $2 $3 $4 2000 0 1 $nn 2>&1 | tail -1 | sed 's/.*: \([0-9.]*\) ns.*/\1/')
        echo "$1 $coef $vv$nn $t"
      done
    done
  done
done | awk '{k=$1" "$2" "$3; a[k]=a[k]" "$4} END {for (k in a) print k":"a[k]}' | sort
