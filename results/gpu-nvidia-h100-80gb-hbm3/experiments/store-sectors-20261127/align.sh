#!/bin/bash
# SCRATCH: the aligned-interior store test, timed, then one launch each under ncu for DRAM bytes.
export PATH=/usr/local/cuda/bin:$PATH
cd "$(dirname "$0")" && nvcc -O3 -arch=sm_90 -o align align.cu || exit 1
for round in 1 2; do
  for cfg in "300 160 0 0" "300 160 6 0" "512 256 0 0" "512 256 6 1" "512 256 0 1" "300 64 0 0" "300 64 6 0"; do ./align $cfg; done
done
for cfg in "300 160 0 0" "300 160 6 0" "512 256 0 0" "512 256 6 1"; do
  echo "ncu $cfg:"; ncu --metrics dram__bytes_write.sum,dram__bytes_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum --launch-skip 5 --launch-count 1 ./align $cfg 2>&1 | grep -E 'dram__|l1tex__'
done
