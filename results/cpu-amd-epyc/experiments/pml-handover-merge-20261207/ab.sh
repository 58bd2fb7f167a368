#!/bin/bash
# old (zstore's lanes for the CPML hand-over; a build of 28e0854 in /tmp/b-old) against new (zmerge,
# build/), cputime, one thread, rounds alternated:
#   bash ab.sh ROUNDS "SCHEMES" "LAYERS" "NX NY NZ LAUNCHES"
#   cputime-300.txt:     bash ab.sh 3 "fv24 s22 fv24wb" "0 1 10" "300 300 300 3"
#   cputime-incache.txt: bash ab.sh 4 "fv24 s22" "0 1 2" "300 8 8 400"
rounds=$1 schemes=$2 layers=$3 grid=$4
for round in $(seq "$rounds"); do
  for s in $schemes; do
    for p in $layers; do
      for b in old new; do
        case $b in old) B=/tmp/b-old/cputime;; new) B=build/cputime;; esac
        echo "$round $b $s pml$p $($B ${s}_hx_f32_array_fused $grid 0 1 1 $p | grep -o '[0-9.]* ns/update')"
      done
    done
  done
done
