#!/bin/sh
# Renders the figures from the committed CSVs; it does not write results/README.md (make bench
# and fdtdbench report do, linking the figures drawn here).
#   sh plots/render.sh BUILD_DIR [RESULTS_DIR]        (make plots runs it)
# Writes, for each machine folder RESULTS_DIR/<machine>/ holding *.csv:
#   <machine>/plots/{throughput,blocks-<scheme>,sizes,cycles,roofline,peers,scaling,cost-vs-budget}.png and .svg
# and, machine-independent, RESULTS_DIR/plots/dispersion-{vs-ppw,vs-angle}.{csv,png,svg} from
# BUILD_DIR/fdtdbench dispersion (or from the CSVs named by DISPERSION_PPW_CSV and
# DISPERSION_ANGLE_CSV, as the tests do). A figure without data is skipped with a note.
# What a figure shows comes from fdtdbench report --extract: per machine and table, the rows
# of the newest file holding it, with their ratios to the reference scheme's row. No rule of
# the report (which file, which row a ratio divides) is repeated here.
export LC_ALL=C # byte order for sort, a decimal point in awk; gnuplot is told UTF-8 itself
build=${1:-build}
results=${2:-results}
here=$(dirname "$0")
bin="$build/fdtdbench"
# The reference scheme (its spec's 'reference' line): the fastest-variant panel's ratio.
ref=$("$bin" list --reference 2>/dev/null)
reftitle=$("$bin" list --reference --title 2>/dev/null)

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "gnuplot not found: install the package gnuplot-nox (apt-get install gnuplot-nox)"
    exit 0
fi
if [ ! -d "$results" ]; then
    echo "render.sh: no folder $results: nothing to plot"
    exit 0
fi

tmp=$(mktemp -d) xdir=$(mktemp -d)
trap 'rm -rf "$tmp" "$xdir"' EXIT
if [ ! -x "$bin" ]; then
    echo "render.sh: $bin not built: no measurement figures (the dispersion figures follow)"
elif ! "$bin" report --results "$results" --extract "$xdir" >/dev/null 2>"$tmp/extract.err"; then
    echo "render.sh: $bin report --extract failed: $(cat "$tmp/extract.err")"
fi

sel() { # WHERE COLS FILE...: matching rows' columns, tab-separated (plots/select.awk)
    w=$1 c=$2
    shift 2
    awk -f "$here/select.awk" -v where="$w" -v cols="$c" "$@"
}

newest() { # TABLE: the machine's extract of TABLE (report --extract chose the file), if any
    [ -f "$ex/$1.csv" ] && echo "$ex/$1.csv"
}

gp() { # SCRIPT ARGS...: run one gnuplot script; report its output file or failure
    s=$1
    shift
    if gnuplot -c "$here/$s" "$@" >"$tmp/gp.log" 2>&1; then
        echo "  $3.png, .svg"
    else
        rm -f "$3.png" "$3.svg" # no half-drawn figure
        echo "  render.sh: gnuplot $s failed:"
        sed 's/^/    /' "$tmp/gp.log"
    fi
}

# Caption: machine, device, and the newest date and the files of the rows a figure shows.
caption() { # FILE...
    names=$(sel "" source "$@" | sort -u | paste -s -d ' ' -)
    sel "" device_name,date "$@" | sort -t "$(printf '\t')" -k2,2 | tail -n 1 |
        awk -F '\t' -v m="$machine" -v f="$names" '{ print m ": " $1 ", " substr($2, 1, 10) " (" f ")" }'
}

