# Parallel efficiency of the full step against the GPU count, one line per scheme and storage
# (a colour a scheme, solid and dashed its two storages in make bench's order):
# weak scaling (the same cells per GPU) and strong (one grid) side by side, each with its goal.
# Efficiency is fdtdbench report's (the extract's column): MCells/s over N times one GPU's.
# Data from render.sh, per panel one block per series, its first line the name, then
#   gpus  efficiency_percent
# gnuplot -c scaling.gp TITLE CAPTION OUTSTEM WEAK_DAT NWEAK STRONG_DAT NSTRONG "WEAK_GOAL STRONG_GOAL" MAXGPUS
title = ARG1; caption = ARG2; out = ARG3
weak = ARG4; nw = ARG5 + 0
strong = ARG6; ns = ARG7 + 0
wgoal = real(word(ARG8, 1)); sgoal = real(word(ARG8, 2))
maxg = ARG9 + 0
set datafile separator "\t"
load system("dirname '" . ARG0 . "'") . "/style.gp"
set logscale x 2
set xrange [0.8:maxg * 1.25]
set xtics 2
set xlabel "GPUs"
set ylabel "efficiency (%): MCells/s ÷ (N × one GPU's)"
set grid lc rgb "#dddddd"
set key bottom left
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1300,560 font "DejaVu Sans,11" noenhanced } \
    else { set terminal svg size 1300,560 font "DejaVu Sans,11" noenhanced dynamic background rgb "white" }
    set output out . "." . fmt
    set multiplot layout 1,2 title title . "\n" . caption
    set yrange [*:102]
    set title "weak scaling: the same cells per GPU (T1 / TN)"
    if (nw > 0) {
        plot for [i = 0:nw - 1] weak index i using 1:2 with linespoints pt 7 lc i / 2 + 1 dt i % 2 + 1 title columnheader(1), \
             wgoal with lines dt 2 lc rgb "#555555" title sprintf("goal: %.0f%% at 8 GPUs", wgoal)
    } else {
        set label 1 "no weak-scaling rows" at graph 0.5, graph 0.5 center
        plot wgoal with lines dt 2 lc rgb "#555555" title sprintf("goal: %.0f%% at 8 GPUs", wgoal)
        unset label 1
    }
    set title "strong scaling: one grid (T1 / (N × TN))"
    if (ns > 0) {
        plot for [i = 0:ns - 1] strong index i using 1:2 with linespoints pt 7 lc i / 2 + 1 dt i % 2 + 1 title columnheader(1), \
             sgoal with lines dt 2 lc rgb "#555555" title sprintf("goal: %.0f%% at 8 GPUs", sgoal)
    } else {
        set label 1 "no strong-scaling rows" at graph 0.5, graph 0.5 center
        plot sgoal with lines dt 2 lc rgb "#555555" title sprintf("goal: %.0f%% at 8 GPUs", sgoal)
        unset label 1
    }
    unset multiplot
    unset output
}
