#!/bin/bash
# wave25d, five templates alternated, two rounds, 512^3, f32, uniform, periodic: old (93aacf7:
# rows BY apart, each row stored before the next is read), adj (rows adjacent only: adj.patch on
# old), delay (stores after all rows only: delay.patch on old), head (6205485: both) and skip
# (6d0b913, the tree it runs in: a thread whose rows all lie outside the level's right rows skips
# the level, at any rows a thread). Then one launch each of old and head under ncu. Run on the
# lent H200 (2026-12-07) with ab-old/ carried:
#   mkdir -p ab-old && git show 93aacf7:kernels_gpu/wave25d.cu.step > ab-old/wave25d.cu.step
#   git show 6205485:kernels_gpu/wave25d.cu.step > ab-old/wave25d-head.cu.step
#   for v in adj delay; do cp ab-old/wave25d.cu.step ab-old/wave25d-$v.cu.step
#       patch ab-old/wave25d-$v.cu.step < results/gpu-nvidia-h200/experiments/wave25d-warp-skip-20261207/$v.patch; done
#   OUT=dir bash ab3.sh
set -u
export PATH=/usr/local/cuda/bin:$PATH
cp kernels_gpu/wave25d.cu.step /tmp/skip.step
for v in old adj delay head; do
    case $v in old) t=ab-old/wave25d.cu.step ;; *) t=ab-old/wave25d-$v.cu.step ;; esac
    cp "$t" kernels_gpu/wave25d.cu.step && make -j16 BUILD=build-$v >/dev/null 2>&1 || echo "build-$v FAILED"
done
cp /tmp/skip.step kernels_gpu/wave25d.cu.step
make -j16 BUILD=build-skip >/dev/null 2>&1 || echo "build-skip FAILED"
# scheme:tsteps:rows:block
runs="fv24:1:4:32x8x1 s22:1:4:32x8x1 fv24wb:1:2:32x16x1 fv24wb:1:4:32x8x1 fv24wb:1:1:64x16x1
      fv24:2:4:32x8x1 s22:2:4:32x8x1 yee:3:2:32x8x1 yee:4:1:32x32x1"
for round in 1 2; do
    for r in $runs; do
        IFS=: read -r s t rows blk <<<"$r"
        for v in old adj delay head skip; do
            line=$(build-$v/fdtdbench step --device gpu --variant wave25d --coef uniform --grid 512 --scheme $s \
                --tsteps $t --rows $rows --block $blk --reps 5 --csv --results /tmp/ab-results 2>>"$OUT/ab3.err" | tail -n 1)
            echo "$round $v $s T$t rows$rows $blk $(echo "$line" | cut -d, -f31,38)" | tee -a "$OUT/ab3.log"
        done
    done
done
# Then one launch each under ncu, old against head (FV24-WB's loss, FV24's gain, T = 1)
m=gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
m=$m,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum
m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers
m=$m,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio
for r in fv24wb:1:2:32x16x1 fv24:1:4:32x8x1; do
    IFS=: read -r s t rows blk <<<"$r"
    for v in old head; do
        echo "== $v $s T$t rows$rows $blk" >>"$OUT/ab3-ncu.log"
        ncu --clock-control none --metrics "$m" -k "regex:wave25d" --launch-skip 8 --launch-count 1 --csv --page raw \
            build-$v/fdtdbench step --device gpu --variant wave25d --coef uniform --grid 512 --scheme $s \
            --tsteps $t --rows $rows --block $blk --reps 1 --results /tmp/ab-results >>"$OUT/ab3-ncu.log" 2>&1
    done
done