# Bars beside the paper. Label: the scheme, plus variant, precision and coefficient storage
# when they are not the paper's (plain, f32, array). Ratios: the extract's, to the reference row.
bars_dat() { # TABLE FILE [block] > dat: label measured ratio paper paper_ratio top has_paper grid block|-
    sel "table=$1;component=hx" scheme,variant,precision,coef,mcells_per_s,paper_mcells,nx,ny,nz,block,ratio_to_ref,paper_ratio_to_ref "$2" |
    awk -F '\t' -v showblock="${3:-}" '
    BEGIN { OFS = "\t" }
    {
        tag = ($2 == "plain" || $2 == "baseline" ? "" : " " $2) ($3 == "f32" ? "" : " " $3) ($4 == "array" ? "" : " " $4)
        n++; lab[n] = $1 tag; mc[n] = $5; pp[n] = $6; blk[n] = showblock ? $10 : "-"
        grid[n] = ($7 == $8 && $8 == $9) ? $7 "³" : $7 "×" $8 "×" $9
        rr[n] = $11; rp[n] = $12
        if ($6 != "") has = 1
    }
    END {
        for (i = 1; i <= n; i++) {
            r = rr[i] == "" ? "?" : sprintf("%.1f", rr[i])
            p = pp[i] == "" ? "?" : pp[i]
            pr = rp[i] == "" ? "?" : sprintf("%.1f", rp[i])
            top = (pp[i] + 0 > mc[i] + 0) ? pp[i] : mc[i]
            print lab[i], mc[i], r, p, pr, top, has + 0, grid[i], blk[i]
        }
    }'
}

plot_throughput() { # device FILES...
    dev=$1
    shift
    if [ "$dev" = cpu ]; then
        f1=$(newest table5-1thread)
        fa=$(newest table5-allthreads)
        [ -n "$f1$fa" ] || { echo "  throughput: skipped (no table5-1thread or table5-allthreads rows)"; return; }
        d1= d2= t1= t2=
        [ -n "$f1" ] && bars_dat table5-1thread "$f1" >"$tmp/t1.dat" && [ -s "$tmp/t1.dat" ] &&
            d1="$tmp/t1.dat" t1="one thread vs the paper's Table 5 (one core of a Xeon W5580)"
        if [ -n "$fa" ] && bars_dat table5-allthreads "$fa" >"$tmp/t2.dat" && [ -s "$tmp/t2.dat" ]; then
            th=$(sel table=table5-allthreads threads "$fa" | head -n 1)
            d2="$tmp/t2.dat" t2="all $th threads"
            [ "$(cut -f 7 "$tmp/t2.dat" | head -n 1)" = 1 ] && t2="$t2 vs the paper's one core"
        fi
        [ -n "$d1" ] || { d1=$d2 t1=$t2 d2= t2=; }
        [ -n "$d1" ] || { echo "  throughput: skipped (no Hx rows in table5-1thread or table5-allthreads)"; return; }
        gp throughput.gp "CPU throughput per scheme, Hx kernel" "$(caption $f1 $fa)" "$out/throughput" "$d1" "$t1" "$d2" "$t2" "$reftitle"
    else
        t=table4
        f=$(newest table4)
        [ -n "$f" ] || { echo "  throughput: skipped (no table4 rows)"; return; }
        bars_dat $t "$f" block >"$tmp/all.dat"
        # Two panels: the paper's method (untagged labels), and each scheme's fastest variant,
        # its ratio taken against the reference scheme's fastest.
        awk -F '\t' '$1 !~ / /' "$tmp/all.dat" >"$tmp/t1.dat"
        awk -F '\t' -v ref="$ref" 'BEGIN { OFS = "\t" }
            { split($1, w, " "); if (!(w[1] in best) || $2 + 0 > best[w[1]] + 0) { best[w[1]] = $2; row[w[1]] = $0 }
              if (!(w[1] in seen)) { seen[w[1]] = 1; order[++n] = w[1] } }
            END { for (i = 1; i <= n; i++) { split(row[order[i]], c, "\t")
                    c[3] = best[ref] > 0 ? sprintf("%.1f", best[ref] / c[2]) : "?"
                    print c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9] } }' "$tmp/all.dat" >"$tmp/t2.dat"
        [ -s "$tmp/t1.dat" ] || { echo "  throughput: skipped (no Hx rows in $t)"; return; }
        gp throughput.gp "GPU throughput per scheme at its best block, Hx kernel, vs the paper's Table 4 (Tesla C2050)" \
            "$(caption "$f")" "$out/throughput" "$tmp/t1.dat" "the paper's method (baseline variant)" \
            "$tmp/t2.dat" "fastest variant per scheme" "$reftitle"
    fi
}

