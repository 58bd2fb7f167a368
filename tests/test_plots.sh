#!/bin/sh
# plots/render.sh on the synthetic sample in tests/data: every gnuplot script makes a
# non-empty PNG (and an SVG), absent data is skipped with a note and not an error, a missing
# gnuplot is a message and exit status 0, and the page links only figures that exist.
# FDTDBENCH is the binary (tests/run.sh sets it); the gnuplot tests are skipped without gnuplot.
bin=${FDTDBENCH:-build/fdtdbench}
build=$(dirname "$bin")
. tests/shlib.sh

is_png() { # non-empty, with the PNG signature
    [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}

# Without gnuplot: one line naming the package, exit status 0 (make bench must not fail).
out=$(PATH=/nonexistent /bin/sh plots/render.sh "$build" "$tmp/none" 2>&1)
rc=$?
f=
[ $rc -eq 0 ] || f="exit status $rc"
echo "$out" | grep -qx 'gnuplot not found: install the package gnuplot-nox (apt-get install gnuplot-nox)' || f="$f
output: $out"
result no_gnuplot_is_a_message "$f"

# need_gnuplot.sh with stand-ins for id and apt-get: as root with apt-get it installs
# gnuplot-nox, saying so in one line; as another user it says how in one line; never fails.
mkdir -p "$tmp/fake"
printf '#!/bin/sh\necho "$*" >>"%s/apt.args"\n' "$tmp" >"$tmp/fake/apt-get"
for who in 0 1000; do
    printf '#!/bin/sh\necho %s\n' $who >"$tmp/fake/id"
    chmod +x "$tmp/fake/apt-get" "$tmp/fake/id"
    rm -f "$tmp/apt.args"
    out=$(PATH="$tmp/fake" /bin/sh plots/need_gnuplot.sh "$tmp/apt.log" 2>&1)
    rc=$?
    f=
    [ $rc -eq 0 ] || f="exit status $rc"
    [ "$(echo "$out" | wc -l)" -eq 1 ] || f="$f
not one line: $out"
    if [ $who = 0 ]; then
        echo "$out" | grep -q '^gnuplot not found: installing gnuplot-nox' || f="$f
output: $out"
        grep -qx 'install -y gnuplot-nox' "$tmp/apt.args" 2>/dev/null || f="$f
apt-get was not asked to install gnuplot-nox: $(cat "$tmp/apt.args" 2>/dev/null)"
        result need_gnuplot_installs_as_root "$f"
    else
        echo "$out" | grep -q '^gnuplot not found: .*apt-get install gnuplot-nox' || f="$f
output: $out"
        [ ! -e "$tmp/apt.args" ] || f="$f
apt-get ran for a user who is not root"
        result need_gnuplot_says_how "$f"
    fi
done

if ! command -v gnuplot >/dev/null 2>&1; then
    for t in render_sample every_script_makes_a_png absent_data_is_skipped page_links_exist dispersion_from_binary; do
        echo "SKIP $t: gnuplot not found (install the package gnuplot-nox)"
        skipped=$((skipped + 1))
    done
    summary
fi

cp -r tests/data/results "$tmp/r"
out=$(DISPERSION_PPW_CSV=tests/data/dispersion-vs-ppw.csv DISPERSION_ANGLE_CSV=tests/data/dispersion-vs-angle.csv \
    sh plots/render.sh "$build" "$tmp/r" 2>&1)
rc=$?
f=
[ $rc -eq 0 ] || f="exit status $rc"
echo "$out" | grep -qi 'failed' && f="$f
$out"
result render_sample "$f"

# Which script draws each figure: every script must have made at least one.
pairs="throughput.gp:cpu-synthetic-sample/plots/throughput throughput.gp:gpu-synthetic-sample/plots/throughput
    blocks.gp:gpu-synthetic-sample/plots/blocks-yee blocks.gp:gpu-synthetic-sample/plots/blocks-s44
    sizes.gp:cpu-synthetic-sample/plots/sizes sizes.gp:gpu-synthetic-sample/plots/sizes
    cycles.gp:cpu-synthetic-sample/plots/cycles
    roofline.gp:cpu-synthetic-sample/plots/roofline roofline.gp:gpu-synthetic-sample/plots/roofline
    dispersion_ppw.gp:plots/dispersion-vs-ppw dispersion_angle.gp:plots/dispersion-vs-angle
    cost.gp:cpu-synthetic-sample/plots/cost-vs-budget
    peers.gp:cpu-synthetic-sample/plots/peers peers.gp:gpu-synthetic-sample/plots/peers
    scaling.gp:gpu-synthetic-sample/plots/scaling"
f=
for pair in $pairs; do
    p="$tmp/r/${pair#*:}"
    is_png "$p.png" || f="$f
${pair%%:*}: $p.png missing, empty or not a PNG"
    grep -q '<svg' "$p.svg" 2>/dev/null || f="$f
${pair%%:*}: $p.svg missing or not SVG"
done
for s in plots/*.gp; do
    n=$(basename "$s")
    case " $pairs" in
    *" $n:"* | *"$n:"*) ;;
    *) [ "$n" = style.gp ] || f="$f
$s is not exercised by this test" ;;
    esac
done
result every_script_makes_a_png "$f"

# A machine with only a grid-size sweep: the other figures are skipped with a note.
mkdir -p "$tmp/s/cpu-only-sizes"
awk -F, 'NR == 1 || $1 == "sizes"' tests/data/results/cpu-synthetic-sample/bench-2000-01-01.csv \
    >"$tmp/s/cpu-only-sizes/x.csv"
out=$(DISPERSION_PPW_CSV=/nonexistent DISPERSION_ANGLE_CSV=/nonexistent sh plots/render.sh "$build" "$tmp/s" 2>&1)
rc=$?
f=
[ $rc -eq 0 ] || f="exit status $rc"
echo "$out" | grep -q "dispersion vs-ppw: skipped (cannot read /nonexistent)" || f="$f
no skip note for an unreadable dispersion CSV"
is_png "$tmp/s/cpu-only-sizes/plots/sizes.png" || f="$f
no sizes.png"
for what in "throughput: skipped" "roofline: skipped"; do
    echo "$out" | grep -q "$what" || f="$f
no '$what' note in: $out"
done
[ ! -e "$tmp/s/cpu-only-sizes/plots/throughput.png" ] || f="$f
a throughput.png without data"
result absent_data_is_skipped "$f"

# render.sh leaves the page alone; the page written afterwards (as make bench does) links
# only figures that exist.
f=
[ ! -e "$tmp/r/README.md" ] || f="render.sh wrote $tmp/r/README.md"
if [ -x "$bin" ] && "$bin" report --results "$tmp/r" >/dev/null; then
    for l in $(grep -oE '\([^()]*\.(png|svg)\)' "$tmp/r/README.md" | tr -d '()' | sort -u); do
        [ -s "$tmp/r/$l" ] || f="$f
README.md links $l, which does not exist"
    done
    grep -q 'blocks-yee.png' "$tmp/r/README.md" || f="$f
README.md does not show blocks-yee.png"
    result page_links_exist "$f"
else
    echo "SKIP page_links_exist: $bin not built"
    skipped=$((skipped + 1))
fi

# Dispersion straight from the binary, as make plots does; a binary without the
# subcommand is a skip note, not an error.
if [ -x "$bin" ] && "$bin" dispersion --table vs-ppw --csv >/dev/null 2>&1; then
    mkdir -p "$tmp/d"
    out=$(sh plots/render.sh "$build" "$tmp/d" 2>&1)
    f=
    for p in dispersion-vs-ppw dispersion-vs-angle; do
        is_png "$tmp/d/plots/$p.png" || f="$f
$p.png not made: $out"
    done
    result dispersion_from_binary "$f"
else
    echo "SKIP dispersion_from_binary: $bin dispersion --table vs-ppw --csv does not work here"
    skipped=$((skipped + 1))
fi

summary
