# Roofline: the bandwidth ceilings the suite measured (never a datasheet figure), and each
# scheme's operational intensity (flops per compulsory byte) against its achieved GFLOP/s.
# No compute ceiling is drawn: the suite does not measure peak FLOP/s. Data from render.sh:
#   flops_per_byte  gflops  class(0 the paper's kernel, 1 uniform coefficients)  scheme  label
# gnuplot -c roofline.gp TITLE CAPTION OUTSTEM DAT "SCHEMES" BW1 NAME1 BW2 NAME2
title = ARG1; caption = ARG2; out = ARG3; dat = ARG4; names = ARG5
bw1 = ARG6 + 0; bw2 = ARG8 + 0
set datafile separator "\t"
load system("dirname '" . ARG0 . "'") . "/style.gp"
set logscale xy
set xrange [0.1:10]
stats dat using 2 nooutput
top = (bw1 > bw2 ? bw1 : bw2) * 10
set yrange [STATS_min / 4:(top > STATS_max ? top : STATS_max) * 1.5]
set xlabel "operational intensity (flops per compulsory byte)"
set ylabel "GFLOP/s achieved (updates/s × flops per update)"
set grid lc rgb "#dddddd"
set key outside right top reverse Left
set title title . "\n" . caption
set label 1 "no compute ceiling drawn: the suite does not measure peak FLOP/s" at graph 0.02, graph 0.96 left
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1150,650 font "DejaVu Sans,11" noenhanced } \
    else { set terminal svg size 1150,650 font "DejaVu Sans,11" noenhanced dynamic background rgb "white" }
    set output out . "." . fmt
    plot bw1 * x with lines lw 2 dt 1 lc rgb "#444444" title sprintf("%s %.0f GB/s", ARG7, bw1), \
         bw2 * x with lines lw 2 dt 2 lc rgb "#444444" title sprintf("%s %.0f GB/s", ARG9, bw2), \
         for [i = 1:words(names)] dat using 1:(($3 == 0 && strcol(4) eq word(names, i)) ? $2 : NaN) \
            with points pt 7 ps 1.8 lc i title word(names, i), \
         for [i = 1:words(names)] dat using 1:(($3 == 1 && strcol(4) eq word(names, i)) ? $2 : NaN) \
            with points pt 9 ps 2 lc i notitle, \
         dat using 1:($3 == 1 ? $2 : NaN):5 with labels left offset 1.2,0 font ",9" notitle, \
         NaN with points pt 7 ps 1.5 lc rgb "black" title "the paper's kernel", \
         NaN with points pt 9 ps 1.7 lc rgb "black" title "uniform coefficients (labelled)"
    unset output
}