# One heatmap per scheme (and per variant, precision, coefficient storage if not the paper's):
# Bx across, By×Bz down. table2 rows first so a later blocks sweep of the same shape wins.
plot_blocks() { # FILES...
    f2=$(newest table2)
    fb=$(newest blocks)
    [ -n "$f2$fb" ] || { echo "  blocks: skipped (no blocks or table2 rows)"; return; }
    for f in $f2 $fb; do
        sel "table=table2|blocks;component=hx" scheme,variant,precision,coef,block,mcells_per_s,paper_mcells,nx,ny,nz "$f"
    done >"$tmp/blocks.tsv"
    awk -F '\t' -v dir="$tmp" '
    function isort(a, n, cmp,   i, j, t) { # insertion sort by cmp: 1 numeric, 2 "By Bz" pairs
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && less(a[j], a[j - 1], cmp); j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    }
    function less(x, y, cmp,   p, q) {
        if (cmp == 1) return x + 0 < y + 0
        split(x, p, "×"); split(y, q, "×")
        return p[1] * p[2] < q[1] * q[2] || (p[1] * p[2] == q[1] * q[2] && p[1] + 0 < q[1] + 0)
    }
    {
        g = $1 ($2 == "plain" || $2 == "baseline" ? "" : "-" $2) ($3 == "f32" ? "" : "-" $3) ($4 == "array" ? "" : "-" $4)
        split($5, b, "x")
        k = g SUBSEP b[1] SUBSEP b[2] "×" b[3]
        if (!(k in mc)) { nk++; keys[nk] = k }
        mc[k] = $6
        if ($7 != "") pp[k] = $7
        if (!(g in seen)) { seen[g] = 1; ng++; grp[ng] = g }
        gr = ($8 == $9 && $9 == $10) ? $8 "³" : $8 "×" $9 "×" $10 # every grid the cells come from
        if (!((g, gr) in hasgrid)) { hasgrid[g, gr] = 1; grid[g] = grid[g] (grid[g] == "" ? "" : " and ") gr }
        if (!((g, b[1]) in hx)) { hx[g, b[1]] = 1; nx[g]++; xs[g, nx[g]] = b[1] }
        if (!((g, b[2] "×" b[3]) in hy)) { hy[g, b[2] "×" b[3]] = 1; ny[g]++; ys[g, ny[g]] = b[2] "×" b[3] }
        if ($6 + 0 > best[g] + 0) { best[g] = $6; bestk[g] = k }
    }
    END {
        for (i = 1; i <= ng; i++) {
            g = grp[i]
            delete a; for (j = 1; j <= nx[g]; j++) a[j] = xs[g, j]; isort(a, nx[g], 1)
            for (j = 1; j <= nx[g]; j++) xi[g, a[j]] = j
            delete a; for (j = 1; j <= ny[g]; j++) a[j] = ys[g, j]; isort(a, ny[g], 2)
            for (j = 1; j <= ny[g]; j++) yi[g, a[j]] = j
            print g "\t" grid[g] "\t" nx[g] "\t" ny[g] > (dir "/groups")
        }
        for (n = 1; n <= nk; n++) {
            split(keys[n], p, SUBSEP); g = p[1]
            printf "%d\t%d\t%s\t%s\t%s\t%s\t%d\n", xi[g, p[2]], yi[g, p[3]], mc[keys[n]], pp[keys[n]] == "" ? "-" : pp[keys[n]],
                p[2], p[3], keys[n] == bestk[g] > (dir "/blocks-" g ".dat")
        }
    }' "$tmp/blocks.tsv"
    [ -s "$tmp/groups" ] || { echo "  blocks: skipped (no Hx rows in table2 or blocks)"; return; }
    cap=$(caption $f2 $fb)
    while IFS="$(printf '\t')" read -r g grid nxc nyc; do
        case $grid in *" and "*) grids="$grid grids" ;; *) grids="$grid grid" ;; esac
        gp blocks.gp "GPU block shapes: $g, Hx kernel, $grids (rows of tables table2 and blocks)" "$cap" \
            "$out/blocks-$g" "$tmp/blocks-$g.dat" "$nxc" "$nyc"
    done <"$tmp/groups"
}

