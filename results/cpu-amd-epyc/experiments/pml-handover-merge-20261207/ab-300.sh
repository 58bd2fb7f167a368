#!/bin/bash
# old (zstore's lanes for the CPML hand-over) against new (zmerge), cputime, one thread, 300^3
for round in 1 2 3; do
  for s in fv24 s22 fv24wb; do
    for p in 0 1 10; do
      for b in old new; do
        case $b in old) B=/tmp/b-old/cputime;; new) B=/work/main/build/cputime;; esac
        echo "$round $b $s pml$p $($B ${s}_hx_f32_array_fused 300 300 300 3 0 1 1 $p | grep -o '[0-9.]* ns/update')"
      done
    done
  done
done
