#!/bin/bash
# Where the weak-scaling rows lose their 5-8%: FV24 uniform and Yee uniform, 512^3 a GPU, on 1, 2
# and 4 GPUs, with the boundary-first overlap and without it, and NCCL's P2P by the copy engines
# (NCCL_P2P_USE_CUDA_MEMCPY=1: no SMs taken from the stencil) against its default SM kernels.
# Run from the repository root after a build, on a machine with several GPUs; rows to $OUT.
set -u
export NCCL_NVLS_ENABLE=0
out=${OUT:-.}/nccl-env.csv
for scheme in fv24 yee; do
    for g in 1 2 4; do
        for ov in yes no; do
            for env in "" NCCL_P2P_USE_CUDA_MEMCPY=1; do
                [ "$g" = 1 ] && { [ "$ov" = no ] || [ -n "$env" ]; } && continue
                echo "== $scheme gpus $g overlap $ov ${env:-default}"
                env $env build/fdtdbench step --device gpu --gpus "$g" --scheme "$scheme" --coef uniform --variant fused25d \
                    --grid 512x512x$((512 * g)) --overlap "$ov" --reps 7 --csv 2>&1 |
                    sed "s/^/$scheme,$g,$ov,${env:-default},/" | tee -a "$out"
            done
        done
    done
done
