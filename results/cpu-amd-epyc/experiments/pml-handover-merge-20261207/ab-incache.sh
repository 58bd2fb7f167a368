#!/bin/bash
for round in 1 2 3 4; do
  for s in fv24 s22; do
    for p in 0 1 2; do
      for b in old new; do
        case $b in old) B=/tmp/b-old/cputime;; new) B=/work/main/build/cputime;; esac
        echo "$round $b $s pml$p $($B ${s}_hx_f32_array_fused 300 8 8 400 0 1 1 $p | grep -o '[0-9.]* ns/update')"
      done
    done
  done
done
