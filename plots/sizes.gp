# Throughput vs grid size, one line per scheme; the cache-resident region shaded and its
# points hollow. Data from render.sh: one block per series, its first line the name, then
#   million_cells  mcells  cache_resident  grid_label
# gnuplot -c sizes.gp TITLE CAPTION OUTSTEM DAT NSERIES EDGE(0: nothing resident)
title = ARG1; caption = ARG2; out = ARG3; dat = ARG4
ns = ARG5 + 0; edge = ARG6 + 0
set datafile separator "\t"
load system("dirname '" . ARG0 . "'") . "/style.gp"
set logscale x
set xlabel "grid (cells, log scale)"
set ylabel "MCells/s  (eq. 5: updates/s ÷ 6 ÷ 10⁶)"
set yrange [0:*]
set grid lc rgb "#dddddd"
set key outside right top reverse Left
set title title . "\n" . caption
if (edge > 0) {
    set object 1 rect from graph 0, graph 0 to first edge, graph 1 behind fc rgb "#e6eef7" fs solid 1.0 noborder
    set label 1 "cache-resident\n(arrays fit in a few × the\nlast-level cache)" at graph 0.02, graph 0.1 left front
} else {
    set label 1 "no grid here was cache-resident" at graph 0.02, graph 0.05 left front
}
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1050,600 font "DejaVu Sans,11" noenhanced } \
    else { set terminal svg size 1050,600 font "DejaVu Sans,11" noenhanced dynamic background rgb "white" }
    set output out . "." . fmt
    plot for [i = 0:ns - 1] dat index i using 1:2:xtic(4) with lines lw 2 lc i + 1 title columnheader(1), \
         for [i = 0:ns - 1] dat index i using 1:($3 == 0 ? $2 : NaN) with points pt 7 ps 1.3 lc i + 1 notitle, \
         for [i = 0:ns - 1] dat index i using 1:($3 == 1 ? $2 : NaN) with points pt 6 ps 1.5 lw 2 lc i + 1 notitle, \
         NaN with points pt 7 lc rgb "black" title "arrays exceed the cache", \
         NaN with points pt 6 lw 2 lc rgb "black" title "cache-resident"
    unset output
}
