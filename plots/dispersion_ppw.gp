# |v_p/c - 1| against cells per wavelength, one line per scheme, log-log. Data from
# render.sh: one block per scheme, its first line the name, then  ppw  |vp_error|
# gnuplot -c dispersion_ppw.gp TITLE CAPTION OUTSTEM DAT NSCHEMES
title = ARG1; caption = ARG2; out = ARG3; dat = ARG4; ns = ARG5 + 0
set datafile separator "\t"
load system("dirname '" . ARG0 . "'") . "/style.gp"
set logscale xy
set format y "10^{%L}"
set autoscale xfix
set offsets graph 0.02, graph 0.02, 0, 0
set xlabel "resolution (cells per wavelength, log scale)"
set ylabel "|v_p / c − 1|  (phase-velocity error, log scale)"
set grid lc rgb "#dddddd"
set key bottom left reverse Left
set title title . "\n" . caption
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1000,600 font "DejaVu Sans,11" enhanced } \
    else { set terminal svg size 1000,600 font "DejaVu Sans,11" enhanced dynamic background rgb "white" }
    set output out . "." . fmt
    plot for [i = 0:ns - 1] dat index i using 1:2:xtic(1) with linespoints lw 2 dt i + 1 pt (int(word("7 5 9 11 13 4 6 8", i % 8 + 1))) ps 1.2 lc i + 1 title columnheader(1) noenhanced
    unset output
}
