#!/bin/bash
# Call 3 on a machine with several GPUs: the interior queued before NCCL's group, NCCL on a
# stream of the greatest priority (71c8911), against the order before it (ab-old, 2762b8e),
# alternated ROUNDS times (scripts/ab.sh); NCCL's P2P channels; then the scaling tables with the
# new order in one file; then test_decomp (NCCL across 2 and all GPUs) unless TESTS=0.
#   SOURCE_COMMIT=<sha> [ROUNDS=2] [TESTS=1] [CHANNELS=1] bash call3.sh     (carry ab-old)
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_HOME=$(python3 -c 'import nvidia.nccl as n; print(n.__path__[0])')
export PATH=/usr/local/cuda/bin:$PATH
g=$(nvidia-smi -L | wc -l)
w() { echo "step --device gpu --gpus $1 --scheme $2 --coef $3 --variant fused25d --grid 512x512x$((512 * $1)) --reps 5"; }
timeout 200 env OLD=ab-old bash scripts/ab.sh -r "${ROUNDS:-2}" -k 'mcells_per_s|median_ms' "$(w "$g" fv24wb uniform)" \
    "$(w "$g" fv24 uniform)" "$(w "$g" yee uniform)" 2>&1 | tee "$OUT/ab.log"
# NCCL's channels a peer: the exchange ran at about 70 GB/s a direction (0.12 ms for FV24's 8.6 MB),
# a sixth of NVLink's; more channels, or larger P2P chunks, for the no-overlap FV24 step
[ "${CHANNELS:-1}" = 0 ] || for env in "" NCCL_MIN_P2P_NCHANNELS=8 NCCL_MIN_P2P_NCHANNELS=16 NCCL_P2P_NVL_CHUNKSIZE=2097152; do
    echo "== ${env:-default}: $(env $env build/fdtdbench step --device gpu --gpus "$g" --scheme fv24 --coef uniform \
        --variant fused25d --grid 512x512x$((512 * g)) --overlap no --reps 5 2>&1 | grep -E '^ +(median_ms|mcells_per_s) ' | tr -s ' \n' ' ')"
done 2>&1 | tee "$OUT/nccl-channels.log"
SKIP_TESTS=1 SOURCE_COMMIT=${SOURCE_COMMIT:-} SESSION_SECONDS=${BENCH_SECONDS:-150} bash scripts/gpu_session.sh "bench --device gpu --tables weak,strong"
[ "${TESTS:-1}" = 0 ] && exit 0
timeout 230 make -j16 test ONLY=test_decomp > "$OUT/test_decomp.log" 2>&1; echo "test_decomp: exit $?"; tail -4 "$OUT/test_decomp.log"
