#!/bin/bash
# Where a kernel's instructions and stalls go, part by part (ncu's source counters on a lent GPU,
# clocks and caches left as they are):
#   bash scripts/gpu_source.sh "run ARGS" "step ARGS" ...
#   e.g. "step --scheme yee --variant wave25d --coef uniform --grid 512"
# For each spec, the last profiled launch of each kernel (the timed one) is split at its block
# barriers (BAR.SYNC: a wave25d pass's levels, a tiled kernel's planes), and again before each
# part's first global store that most warps run (a plane's stores, apart from its arithmetic),
# and each part gets its share of the warp instructions executed and of the warp stall samples, and its share of
# instructions in code that at most a tenth of the warps of the kernel's busiest instruction run
# (branches rarely taken: the halo images of the tiles at the grid's faces, say). Then the
# kernel's most executed opcodes and its largest stall reasons. With NCU_CSV=FILE, reads an ncu
# CSV written before (`--page source --print-source sass --csv`) instead of running ncu.
# KERNELS: which kernels, a regex of their names (^k_). Needs build/fdtdbench and ncu; writes
# $OUT/source.log (Markdown) and one ncu CSV per spec.
set -u -o pipefail
OUT=${OUT:-.}
KERNELS=${KERNELS:-^k_}
B=${BUILD:-build}/fdtdbench
n=0
[ -n "${NCU_CSV:-}" ] && set -- "from $NCU_CSV"
for spec in "$@"; do
    n=$((n + 1))
    csv=${NCU_CSV:-$OUT/ncu-source-$n.csv}
    if [ -z "${NCU_CSV:-}" ]; then
        # shellcheck disable=SC2086 # the spec is a list of words
        ncu --clock-control none --cache-control none --section SourceCounters -k "regex:$KERNELS" --csv \
            --page source --print-source sass "$B" $spec --device gpu --reps 1 >"$csv" 2>&1
    fi
    echo "## $spec"
    python3 - "$csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
starts = [i for i, r in enumerate(rows) if r and r[0] == "Kernel Name"]
if not starts:
    print("no source counters: " + " ".join(" ".join(r) for r in rows[-5:])[-300:]); sys.exit()
last = {}  # each kernel's last launch: the timed one
for s, e in zip(starts, starts[1:] + [len(rows)]):
    last[rows[s][1]] = rows[s + 1:e]
def num(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
for name, sec in last.items():
    head = sec[0]
    col = {h: i for i, h in enumerate(head)}
    data = [r for r in sec[1:] if len(r) == len(head)]
    ex = [num(r[col["Instructions Executed"]]) for r in data]
    sm = [num(r[col["Warp Stall Sampling (All Samples)"]]) for r in data]
    src = [r[col["Source"]].split() for r in data]
    total, samples, busiest = sum(ex) or 1, sum(sm) or 1, max(ex) or 1
    # [name, instructions, samples, instructions of rarely run code]
    parts, part, stored, barriers = [], ["0", 0, 0, 0], False, 0
    ops, stalls = {}, {}
    for e, s, words in zip(ex, sm, src):
        op = (words[1] if words and words[0].startswith("@") and len(words) > 1 else words[0] if words else "").split(".")[0]
        if op == "STG" and e > busiest / 10 and not stored:
            parts.append(part); part, stored = [part[0] + ", stores", 0, 0, 0], True
        part[1] += e; part[2] += s
        if 0 < e <= busiest / 10: part[3] += e
        ops[op] = ops.get(op, 0) + e
        if words and "BAR.SYNC" in " ".join(words[:2]):
            barriers += 1
            parts.append(part); part, stored = [str(barriers), 0, 0, 0], False
    parts.append(part)
    for h, i in col.items():
        if h.startswith("stall_") and "Not Issued" not in h:
            stalls[h[6:]] = sum(num(r[i]) for r in data)
    print("\n%s: %.4g warp instructions executed, %d stall samples\n" % (name, total, samples))
    print("| part (ends at a barrier) | instructions % | stall samples % | rarely run code, % of the kernel |")
    print("|---|---:|---:|---:|")
    for name_, e, s, rare in parts:
        if e: print("| %s | %.1f | %.1f | %.1f |" % (name_, 100 * e / total, 100 * s / samples, 100 * rare / total))
    print("\nopcodes: " + ", ".join("%s %.1f%%" % (o, 100 * v / total) for o, v in sorted(ops.items(), key=lambda x: -x[1])[:12]))
    print("stalls (share of samples): " + ", ".join("%s %.1f%%" % (k, 100 * v / samples) for k, v in sorted(stalls.items(), key=lambda x: -x[1])[:8]))
PY
done 2>&1 | tee "$OUT/source.log"
