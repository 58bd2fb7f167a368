#!/bin/sh
# openEMS and Meep beside this suite's Yee full step, on the same grid, thread count, number of
# steps and boundary (PEC walls), in one run:
#   sh scripts/peers.sh [--grid N] [--steps K] [--threads T] [--results DIR] [--fdtdbench PATH]
# Writes RESULTS/<machine>/steps/peers-<date>.csv: the suite's rows (fused and components variants
# x indexed, uniform, array coefficients; the step command's columns) and one row per peer with
# the figure the peer itself reports. What each peer's step holds:
#   openEMS (multithreaded engine, float, compressed operator = coefficients by index): the E and
#     H updates, PEC walls (coefficients zeroed in its operator), one one-cell excitation box.
#     Its own "Speed: X MCells/s" line is recorded.
#   Meep (float64; the Debian build is serial, so it runs on one thread whatever T is): the B, H,
#     D and E updates of vacuum, metal walls (its default), one point source. Its own "time
#     stepping: S s" line is recorded; MCells/s = cells x steps / S.
# A missing peer is installed with apt-get when run as root, else skipped with one line saying
# how to get it. A peer that fails or prints no figure: one line, exit 1, no file written.
set -u
grid=200 steps=100 threads=0 dir=results B=${FDTDBENCH:-build/fdtdbench}
while [ $# -gt 0 ]; do
    case $1 in
    --grid) grid=$2 ;;
    --steps) steps=$2 ;;
    --threads) threads=$2 ;;
    --results) dir=$2 ;;
    --fdtdbench) B=$2 ;;
    -h | --help) sed -n '2,18s/^# \{0,1\}//p' "$0"; exit 0 ;;
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

