# Heatmap of one scheme's throughput over GPU block shapes: Bx across, By×Bz down; the
# best shape outlined; blank cells were not measured. Data rows from render.sh:
#   x_index  y_index  mcells  paper|-  Bx  By×Bz  is_best
# gnuplot -c blocks.gp TITLE CAPTION OUTSTEM DAT NX NY
title = ARG1; caption = ARG2; out = ARG3; dat = ARG4
nx = ARG5 + 0; ny = ARG6 + 0
set datafile separator "\t"
load system("dirname '" . ARG0 . "'") . "/style.gp"
set palette defined (0 "#fff7d6", 0.5 "#f9c05a", 1 "#e0622a")
set cblabel "MCells/s  (eq. 5)"
set xlabel "Bx (threads along x)"
set ylabel "By × Bz  (ordered by By·Bz)"
set xrange [0.5:nx + 0.5]
set yrange [0.5:ny + 0.5]
set tics scale 0
set key outside bottom center horizontal
set title title . "\n" . caption
label(v, p) = sprintf("%.0f", v) . (p eq "-" ? "" : "\n(paper " . p . ")")
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 900,300+34*ny font "DejaVu Sans,11" noenhanced } \
    else { set terminal svg size 900,300+34*ny font "DejaVu Sans,11" noenhanced dynamic background rgb "white" }
    set output out . "." . fmt
    plot dat using 1:2:(0.5):(0.5):3:xtic(5):ytic(6) with boxxyerror fs solid 1.0 noborder fc palette notitle, \
         "" using 1:2:(label($3, strcol(4))) with labels font ",9" notitle, \
         "" using 1:($7 == 1 ? $2 : NaN):(0.47):(0.47) with boxxyerror lw 3 lc rgb "black" fs empty border lc rgb "black" \
            title "best shape measured (outlined); blank: not measured"
    unset output
}
