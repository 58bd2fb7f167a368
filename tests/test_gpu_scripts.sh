#!/bin/sh
# The GPU profiling scripts on ncu pages written before (NCU_CSV), so no GPU is needed:
# gpu_source.sh's parts between barriers, a part's stores apart from its arithmetic, the opcodes'
# shares; gpu_bound.sh's verdicts; tune_ab.sh's usage (it needs a GPU for the rest).
. tests/shlib.sh
if ! command -v python3 >/dev/null; then
    echo "skip source_parts, source_parts_numbered, bound_verdicts: no python3 (the scripts read the pages with it)"
    skipped=$((skipped + 3))
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

# a part's stores before its barrier (a wave25d level's) do not shift the numbers of the parts after
f=""
cat >"$tmp/levels.csv" <<'CSV'
"Kernel Name","k_levels",
"Address","Source","Warp Stall Sampling (All Samples)","Instructions Executed","stall_wait"
"0x0","FADD R1, R2, R3","10","100","10"
"0x10","STG.E desc[UR4][R4.64], R1","10","100","10"
"0x20","BAR.SYNC.DEFER_BLOCKING 0x0","10","100","10"
"0x30","FADD R1, R2, R3","10","100","10"
"0x40","BAR.SYNC.DEFER_BLOCKING 0x0","10","100","10"
"0x50","FADD R1, R2, R3","50","100","50"
CSV
NCU_CSV="$tmp/levels.csv" OUT="$tmp" bash scripts/gpu_source.sh >"$tmp/out" 2>&1 || f="exit $?"
[ "$(grep -o '^| [0-9][^|]* |' "$tmp/out" | tr '\n' ' ')" = "| 0 | | 0, stores | | 1 | | 2 | " ] ||
    f="parts named $(grep -o '^| [0-9][^|]* |' "$tmp/out" | tr '\n' ' '), want 0, 0 stores, 1, 2"
grep -q "^| 2 | 16.7 | 50.0 | 0.0 |$" "$tmp/out" || f="$f the last part's shares"
result source_parts_numbered "$f${f:+: $(cat "$tmp/out")}"

# scripts/gpu_bound.sh on an ncu raw page written before (NCU_CSV): one kernel for each verdict,
# taken by the first rule that holds (DRAM, L2, issue, L1/shared, else latency and its top stall)
f=""
{
    printf '"ID","Kernel Name","launch__grid_size","launch__block_size","gpu__time_duration.sum","dram__bytes_read.sum",'
    printf '"dram__bytes_write.sum","dram__throughput.avg.pct_of_peak_sustained_elapsed",'
    printf '"lts__throughput.avg.pct_of_peak_sustained_elapsed","l1tex__throughput.avg.pct_of_peak_sustained_elapsed",'
    printf '"smsp__issue_active.avg.pct_of_peak_sustained_active","sm__warps_active.avg.pct_of_peak_sustained_active",'
    printf '"sm__maximum_warps_per_active_cycle_pct","launch__registers_per_thread","smsp__inst_executed.sum",'
    printf '"smsp__average_warps_issue_stalled_wait_per_issue_active.ratio",'
    printf '"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio"\n'
    printf '"","","","","us","byte","byte","%%","%%","%%","%%","%%","%%","","inst","inst","inst"\n'
    # name, DRAM %, L2 %, L1 %, issue %
    for k in "k_dram 90 95 80 80" "k_l2 70 92 80 80" "k_issue 50 85 80 72" "k_l1 50 60 75 60" "k_latency 50 60 40 40"; do
        set -- $k
        printf '"0","%s","4","128","10","10,240","2,048","%s","%s","%s","%s","20","25","64","5,120","2.0","1.0"\n' "$1" "$2" "$3" "$4" "$5"
    done
} >"$tmp/raw.csv"
NCU_CSV="$tmp/raw.csv" OUT="$tmp" bash scripts/gpu_bound.sh "step --grid 8" >"$tmp/out" 2>&1 || f="exit $?"
for v in "k_dram DRAM" "k_l2 L2" "k_issue issue" "k_l1 L1/shared" "k_latency latency (wait)"; do
    set -- $v
    grep -q "^| step --grid 8 | $1 | 10.0 | 20.0 + 4.0 | .* | 20 (25) | 64 | 10.0 | wait 2.0, barrier 1.0 | ${v#* } |$" "$tmp/out" ||
        f="$f $1 not ${v#* }"
done
result bound_verdicts "$f${f:+: $(cat "$tmp/out")}"

# tune_ab.sh: its usage without TABLES exits 2 before building or tuning anything (the rest needs
# a GPU; its tuned file's path is fdtdbench's, test_cli.sh's tune --path)
f=""
bash scripts/tune_ab.sh "--force" >"$tmp/out" 2>&1
[ $? -eq 2 ] && grep -q "^  bash scripts/tune_ab.sh \"TUNE ARGS\" TABLES" "$tmp/out" || f="usage: $(cat "$tmp/out")"
result tune_ab_usage "$f"
summary
