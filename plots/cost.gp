# Predicted time to solution against the phase-error budget, one line per scheme (and
# weighting), log-log. Data from render.sh: one block per series, its first line the name,
# then  budget_deg  time_s  fits(1/0/empty)
# gnuplot -c cost.gp TITLE CAPTION OUTSTEM DAT NSERIES
title = ARG1; caption = ARG2; out = ARG3; dat = ARG4; ns = ARG5 + 0
set datafile separator "\t"
load system("dirname '" . ARG0 . "'") . "/style.gp"
set logscale xy
set format y "10^{%L}"
set xtics (1, 2, 5, 10, 20, 45, 90)
set xrange [0.9:100]
set xlabel "phase-error budget in the worst direction (degrees, log scale)"
set ylabel "predicted time to solution (s, log scale)"
set grid lc rgb "#dddddd"
set key top right
set title title . "\n" . caption noenhanced
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1000,600 font "DejaVu Sans,11" enhanced } \
    else { set terminal svg size 1000,600 font "DejaVu Sans,11" enhanced dynamic background rgb "white" }
    set output out . "." . fmt
    plot for [i = 0:ns - 1] dat index i using 1:2 with linespoints lw 2 dt i + 1 pt (int(word("7 5 9 11 13 4 6 8", i % 8 + 1))) ps 1.1 lc i + 1 title columnheader(1) noenhanced
    unset output
}
