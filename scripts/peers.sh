#!/bin/sh
# openEMS, Meep and gprMax beside this suite's Yee full step, on the same grid, thread count,
# number of steps and boundary (PEC walls), in one run, back to back:
#   sh scripts/peers.sh [--grid N] [--steps K] [--threads T] [--results DIR] [--fdtdbench PATH]
# Writes RESULTS/<machine>/steps/peers-<date>.csv and its page (.md, fdtdbench report): the
# suite's rows (fused and components variants x indexed, uniform, array coefficients; the step
# command's columns) and one row per peer with the figure the peer itself reports, plus
# setup_s (the peer's wall time outside its steps), check (a field value it printed after the
# run) and model (its material model). What each peer's step holds:
#   openEMS (multithreaded engine, float, compressed operator = coefficients by index): the E and
#     H updates, PEC walls (coefficients zeroed in its operator), one one-cell excitation box.
#     Its own "Speed: X MCells/s" line; check: a voltage probe beside the excitation.
#   Meep (float64; the Debian build is serial, so it runs on one thread whatever T is): the B, H,
#     D and E updates of vacuum, metal walls (its default), one point source. Its time is the
#     sum of its "Field time usage" lines but set-up ("connecting chunks", "everything else"):
#     Meep charges each to one line only. check: Ez one cell from the source.
#   gprMax 4 (OpenMP engine, single precision, a uint32 material ID per component into a
#     coefficient table): #pml_cells: 0 (PEC outer faces), a Hertzian dipole; its own "Time
#     taken"; check: the receiver's largest |Ez| from its output file.
# Each peer's grid and steps are checked from its own output. A missing peer is installed when
# run as root (apt-get; pip for gprMax; PEERS_INSTALL=0: never), else skipped with one line
# saying how to get it. A peer that fails: one line; the others still run, the file is written
# and the exit status is 1. PEERS_PYTHON: the Python that runs gprMax (python3).
set -u
grid=200 steps=100 threads=0 dir=results B=${FDTDBENCH:-build/fdtdbench}
while [ $# -gt 0 ]; do
    case $1 in
    --grid) grid=$2 ;;
    --steps) steps=$2 ;;
    --threads) threads=$2 ;;
    --results) dir=$2 ;;
    --fdtdbench) B=$2 ;;
    -h | --help) sed -n '2,27s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "peers: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    [ $# -ge 2 ] || { echo "peers: $1 needs a value" >&2; exit 2; }
    shift 2
done
for v in "$grid" "$steps" "$threads"; do
    case $v in '' | *[!0-9]*) echo "peers: '$v' is not a whole number" >&2; exit 2 ;; esac
