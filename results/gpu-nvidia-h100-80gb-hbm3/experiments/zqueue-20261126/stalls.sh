#!/bin/bash
# Where a fused25d step's warps stall, by SASS instruction (ncu's warp-state sampling of the
# timed launch): KERNEL (a name regex) of "step ARGS"; the 25 instructions with the most samples.
#   bash stalls.sh KERNEL "step ARGS"
set -u -o pipefail
K=$1 SPEC=$2 OUT=${OUT:-.} B=${BUILD:-$PWD/build}/fdtdbench
# shellcheck disable=SC2086
n=$(ncu --metrics gpu__time_duration.sum -k "regex:$K" --csv "$B" $SPEC --device gpu --reps 1 2>/dev/null | grep -c gpu__time_duration)
echo "launches of $K: $n (the last is the timed one)"
# shellcheck disable=SC2086
ncu --section SourceCounters --section WarpStateStats -k "regex:$K" --launch-skip $((n - 1)) --launch-count 1 \
    -o "$OUT/stalls" -f "$B" $SPEC --device gpu --reps 1 >/dev/null 2>&1
ncu -i "$OUT/stalls.ncu-rep" --page source --csv --print-source sass >"$OUT/stalls-source.csv" 2>&1
ncu -i "$OUT/stalls.ncu-rep" --page details --section WarpStateStats 2>&1 | tail -n 30
python3 - "$OUT/stalls-source.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = next(i for i, r in enumerate(rows) if 'Source' in r)
head = rows[h]; body = [r for r in rows[h + 1:] if len(r) == len(head)]
src = head.index('Source')
col = next(i for i, c in enumerate(head) if c.startswith('Warp Stall Sampling (All'))
tot = sum(float(r[col] or 0) for r in body)
print(f"{len(body)} SASS instructions, {tot:.0f} samples; the most sampled:")
for r in sorted(body, key=lambda r: -float(r[col] or 0))[:25]:
    print(f"{100 * float(r[col] or 0) / tot:5.1f}%  {r[src]}")
PY
