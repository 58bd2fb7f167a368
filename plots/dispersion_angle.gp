# |v_p/c - 1| against propagation direction at one resolution, one line per scheme, in two
# sweeps: phi at theta = 90 degrees (x axis to the xy face diagonal) and theta at phi = 45
# degrees (z axis through the body diagonal to the face diagonal). Data from render.sh: one
# block per scheme, its first line the name, then  angle  |vp_error|  (an empty file: no panel)
# gnuplot -c dispersion_angle.gp TITLE CAPTION OUTSTEM DAT1 N1 DAT2 N2
title = ARG1; caption = ARG2; out = ARG3
load system("dirname '" . ARG0 . "'") . "/style.gp"
set datafile separator "\t"
set logscale y
set format y "10^{%L}"
set xrange [0:90]
set xtics 15
set ylabel "|v_p / c − 1|  (phase-velocity error, log scale)"
set grid lc rgb "#dddddd"
set key outside top center horizontal reverse Left
pts = "7 5 9 11 13 4 6 8"
panels = (ARG5 + 0 > 0) + (ARG7 + 0 > 0)
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 650*panels+150,660 font "DejaVu Sans,11" enhanced } \
    else { set terminal svg size 650*panels+150,660 font "DejaVu Sans,11" enhanced dynamic background rgb "white" }
    set output out . "." . fmt
    set multiplot layout 1, panels title title . "\n" . caption . "\n" noenhanced
    do for [p = 1:2] {
        dat = (p == 1) ? ARG4 : ARG6
        ns = (p == 1) ? ARG5 + 0 : ARG7 + 0
        if (ns > 0) {
            if (p == 1) {
                set title "θ = 90° (the xy plane): φ = 0 is the x axis, 45° the face diagonal" noenhanced
                set xlabel "azimuth φ from the x axis (degrees)" noenhanced
            } else {
                set title "φ = 45°: θ = 0 is the z axis, 54.7° the body diagonal, 90° the face diagonal" noenhanced
                set xlabel "polar angle θ from the z axis (degrees)" noenhanced
            }
            plot for [i = 0:ns - 1] dat index i using 1:2 with linespoints lw 2 dt i + 1 \
                pt (int(word(pts, i % 8 + 1))) ps 1 lc i + 1 title columnheader(1) noenhanced
        }
    }
    unset multiplot
    unset output
}
