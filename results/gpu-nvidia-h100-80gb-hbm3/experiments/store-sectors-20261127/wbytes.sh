#!/bin/bash
# SCRATCH: where tile25d's excess DRAM writes come from (Table 4, H100): store sectors at L1, at L2, and DRAM bytes.
export PATH=/usr/local/cuda/bin:$PATH
make -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read.sum
m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,lts__t_sectors_srcunit_tex_op_write.sum
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,smsp__inst_executed_op_global_st.sum,lts__t_sectors_op_red.sum,lts__t_sectors_op_atom.sum
n=0
for spec in "run --scheme fv24 --variant tile25d --grid 512" "run --scheme yee --variant linear --grid 512" "run --scheme fv24 --variant tile25d --grid 300" "run --scheme s44 --variant tile25d --grid 512" "run --scheme fv24 --variant linear --grid 512"; do
  n=$((n+1))
  ncu --clock-control none --cache-control none --metrics "$m" -k "regex:^k_" --csv --page raw build/fdtdbench $spec --device gpu --reps 1 > $OUT/wb-$n.csv 2>&1
  echo "== $spec"; python3 - $OUT/wb-$n.csv <<'PY'
import csv,sys
rows=list(csv.reader(open(sys.argv[1]).read().splitlines()))
i=next((i for i,r in enumerate(rows) if "Kernel Name" in r),None)
if i is None: print(open(sys.argv[1]).read()[-500:]); sys.exit()
h,u,runs=rows[i],rows[i+1],rows[i+2:]
c={x:j for j,x in enumerate(h)}
r=runs[-1]
for k in h:
    if '__' in k: print("  %-55s %s %s"%(k,r[c[k]],u[c[k]]))
print("  launches", len(runs), r[c["Kernel Name"]], r[c.get("Block Size",0)], r[c.get("Grid Size",0)])
PY
done
