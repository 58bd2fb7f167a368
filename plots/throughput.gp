# Bars per scheme: MCells/s (eq. 5) measured here beside the paper's, labelled with the
# reference/scheme ratio (Yee/scheme). Data rows come from render.sh (never typed in here):
#   label  measured  ratio  paper|?  paper_ratio|?  top  has_paper  grid  block|-
# gnuplot -c throughput.gp TITLE CAPTION OUTSTEM DAT1 PANEL1 DAT2|"" PANEL2|"" REFERENCE_TITLE
title = ARG1; caption = ARG2; out = ARG3
ref = (ARG8 eq "") ? "reference" : ARG8
panels = (ARG6 eq "") ? 1 : 2
set datafile separator "\t"
set datafile missing "?"
load system("dirname '" . ARG0 . "'") . "/style.gp"
set style fill solid 0.9 border rgb "#333333"
set grid ytics lc rgb "#dddddd"
set key top right
set ylabel "MCells/s  (eq. 5: updates/s ÷ 6 ÷ 10⁶)"
do for [fmt in "png svg"] {
    if (fmt eq "png") { set terminal pngcairo size 700*panels+200,620 font "DejaVu Sans,11" noenhanced } \
    else { set terminal svg size 700*panels+200,620 font "DejaVu Sans,11" noenhanced dynamic background rgb "white" }
    set output out . "." . fmt
    set multiplot layout 1, panels title title . "\n" . caption
    do for [p = 1:panels] {
        dat = (p == 1) ? ARG4 : ARG6
        set autoscale  # stats filters by the previous panel's ranges otherwise
        set title ((p == 1) ? ARG5 : ARG7)
        stats dat using 6 nooutput
        n = STATS_records
        set yrange [0:STATS_max * 1.3]
        stats dat using 7 nooutput
        hasp = STATS_max
        set xrange [-0.6:n - 0.4]
        grid = system("head -n 1 '" . dat . "' | cut -f 8")
        twolines = system("head -n 1 '" . dat . "' | cut -f 9") ne "-"  # tics name the block too
        set xlabel "scheme (Hx, " . grid . " grid)        bar labels: MCells/s (Yee ÷ scheme)" offset 0, (twolines ? -1 : 0)
        if (hasp) {
            plot dat using 0:(NaN):xtic(strcol(1) . (strcol(9) eq "-" ? "" : "\nblock " . strcol(9))) notitle, \
                 "" using ($0 - 0.2):2:(0.38) with boxes lc rgb "#3572b0" title "measured here", \
                 "" using ($0 - 0.2):2:(sprintf("%.0f\n(%s)", $2, strcol(3))) with labels offset 0,1.9 notitle, \
                 "" using ($0 + 0.2):4:(0.38) with boxes lc rgb "#b8bec8" title "the paper (Hadi 2012)", \
                 "" using ($0 + 0.2):4:(sprintf("%.0f\n(%s)", $4, strcol(5))) with labels offset 0,1.9 notitle
        } else {
            plot dat using 0:2:(0.6):xtic(strcol(1) . (strcol(9) eq "-" ? "" : "\nblock " . strcol(9))) with boxes lc rgb "#3572b0" title "measured here", \
                 "" using 0:2:(sprintf("%.0f\n(%s)", $2, strcol(3))) with labels offset 0,1.9 notitle
        }
    }
    unset multiplot
    unset output
}
