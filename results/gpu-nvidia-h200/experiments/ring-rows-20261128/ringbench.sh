#!/bin/bash
# SCRATCH: builds ringbench.cu and reads, per configuration's second launch, ncu's L2 counters.
export PATH=/usr/local/cuda/bin:$PATH
D=$(dirname "$0")
OUT=${OUT:-.}
nvcc -O3 -arch=sm_90 -o "$OUT/ringbench" "$D/ringbench.cu" || exit 1
"$OUT/ringbench" >"$OUT/ringbench.log" 2>&1
m=gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum
m=$m,l1tex__m_xbar2l1tex_read_sectors.sum,dram__bytes_read.sum,smsp__inst_executed_op_ldgsts.sum
ncu --clock-control none --cache-control all --metrics "$m" --csv --page raw "$OUT/ringbench" >"$OUT/ncu.csv" 2>&1
python3 - "$OUT/ncu.csv" "$OUT/ringbench.log" "$m" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1]).read().splitlines()))
i = next(i for i, r in enumerate(rows) if "Kernel Name" in r)
h, runs = rows[i], rows[i + 2:]
c = {x: j for j, x in enumerate(h)}
cfgs = [l.split(":")[0] for l in open(sys.argv[2]) if l.startswith("cfg")]
keys = sys.argv[3].split(",")
print("| config | µs | L2 sectors | L2 requests | sectors/request | xbar sectors | DRAM MB | ldgsts |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for n, cfg in enumerate(cfgs):
    r = runs[2 * n + 1]
    v = [float(r[c[k]].replace(",", "")) for k in keys]
    print("| %s | %.1f | %.3g | %.3g | %.2f | %.3g | %.1f | %.3g |" % (cfg, v[0] / 1e3, v[1], v[2], v[1] / v[2], v[3], v[4] / 1e6, v[5]))
PY