plot_sizes() { # device FILES...
    dev=$1
    shift
    f=$(newest sizes)
    [ -n "$f" ] || { echo "  sizes: skipped (no sizes rows)"; return; }
    sel "table=sizes;component=hx" scheme,variant,precision,coef,threads,nx,ny,nz,mcells_per_s,cache_resident "$f" |
    awk -F '\t' -v dir="$tmp" '
    BEGIN { OFS = "\t" }
    {
        s = $1 ($2 == "plain" || $2 == "baseline" ? "" : " " $2) ($3 == "f32" ? "" : " " $3) ($4 == "array" ? "" : " " $4)
        if (!(s in seen)) { seen[s] = 1; ns++; name[ns] = s }
        cells = $6 * $7 * $8 / 1e6
        lab = ($6 == $7 && $7 == $8) ? $6 "³" : $6 "×" $7 "×" $8
        n[s]++; row[s, n[s]] = cells OFS $9 OFS $10 OFS lab
        if ($10 == 1 && cells > res) res = cells
        all[cells] = 1
    }
    END {
        for (i = 1; i <= ns; i++) {
            print name[i] > (dir "/sizes.dat")
            for (j = 1; j <= n[name[i]]; j++) print row[name[i], j] > (dir "/sizes.dat")
            print "\n" > (dir "/sizes.dat")
        }
        # Shade up to halfway (geometrically) to the next larger grid measured.
        edge = 0
        if (res > 0) { edge = res * 1.5; for (c in all) if (c + 0 > res && (c + 0 < nxt || nxt == 0)) nxt = c + 0 }
        if (nxt > 0) edge = sqrt(res * nxt)
        print ns + 0, edge > (dir "/sizes.meta")
    }'
    read -r ns edge <"$tmp/sizes.meta"
    [ "${ns:-0}" -gt 0 ] || { echo "  sizes: skipped (no Hx rows in sizes)"; return; }
    what="Hx kernel"
    [ "$dev" = cpu ] && what="$what, $(sel table=sizes threads "$f" | sort -u | paste -s -d / -) threads"
    gp sizes.gp "Throughput vs grid size ($what)" "$(caption "$f")" "$out/sizes" "$tmp/sizes.dat" "$ns" "$edge"
}

# Roofline: the paper's kernels (table5-allthreads on a CPU, table4 on a GPU) and the rows
# of table "uniform", against the bandwidth measured in the same run.
# CPU in cache: updates per cycle per core, a bar per variant and thread count, per scheme.
plot_cycles() {
    f=$(newest incache)
    [ -n "$f" ] || { echo "  cycles: skipped (no incache rows)"; return; }
    sel "table=incache;component=hx" scheme,variant,threads,updates_per_cycle "$f" |
    awk -F '\t' '
    {
        s = $2 ", " $3 (($3 == 1) ? " thread" : " threads")
        if (!(s in ser)) { ser[s] = ++ns; name[ns] = s }
        if (!($1 in sch)) { sch[$1] = ++nc; scheme[nc] = $1 }
        v[$1, s] = $4
    }
    END {
        if (!ns) exit
        printf "scheme"; for (j = 1; j <= ns; j++) printf "\t%s", name[j]; printf "\n"
        for (i = 1; i <= nc; i++) {
            printf "%s", scheme[i]
            for (j = 1; j <= ns; j++) printf "\t%s", ((scheme[i], name[j]) in v && v[scheme[i], name[j]] != "") ? v[scheme[i], name[j]] : "NaN"
            printf "\n"
        }
    }' >"$tmp/cycles.dat"
    [ -s "$tmp/cycles.dat" ] || { echo "  cycles: skipped (no Hx rows in incache)"; return; }
    gp cycles.gp "CPU in cache: updates per cycle per core, Hx kernel, f32, array coefficients" "$(caption "$f")" \
        "$out/cycles" "$tmp/cycles.dat" "$(($(head -n 1 "$tmp/cycles.dat" | awk -F '\t' '{ print NF }') - 1))"
}

