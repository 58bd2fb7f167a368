# Shared look, loaded by each script: series colours that read on white (and apart).
set encoding utf8
set linetype 1 lc rgb "#1f77b4" lw 2
set linetype 2 lc rgb "#d62728" lw 2
set linetype 3 lc rgb "#2ca02c" lw 2
set linetype 4 lc rgb "#9467bd" lw 2
set linetype 5 lc rgb "#ff7f0e" lw 2
set linetype 6 lc rgb "#8c564b" lw 2
set linetype 7 lc rgb "#e377c2" lw 2
set linetype 8 lc rgb "#17becf" lw 2
set linetype cycle 8