# have BINARY PACKAGE NAME: 0 if BINARY is there, installing PACKAGE when root with apt-get.
have() {
    command -v "$1" >/dev/null && return 0
    # PEERS_INSTALL=0: never install (the tests, and machines without a package mirror).
    if [ "${PEERS_INSTALL:-1}" != 0 ] && [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "peers: installing $3 (apt-get install $2)" >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$2" >"$tmp/apt.log" 2>&1 ||
            { apt-get update >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$2" >"$tmp/apt.log" 2>&1; }
        command -v "$1" >/dev/null && return 0
    fi
    echo "peers: skipping $3: not installed (as root: apt-get install $2)" >&2
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

# peer_row CODE VERSION VARIANT PRECISION COEF THREADS SECONDS MCELLS: a row in the suite's
# columns, its context (machine, host, date) taken from the suite's first row.
peer_row() {
    awk -F, -v OFS=, -v code="$1" -v version="$2" -v variant="$3" -v prec="$4" -v coef="$5" -v threads="$6" \
        -v secs="$7" -v mc="$8" -v n="$grid" -v steps="$steps" '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; nf = NF; next }
        NR == 2 {
            for (i = 1; i <= nf; i++) out[i] = ""
            for (i = col["device_name"]; i <= nf; i++) out[i] = $i
            out[col["compiler"]] = out[col["cflags"]] = out[col["git_commit"]] = out[col["omp_bind"]] = ""
            out[col["table"]] = "peers"; out[col["code"]] = code; out[col["code_version"]] = version
            out[col["scheme"]] = "yee"; out[col["device"]] = "cpu"; out[col["variant"]] = variant
            out[col["precision"]] = prec; out[col["coef"]] = coef; out[col["boundary"]] = "pec"; out[col["pml"]] = 0
            out[col["nx"]] = out[col["ny"]] = out[col["nz"]] = n; out[col["threads"]] = threads
            out[col["steps"]] = steps; out[col["reps"]] = 1
            out[col["median_ms"]] = secs * 1000 / steps
            out[col["cells_per_s"]] = mc * 1e6; out[col["mcells_per_s"]] = mc; out[col["verified"]] = 0
            line = out[1]; for (i = 2; i <= nf; i++) line = line OFS out[i]; print line }' \
        "$tmp/header" "$tmp/rows" >>"$tmp/peers"
}

# ---- openEMS ----
if have openEMS openems openEMS; then
    lines=$(seq -s, 0 $((grid - 1)))
    c=$((grid / 2))
    cat >"$tmp/openems.xml" <<XML
<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
<openEMS>
  <FDTD NumberOfTimesteps="$steps" endCriteria="1e-30">
    <Excitation Type="0" f0="0" fc="1e9"/>
    <BoundaryCond xmin="0" xmax="0" ymin="0" ymax="0" zmin="0" zmax="0"/>
  </FDTD>
  <ContinuousStructure CoordSystem="0">
    <Properties>
      <Excitation ID="0" Name="excite" Type="0" Excite="0,0,1">
        <Primitives><Box Priority="0"><P1 X="$c" Y="$c" Z="$c"/><P2 X="$c" Y="$c" Z="$((c + 1))"/></Box></Primitives>
      </Excitation>
    </Properties>
    <RectilinearGrid DeltaUnit="0.001" CoordSystem="0">
      <XLines>$lines</XLines>
      <YLines>$lines</YLines>
      <ZLines>$lines</ZLines>
    </RectilinearGrid>
  </ContinuousStructure>
</openEMS>
XML
    (cd "$tmp" && openEMS openems.xml --engine=multithreaded --numThreads="$threads" >openems.log 2>&1) ||
        fail "openEMS failed: $(tail -n 1 "$tmp/openems.log")"
    version=$(sed -n 's/.*openEMS .* version \(v[^ ]*\).*/\1/p' "$tmp/openems.log" | head -n 1)
    mc=$(sed -n 's/^Speed: *\([0-9.eE+-]*\) MCells\/s.*/\1/p' "$tmp/openems.log" | tail -n 1)
    secs=$(sed -n 's/^Time for .* cells : *\([0-9.eE+-]*\) sec.*/\1/p' "$tmp/openems.log" | tail -n 1)
    # openEMS writes large counts in scientific notation (8.1e+06): compare the values.
    counted=$(sed -n 's/.*--> *\([0-9.eE+]*\) FDTD cells.*/\1/p' "$tmp/openems.log" | head -n 1)
    [ -n "$counted" ] && counted=$(awk -v x="$counted" 'BEGIN { printf "%.0f", x }')
    [ -n "$mc" ] && [ -n "$secs" ] || fail "openEMS printed no speed: $(tail -n 1 "$tmp/openems.log")"
    [ "$counted" = "$cells" ] || fail "openEMS stepped $counted cells, not $cells"
    peer_row openEMS "${version:-unknown}" "multithreaded engine" f32 indexed "$threads" "$secs" "$mc"
fi

# ---- Meep ----
if have meep meep Meep; then
    cat >"$tmp/meep.ctl" <<CTL
(set! geometry-lattice (make lattice (size $grid $grid $grid)))
(set! resolution 1)
(set! sources (list (make source (src (make continuous-src (frequency 0.1))) (component Ez) (center 0 0 0))))
(run-until (* $steps 0.5 (- 1 1e-9)))
(meep-fields-print-times fields)
CTL
    # Courant 0.5 at resolution 1: dt = 0.5, so `steps` steps (a hair under, to stop on the last one).
    (cd "$tmp" && OMP_NUM_THREADS=$threads meep meep.ctl >meep.log 2>&1) || fail "Meep failed: $(tail -n 1 "$tmp/meep.log")"
    version=$(meep --version 2>/dev/null | sed -n 's/^Meep \([^,]*\),.*/\1/p' | head -n 1)
    secs=$(sed -n 's/^ *time stepping: *\([0-9.eE+-]*\) s.*/\1/p' "$tmp/meep.log" | tail -n 1)
    done_steps=$(sed -n 's/.*finished at t = .*(\([0-9]*\) timesteps).*/\1/p' "$tmp/meep.log" | tail -n 1)
    [ -n "$secs" ] || fail "Meep printed no time-stepping figure: $(tail -n 1 "$tmp/meep.log")"
    [ "$done_steps" = "$steps" ] || fail "Meep ran ${done_steps:-no} steps, not $steps"
    mthreads=1
    ldd "$(command -v meep)" 2>/dev/null | grep -q 'gomp' && mthreads=$threads
    mc=$(awk -v c="$cells" -v k="$steps" -v s="$secs" 'BEGIN { printf "%.6g", c * k / s / 1e6 }')
    peer_row Meep "${version:-unknown}" "$( [ "$mthreads" -eq 1 ] && echo 'serial build' || echo openmp)" f64 "" \
        "$mthreads" "$secs" "$mc"
fi

# One file, written whole: into a temporary name in the destination folder, then renamed.
mkdir -p "$dir/$machine/steps" || fail "cannot create $dir/$machine/steps"
out="$dir/$machine/steps/peers-$(date -u +%Y%m%d-%H%M%S).csv"
cat "$tmp/header" "$tmp/rows" >"$out.tmp" && { [ ! -s "$tmp/peers" ] || cat "$tmp/peers" >>"$out.tmp"; } &&
    mv "$out.tmp" "$out" || { rm -f "$out.tmp"; fail "cannot write $out"; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "%-10s %-22s %-7s %-4s threads %-2s %9.1f MCells/s\n", $col["code"], $col["variant"], $col["coef"],
      $col["precision"], $col["threads"], $col["mcells_per_s"] }' "$out"
echo "peers: wrote $out" >&2