plot_roofline() { # device FILES...
    dev=$1
    shift
    if [ "$dev" = cpu ]; then t=table5-allthreads; else t=table4; fi
    fb=$(newest $t)
    fo=$(newest uniform)
    [ -n "$fb$fo" ] || { echo "  roofline: skipped (no $t or uniform rows)"; return; }
    {
        [ -n "$fb" ] && sel "table=$t;component=hx" scheme,variant,precision,coef,flops_per_byte,gflops,bw_copy_gbs,bw_second_gbs "$fb" | sed 's/^/0\t/'
        [ -n "$fo" ] && sel "table=uniform;component=hx" scheme,variant,precision,coef,flops_per_byte,gflops,bw_copy_gbs,bw_second_gbs "$fo" | sed 's/^/1\t/'
    } | awk -F '\t' -v dir="$tmp" '
    BEGIN { OFS = "\t" }
    {
        if (!($2 in seen)) { seen[$2] = 1; ns++; names = names (ns > 1 ? " " : "") $2 }
        lab = $1 ? ($3 == "plain" || $3 == "baseline" ? "" : $3 " ") ($4 == "f32" ? "" : $4 " ") ($5 == "array" ? "" : $5) : ""
        if ((($6, lab) in said)) lab = ""  # schemes of equal intensity: one label, not a smudge
        said[$6, lab] = 1
        print $6, $7, $1, $2, lab > (dir "/roof.dat")
        if (bw1 == "") { bw1 = $8; bw2 = $9 }
        if (lo == "" || $7 + 0 < lo) lo = $7 + 0
        if ($7 + 0 > hi) hi = $7 + 0
    }
    END { print names > (dir "/roof.names"); print bw1, bw2, lo, hi > (dir "/roof.meta") }'
    [ -s "$tmp/roof.dat" ] || { echo "  roofline: skipped (no rows)"; return; }
    read -r bw1 bw2 lo hi <"$tmp/roof.meta"
    if [ "$dev" = cpu ]; then n1="STREAM copy" n2="STREAM triad"; else n1="copy kernel" n2="device-to-device cudaMemcpy"; fi
    gp roofline.gp "Roofline, Hx kernel: achieved GFLOP/s against operational intensity" "$(caption $fb $fo)" \
        "$out/roofline" "$tmp/roof.dat" "$(cat "$tmp/roof.names")" "$bw1" "$n1" "$bw2" "$n2"
}

# The suite's full step beside other FDTD codes: the newest peers file (report --extract's
# peers.csv, with its ratio of each peer's time per step to the suite's).
plot_peers() {
    f=$(newest peers)
    [ -n "$f" ] || { echo "  peers: skipped (no steps/peers-*.csv)"; return; }
    sel "" code,variant,coef,precision,nx,ny,nz,threads,mcells_per_s,ratio_to_suite "$f" |
    awk -F '\t' 'BEGIN { OFS = "\t" }
        function before(a, b,   x, y) { split(a, x, "\t"); split(b, y, "\t")
            if (x[5] * x[6] * x[7] != y[5] * y[6] * y[7]) return x[5] * x[6] * x[7] < y[5] * y[6] * y[7]
            return (x[1] == "fdtdbench") > (y[1] == "fdtdbench") }
        { if (!g[$5 "x" $6 "x" $7]++) ng++; r[++n] = $0 }
        END { # grid by grid (smallest first), the suite before the peers, else in file order
              for (i = 2; i <= n; i++) for (j = i; j > 1 && before(r[j], r[j - 1]); j--) { t = r[j]; r[j] = r[j - 1]; r[j - 1] = t }
              for (i = 1; i <= n; i++) { split(r[i], c, "\t")
                lab = c[1] " " c[2] " " c[3] " " c[4] (c[8] + 0 > 0 ? " " c[8] "T" : "")
                if (ng > 1) lab = lab " " (c[5] == c[6] && c[6] == c[7] ? c[5] "³" : c[5] "×" c[6] "×" c[7])
                print lab, c[9], (c[1] == "fdtdbench"), (c[10] == "" ? "?" : sprintf("%.2f", c[10])) } }' >"$tmp/peers.dat"
    n=$(wc -l <"$tmp/peers.dat")
    [ "$n" -gt 0 ] || { echo "  peers: skipped (no rows)"; return; }
    grid=$(sel "" nx,steps "$f" | head -n 1 | awk -F '\t' '{ print $1 "³, " $2 " steps" }')
    [ "$(sel "" nx "$f" | sort -u | wc -l)" -gt 1 ] && grid="$(sel "" nx "$f" | sort -nu | paste -s -d / -)³ grids, $(sel "" steps "$f" | head -n 1) steps"
    gp peers.gp "Full Yee step beside other FDTD codes ($dev, $grid, PEC walls)" "$(caption "$f")" \
        "$out/peers" "$tmp/peers.dat" "$n"
}

