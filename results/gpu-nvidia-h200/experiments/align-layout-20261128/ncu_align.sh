#!/bin/bash
# ncu of the same kernels from the base tree (ab-old) and this tree: what the aligned layout changed.
export PATH=/usr/local/cuda/bin:$PATH
OUT=${OUT:-out}
make -j16 >/dev/null 2>&1 || { echo build failed; exit 1; }
make -C ab-old -j16 BUILD=build >/dev/null 2>&1 || { echo old build failed; exit 1; }
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum
m=$m,lts__t_requests_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,smsp__inst_executed.sum
m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__shared_mem_per_block_dynamic
m=$m,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors.sum,smsp__inst_executed_op_ldgsts.sum
m=$m,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed
m=$m,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
n=0
for spec in "run --scheme fv24 --variant tile25d --grid 300" "run --scheme yee --variant tile25d --grid 300"; do
    for side in old new; do
        n=$((n + 1))
        B=build/fdtdbench; [ $side = old ] && B=ab-old/build/fdtdbench
        FDTDBENCH_CACHE=$PWD/cache-$side ncu --clock-control none --cache-control none --metrics "$m" -k "regex:^k_" --csv --page raw \
            $B $spec --device gpu --reps 1 >"$OUT/ncu-$n.csv" 2>&1
        echo "== $side $spec"
        python3 - "$OUT/ncu-$n.csv" "$m" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1]).read().splitlines()))
i = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
if i is None: print(open(sys.argv[1]).read()[-800:]); sys.exit()
h, u, runs = rows[i], rows[i + 1], rows[i + 2:]
c = {x: j for j, x in enumerate(h)}
r = runs[-1]
want = sys.argv[2].split(',')
for k in want:
    if k in c: print("  %-70s %s %s" % (k, r[c[k]], u[c[k]]))
print("  launches", len(runs), r[c["Kernel Name"]])
PY
    done
done
