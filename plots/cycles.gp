# Updates per clock cycle per core of each CPU variant, in cache (bench's incache table), one
# cluster per scheme, a bar per variant and thread count. Data from render.sh: a header line
# (scheme, then the series' names), then a line per scheme.
# gnuplot -c cycles.gp TITLE CAPTION OUTSTEM DAT NSERIES
title = ARG1; caption = ARG2; out = ARG3; dat = ARG4; ns = ARG5 + 0
set datafile separator "\t"
load system("dirname '" . ARG0 . "'") . "/style.gp"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set ylabel "updates per cycle per core"
set yrange [0:*]
set grid ytics lc rgb "#dddddd"
set key outside right top reverse Left
set title title . "\n" . caption
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 1050,600 font "DejaVu Sans,11" noenhanced } \
    else { set terminal svg size 1050,600 font "DejaVu Sans,11" noenhanced dynamic background rgb "white" }
    set output out . "." . fmt
    plot for [i = 2:ns + 1] dat using i:xtic(1) title columnheader(i) lc i - 1
    unset output
}
