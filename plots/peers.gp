# The suite's full step beside other FDTD codes (peers) on one device: one horizontal bar per
# row of the newest peers file, MCells/s (cells × steps / s), each peer's bar labelled with its
# time per step over the suite's (fdtdbench report's ratio_to_suite). Data rows from render.sh:
#   label  mcells  is_suite(1|0)  ratio|?
# gnuplot -c peers.gp TITLE CAPTION OUTSTEM DAT NROWS
title = ARG1; caption = ARG2; out = ARG3; dat = ARG4
n = ARG5 + 0
set datafile separator "\t"
set datafile missing "?"
load system("dirname '" . ARG0 . "'") . "/style.gp"
set style fill solid 0.9 border rgb "#333333"
set grid xtics lc rgb "#dddddd"
set key bottom right
set xlabel "MCells/s (cells × steps ÷ s);   ×: the peer's time per step ÷ the suite's, same storage"
stats dat using 2 nooutput
set xrange [0:STATS_max * 1.35]
set yrange [n - 0.5:-0.5]
set ytics scale 0
set title title . "\n" . caption
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1100,180 + 34 * n font "DejaVu Sans,11" noenhanced } \
    else { set terminal svg size 1100,180 + 34 * n font "DejaVu Sans,11" noenhanced dynamic background rgb "white" }
    set output out . "." . fmt
    plot dat using ($3 == 1 ? $2 / 2 : NaN):0:($2 / 2):(0.35):ytic(1) with boxxyerror lc rgb "#3572b0" title "fdtdbench (this suite)", \
         "" using ($3 == 0 ? $2 / 2 : NaN):0:($2 / 2):(0.35) with boxxyerror lc rgb "#e08a2c" title "peer", \
         "" using 2:0:(sprintf($2 >= 100 ? " %.0f" : " %.3g", $2) . ($3 == 1 ? "" : " (×" . strcol(4) . ")")) with labels left notitle
    unset output
}
