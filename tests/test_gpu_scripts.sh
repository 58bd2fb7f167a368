#!/bin/sh
# scripts/gpu_source.sh on a source page written before (NCU_CSV): the parts between barriers,
# a part's stores apart from its arithmetic, the opcodes' shares. No GPU needed.
. tests/shlib.sh
if ! command -v python3 >/dev/null; then
    echo "skip source_parts: no python3 (gpu_source.sh reads the page with it)"
    skipped=$((skipped + 1))
    summary
fi

f=""
cat >"$tmp/page.csv" <<'CSV'
"Kernel Name","k_test",
"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed","stall_wait","stall_barrier"
"0x0","S2R R0, SR_TID.X","10","10","10","0"
"0x10","BAR.SYNC.DEFER_BLOCKING 0x0","10","100","0","10"
"0x20","FADD R1, R2, R3","40","100","40","0"
"0x30","@P0 STG.E desc[UR4][R4.64], R1","20","100","20","0"
"0x40","@P1 STG.E desc[UR4][R6.64], R1","10","5","10","0"
"0x50","@!P0 BRA 0x20","10","95","10","0"
CSV
NCU_CSV="$tmp/page.csv" OUT="$tmp" bash scripts/gpu_source.sh >"$tmp/out" 2>&1 || f="exit $?"
grep -q "^k_test: 410 warp instructions executed, 100 stall samples" "$tmp/out" || f="$f totals"
# to the barrier 110 of 410 (S2R rarely run: 10 <= 100 / 10), then the arithmetic 100, then
# the stores with the loop's end 200 (the second STG rarely run)
grep -q "^| 0 | 26.8 | 20.0 | 2.4 |$" "$tmp/out" || f="$f part 0"
grep -q "^| 1 | 24.4 | 40.0 | 0.0 |$" "$tmp/out" || f="$f part 1"
grep -q "^| 1, stores | 48.8 | 40.0 | 1.2 |$" "$tmp/out" || f="$f the stores apart"
grep -q "^opcodes: STG 25.6%, BAR 24.4%, FADD 24.4%, BRA 23.2%, S2R 2.4%$" "$tmp/out" || f="$f opcodes"
grep -q "^stalls (share of samples): wait 90.0%, barrier 10.0%" "$tmp/out" || f="$f stalls"
result source_parts "$f${f:+: $(cat "$tmp/out")}"
summary