# The step over several GPUs: efficiency against the GPU count, weak and strong scaling
# (report --extract's scaling.csv: the page's efficiency and goal of each row).
plot_scaling() {
    f=$(newest scaling)
    [ -n "$f" ] || { echo "  scaling: skipped (no steps/scaling-*.csv)"; return; }
    for t in weak strong; do
        sel "table=$t" scheme,coef,variant,slabs,efficiency,goal "$f" | awk -F '\t' -v meta="$tmp/$t.meta" '
            { s = $1 " " $2 " " $3; if (!(s in row)) name[++n] = s
              g = $4 == "" ? 1 : $4 # one GPU: the undivided step, no slabs
              row[s] = row[s] g "\t" ($5 == "" ? "NaN" : 100 * $5) "\n"; goal = $6; if (g + 0 > most) most = g + 0 }
            END { for (i = 1; i <= n; i++) printf "%s%s\n%s", (i > 1 ? "\n\n" : ""), name[i], row[name[i]]
                  printf "%d %g %d\n", n, goal, most > meta }' >"$tmp/$t.dat"
    done
    read -r nw wgoal wmost <"$tmp/weak.meta"
    read -r ns sgoal smost <"$tmp/strong.meta"
    [ "$nw$ns" != 00 ] || { echo "  scaling: skipped (no weak or strong rows)"; return; }
    gp scaling.gp "Full step over several GPUs: parallel efficiency (f32; halo planes through NCCL)" "$(caption "$f")" \
        "$out/scaling" "$tmp/weak.dat" "$nw" "$tmp/strong.dat" "$ns" "$wgoal $sgoal" \
        "$([ "$wmost" -gt "$smost" ] && echo "$wmost" || echo "$smost")"
}

. "$here/cost.sh" # plot_cost