done
[ "$grid" -ge 8 ] && [ "$grid" -le 2000 ] || { echo "peers: --grid $grid: from 8 to 2000" >&2; exit 2; }
[ "$steps" -ge 1 ] && [ "$steps" -le 1000000 ] || { echo "peers: --steps $steps: from 1 to 1000000" >&2; exit 2; }
[ "$threads" -eq 0 ] && threads=$(nproc)
[ -x "$B" ] || { echo "peers: $B not built (make)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/peers_lib.sh"
py=${PEERS_PYTHON:-python3}
peers_failed=0

# may_install: whether a missing peer may be installed here (root, and not PEERS_INSTALL=0, as
# in the tests and on machines without a package mirror).
may_install() { [ "${PEERS_INSTALL:-1}" != 0 ] && [ "$(id -u)" -eq 0 ]; }

# have BINARY PACKAGE NAME: 0 if BINARY is there, installing PACKAGE when root with apt-get.
have() {
    command -v "$1" >/dev/null && return 0
    if may_install && command -v apt-get >/dev/null; then
        echo "peers: installing $3 (apt-get install $2)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$2" >"$tmp/apt.log" 2>&1 ||
            { apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$2" >"$tmp/apt.log" 2>&1; }
        command -v "$1" >/dev/null && return 0
    fi
    echo "peers: skipping $3: not installed (as root: apt-get install $2)" >&2
    return 1
}

# have_gprmax: 0 if $py imports gprMax, installing it with pip when root.
have_gprmax() {
    "$py" -c 'import gprMax' 2>/dev/null && return 0
    if may_install && "$py" -m pip --version >/dev/null 2>&1; then
        echo "peers: installing gprMax ($py -m pip install gprmax==4.0.1)" >&2
        "$py" -m pip install -q gprmax==4.0.1 >"$tmp/pip.log" 2>&1 && "$py" -c 'import gprMax' 2>/dev/null && return 0
    fi
    echo "peers: skipping gprMax: not installed ($py -m pip install gprmax)" >&2
    return 1
}
fail() { echo "peers: $*" >&2; exit 1; }

# This suite, the same steps and walls, each storage and both variants (fused: one kernel per
# half-step, the suite's fastest; components: six kernels): the rows and their header.
for variant in fused components; do
    for coef in indexed uniform array; do
        "$B" step --scheme yee --grid "$grid" --steps "$steps" --reps 3 --threads "$threads" --boundary pec \
            --variant "$variant" --coef "$coef" --csv --results "$tmp/suite" >"$tmp/suite.csv" 2>"$tmp/err" ||
            fail "fdtdbench step --variant $variant --coef $coef failed: $(tail -n 1 "$tmp/err")"
        head -n 1 "$tmp/suite.csv" >"$tmp/header"
        sed -n 2p "$tmp/suite.csv" >>"$tmp/rows"
    done
done
machine=$(ls "$tmp/suite") # the step command's folder: <machine>, holding steps/
cells=$((grid * grid * grid))
: >"$tmp/peers"

# ---- openEMS ----
run_openems() {
    lines=$(seq -s, 0 $((grid - 1)))
    c=$((grid / 2))
    # A Gaussian pulse short enough (50 GHz: 30 steps at this 1 mm grid) to be well under way
    # in a short run, and a probe beside it that openEMS samples every few steps.
    cat >"$tmp/openems.xml" <<XML
<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
<openEMS>
  <FDTD NumberOfTimesteps="$steps" endCriteria="1e-30">
    <Excitation Type="0" f0="0" fc="50e9"/>
    <BoundaryCond xmin="0" xmax="0" ymin="0" ymax="0" zmin="0" zmax="0"/>
  </FDTD>
  <ContinuousStructure CoordSystem="0">
    <Properties>
      <Excitation ID="0" Name="excite" Type="0" Excite="0,0,1">
        <Primitives><Box Priority="0"><P1 X="$c" Y="$c" Z="$c"/><P2 X="$c" Y="$c" Z="$((c + 1))"/></Box></Primitives>
      </Excitation>
      <ProbeBox ID="1" Name="probe" Type="0" Weight="1">
        <Primitives><Box Priority="0"><P1 X="$((c + 1))" Y="$c" Z="$c"/><P2 X="$((c + 1))" Y="$c" Z="$((c + 1))"/></Box></Primitives>
      </ProbeBox>
    </Properties>
    <RectilinearGrid DeltaUnit="0.001" CoordSystem="0">
      <XLines>$lines</XLines>
      <YLines>$lines</YLines>
      <ZLines>$lines</ZLines>
    </RectilinearGrid>
  </ContinuousStructure>
</openEMS>
XML
    t0=$(now)
    (cd "$tmp" && openEMS openems.xml --engine=multithreaded --numThreads="$threads" >openems.log 2>&1) ||
        { peer_fail "openEMS failed: $(tail -n 1 "$tmp/openems.log")"; return 1; }
    wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.6g", b - a }')
    version=$(sed -n 's/.*openEMS .* version \(v[^ ]*\).*/\1/p' "$tmp/openems.log" | head -n 1)
    mc=$(sed -n 's/^Speed: *\([0-9.eE+-]*\) MCells\/s.*/\1/p' "$tmp/openems.log" | tail -n 1)
    secs=$(sed -n 's/^Time for .* cells : *\([0-9.eE+-]*\) sec.*/\1/p' "$tmp/openems.log" | tail -n 1)
    iters=$(sed -n 's/^Time for \([0-9]*\) iterations.*/\1/p' "$tmp/openems.log" | tail -n 1)
    # openEMS writes large counts in scientific notation (8.1e+06): compare the values.
    counted=$(sed -n 's/.*--> *\([0-9.eE+]*\) FDTD cells.*/\1/p' "$tmp/openems.log" | head -n 1)
    [ -n "$counted" ] && counted=$(awk -v x="$counted" 'BEGIN { printf "%.0f", x }')
    [ -n "$mc" ] && [ -n "$secs" ] || { peer_fail "openEMS printed no speed: $(tail -n 1 "$tmp/openems.log")"; return 1; }
    [ "$counted" = "$cells" ] || { peer_fail "openEMS stepped $counted cells, not $cells"; return 1; }
    [ "$iters" = "$steps" ] || { peer_fail "openEMS ran ${iters:-no} iterations, not $steps"; return 1; }
    probe=$(awk '!/^%/ { v = $2 < 0 ? -$2 : $2; if (v > m) m = v; n++ } END { if (n) printf "%.6g", m }' \
        "$tmp/probe" 2>/dev/null)
    nonzero "$probe" || { peer_fail "openEMS's probe saw no field (max |V| '${probe}'): the run did nothing"; return 1; }
    peer_row openEMS "${version:-unknown}" "multithreaded engine" f32 indexed "$threads" "$secs" "$mc" \
        "$(awk -v w="$wall" -v s="$secs" 'BEGIN { printf "%.3g", w - s }')" "probe max abs V $probe V" \
        "compressed operator: coefficient sets by index"
}
have openEMS openems openEMS && run_openems

# ---- Meep ----
run_meep() {
    cat >"$tmp/meep.ctl" <<CTL
(set! geometry-lattice (make lattice (size $grid $grid $grid)))
(set! resolution 1)
(set! sources (list (make source (src (make continuous-src (frequency 0.1))) (component Ez) (center 0 0 0))))
(run-until (* $steps 0.5 (- 1 1e-9)))
(meep-fields-print-times fields)
(print "probe Ez: " (get-field-point Ez (vector3 1 0 0)) "\n")
CTL
    # Courant 0.5 at resolution 1: dt = 0.5, so `steps` steps (a hair under, to stop on the last one).
    t0=$(now)
    (cd "$tmp" && OMP_NUM_THREADS=$threads meep meep.ctl >meep.log 2>&1) ||
        { peer_fail "Meep failed: $(tail -n 1 "$tmp/meep.log")"; return 1; }
    wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.6g", b - a }')
    version=$(meep --version 2>/dev/null | sed -n 's/^Meep \([^,]*\),.*/\1/p' | head -n 1)
    # Meep times each part of a step in its own line (a timing stack): the step is their sum.
    secs=$(awk '/^Field time usage:/ { on = 1; next }
        on && /^ *[a-zA-Z][a-zA-Z0-9 -]*: *[0-9.eE+-]+ s$/ {
            name = $0; sub(/^ */, "", name); sub(/:.*/, "", name)
            v = $0; sub(/.*: */, "", v); sub(/ s$/, "", v)
            if (name == "time stepping") got = 1
            if (name != "connecting chunks" && name != "everything else") s += v; next }
        on && NF == 0 { on = 0 }
        END { if (got) printf "%.6g", s }' "$tmp/meep.log")
    done_steps=$(sed -n 's/.*finished at t = .*(\([0-9]*\) timesteps).*/\1/p' "$tmp/meep.log" | tail -n 1)
    size=$(sed -n 's/^Computational cell is \([0-9]*\) x \([0-9]*\) x \([0-9]*\) with resolution 1$/\1x\2x\3/p' \
        "$tmp/meep.log" | head -n 1)
    # The real part of the complex value it prints ("-0.0187+0.0i").
    probe=$(sed -n 's/^probe Ez: *//p' "$tmp/meep.log" | tail -n 1 |
        awk '{ if (match($0, /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?/)) print substr($0, 1, RLENGTH) }')
    [ -n "$secs" ] || { peer_fail "Meep printed no time-stepping figure: $(tail -n 1 "$tmp/meep.log")"; return 1; }
    [ "$done_steps" = "$steps" ] || { peer_fail "Meep ran ${done_steps:-no} steps, not $steps"; return 1; }
    [ "$size" = "${grid}x${grid}x${grid}" ] || { peer_fail "Meep's cell is ${size:-not stated}, not ${grid}x${grid}x${grid}"; return 1; }
    nonzero "$probe" || { peer_fail "Meep's field one cell from the source is '${probe}': the run did nothing"; return 1; }
    mthreads=1
    ldd "$(command -v meep)" 2>/dev/null | grep -q 'gomp' && mthreads=$threads
    peer_row Meep "${version:-unknown}" "$([ "$mthreads" -eq 1 ] && echo 'serial build' || echo openmp)" f64 uniform \
        "$mthreads" "$secs" "$(mcells "$cells" "$steps" "$secs")" \
        "$(awk -v w="$wall" -v s="$secs" 'BEGIN { printf "%.3g", w - s }')" "Ez one cell from the source $probe" \
        "vacuum: no per-cell permittivity (mu = 1: H = B)"
}
have meep meep Meep && run_meep

# ---- gprMax ----
have_gprmax && run_gprmax "$py" cpu "$threads"

# One file, written whole: into a temporary name in the destination folder, then renamed.
mkdir -p "$dir/$machine/steps" || fail "cannot create $dir/$machine/steps"
out="$dir/$machine/steps/peers-$(date -u +%Y%m%d-%H%M%S).csv"
{ echo "$(cat "$tmp/header"),$PEER_COLUMNS" && sed 's/$/,,,/' "$tmp/rows" && cat "$tmp/peers"; } >"$out.tmp" &&
    mv "$out.tmp" "$out" || { rm -f "$out.tmp"; fail "cannot write $out"; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "%-10s %-22s %-8s %-4s threads %-2s %9.1f MCells/s  %s\n", $col["code"], $col["variant"], $col["coef"],
      $col["precision"], $col["threads"], $col["mcells_per_s"], $col["check"] }' "$out"
"$B" report --page "$out" >/dev/null 2>"$tmp/report.err" || echo "peers: no page for $out: $(tail -n 1 "$tmp/report.err")" >&2
echo "peers: wrote $out" >&2
[ "$peers_failed" -eq 0 ]