for dir in "$results"/*/; do
    machine=$(basename "$dir")
    [ "$machine" = plots ] && continue
    ex="$xdir/$machine" # this machine's extracts
    set -- "$ex"/*.csv
    [ -f "$1" ] || continue
    out="$dir"plots
    mkdir -p "$out"
    rm -f "$out"/*.png "$out"/*.svg # derived files: no stale figure survives
    echo "$machine -> $out/"
    rm -f "$tmp"/* # no data file of the previous machine may stand in for this one's
    dev=$(sel "" device "$@" | head -n 1)
    plot_throughput "$dev" "$@"
    if [ "$dev" = gpu ]; then plot_blocks "$@"; fi
    plot_sizes "$dev" "$@"
    if [ "$dev" = cpu ]; then plot_cycles; fi
    plot_roofline "$dev" "$@"
    plot_peers
    plot_scaling
    plot_cost "$dir"
done

# Dispersion: analysis, not measurement, so one set for all machines.
has_col() { # FILE NAME: whether the CSV's header has that column
    head -n 1 "$1" | tr -d '\r' | tr , '\n' | grep -qx "$2"
}

# Series per scheme (named "scheme (S=courant)" when the CSV gives the Courant number):
# one block per series, its first line the name, then  x  |vp_error|. Rows are kept where
# column KEEP (numerically, if a number) equals VALUE; KEEP "" keeps every row. With XCOL
# theta_deg, theta = 0 rows are kept whatever their phi: the pole lies on every azimuth.
disp_dat() { # CSV XCOL KEEP VALUE > dat
    c=scheme,$2,vp_error
    has_col "$1" courant && c=$c,courant
    [ -n "$3" ] && c=$c,$3
    sel "" "$c" "$1" | awk -F '\t' -v keep="$3" -v value="$4" -v pole="$([ "$2" = theta_deg ] && echo 1)" '
    {
        if (keep != "" && $NF != value && ($NF + 0 != value + 0 || value !~ /^[0-9.]+$/) && !(pole && $2 + 0 == 0)) next
        name = $1 ((keep == "" ? NF >= 4 : NF >= 5) ? " (S=" $4 ")" : "")
        if (name != last) { if (last != "") printf "\n\n"; print name; last = name }
        if (keep == "" || !seen[name, $2 + 0]++) print $2 "\t" ($3 < 0 ? -$3 : $3)
    }'
}

out="$results/plots"
mkdir -p "$out"
rm -f "$out"/dispersion-*.png "$out"/dispersion-*.svg
echo "dispersion -> $out/"
for t in vs-ppw vs-angle; do
    csv="$out/dispersion-$t.csv"
    if [ $t = vs-ppw ]; then src=${DISPERSION_PPW_CSV:-}; else src=${DISPERSION_ANGLE_CSV:-}; fi
    if [ -n "$src" ]; then
        cp "$src" "$tmp/d.csv" 2>/dev/null || { echo "  dispersion $t: skipped (cannot read $src)"; continue; }
    else
        opt=
        [ $t = vs-angle ] && opt="--ppw 10"
        if ! [ -x "$bin" ] || ! "$bin" dispersion --table $t $opt --csv >"$tmp/d.csv" 2>"$tmp/d.err"; then
            echo "  dispersion $t: skipped ($bin dispersion --table $t $opt --csv failed: $(head -n 1 "$tmp/d.err" 2>/dev/null || echo 'not built'))"
            continue
        fi
    fi
    mv "$tmp/d.csv" "$csv.tmp" && mv "$csv.tmp" "$csv"
    cap="from fdtdbench dispersion --table $t $opt ($(basename "$csv")); cubic cells"
    if [ $t = vs-ppw ]; then
        # The table's "worst" direction if it names directions, else each listed direction.
        if has_col "$csv" direction && sel direction=worst scheme "$csv" | grep -q .; then
            disp_dat "$csv" ppw direction worst >"$tmp/disp.dat"
            what="in the worst direction of propagation"
        else
            disp_dat "$csv" ppw "" "" | awk -F '\t' '
            function flush(i) { for (i = 1; i <= n; i++) print x[i] "\t" m[x[i]]; n = 0; split("", m) }
            NF == 1 { flush(); if (b++) printf "\n\n"; print }
            NF == 2 { if (!($1 in m)) x[++n] = $1; if (!($1 in m) || $2 + 0 > m[$1]) m[$1] = $2 }
            END { flush() }' >"$tmp/disp.dat"
            what="the worst of the directions listed"
        fi
        ns=$(grep -c '^[^0-9]' "$tmp/disp.dat")
        gp dispersion_ppw.gp "Phase-velocity error against resolution, $what" "$cap" \
            "$out/dispersion-vs-ppw" "$tmp/disp.dat" "$ns"
    else
        # Two sweeps that pass the axial, face- and body-diagonal directions.
        disp_dat "$csv" phi_deg theta_deg 90 >"$tmp/disp1.dat"
        disp_dat "$csv" theta_deg phi_deg 45 >"$tmp/disp2.dat"
        n1=$(grep -c '^[^0-9]' "$tmp/disp1.dat") n2=$(grep -c '^[^0-9]' "$tmp/disp2.dat")
        if [ "$n1$n2" = 00 ]; then
            echo "  dispersion vs-angle: skipped (no rows at theta = 90 or phi = 45 degrees)"
            continue
        fi
        ppw=$(sel "" ppw "$csv" | head -n 1)
        gp dispersion_angle.gp "Phase-velocity error against direction at $ppw cells per wavelength" "$cap" \
            "$out/dispersion-vs-angle" "$tmp/disp1.dat" "$n1" "$tmp/disp2.dat" "$n2"
    fi
done
