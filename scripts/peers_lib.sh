# Sourced by scripts/peers.sh (CPU) and scripts/gpu_peers.sh (GPU): what both do with a peer.
# The caller sets tmp (a scratch folder), grid, steps, and fills $tmp/header (the suite's CSV
# header) and $tmp/rows (the suite's rows) before peer_row; peers' rows go to $tmp/peers.
#
# Every peer figure must come from a run that did the work: each runner below checks, from
# the peer's own output, the grid and the number of steps it ran, and records a field value
# it printed after the run (column check); a run whose value is zero or missing fails.

# The columns a peers file adds to the step command's: set-up time outside the timed steps,
# the field value that shows the run did the work, and the peer's material model in words.
PEER_COLUMNS=setup_s,check,model

peer_fail() { echo "peers: $*" >&2; peers_failed=$((${peers_failed:-0} + 1)); return 1; }

# now: seconds since the epoch, with fractions (GNU date), for a process's wall time.
now() { date +%s.%N; }

# peer_row CODE VERSION VARIANT PRECISION COEF THREADS SECONDS MCELLS SETUP CHECK MODEL [DEVICE]:
# a row in the suite's columns plus PEER_COLUMNS, its context (device, machine, host, date)
# taken from the suite's first row. SECONDS is the time of all the steps.
peer_row() {
    awk -F, -v OFS=, -v code="$1" -v version="$2" -v variant="$3" -v prec="$4" -v coef="$5" -v threads="$6" \
        -v secs="$7" -v mc="$8" -v setup="$9" -v check="${10}" -v model="${11}" -v dev="${12:-}" \
        -v n="$grid" -v steps="$steps" '
        function clean(s) { gsub(/,/, ";", s); gsub(/[\r\n]/, " ", s); return s }
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; nf = NF; next }
        NR == 2 {
            for (i = 1; i <= nf; i++) out[i] = ""
            for (i = col["device_name"]; i <= nf; i++) out[i] = $i
            out[col["compiler"]] = out[col["cflags"]] = out[col["git_commit"]] = out[col["omp_bind"]] = ""
            out[col["table"]] = "peers"; out[col["code"]] = clean(code); out[col["code_version"]] = clean(version)
            out[col["scheme"]] = "yee"; out[col["device"]] = dev != "" ? dev : $col["device"]
            out[col["variant"]] = clean(variant)
            out[col["precision"]] = prec; out[col["coef"]] = coef; out[col["boundary"]] = "pec"
            out[col["nx"]] = out[col["ny"]] = out[col["nz"]] = n; out[col["threads"]] = threads
            out[col["steps"]] = steps; out[col["reps"]] = 1
            out[col["median_ms"]] = sprintf("%.6g", secs * 1000 / steps)
            out[col["cells_per_s"]] = sprintf("%.6g", mc * 1e6); out[col["mcells_per_s"]] = mc
            out[col["verified"]] = 0
            line = out[1]; for (i = 2; i <= nf; i++) line = line OFS out[i]
            print line, setup, clean(check), clean(model); exit }' \
        "$tmp/header" "$tmp/rows" >>"$tmp/peers"
}

# mcells CELLS STEPS SECONDS
mcells() { awk -v c="$1" -v k="$2" -v s="$3" 'BEGIN { printf "%.6g", c * k / s / 1e6 }'; }

# nonzero VALUE: whether VALUE is a number other than zero (a field that moved).
nonzero() { awk -v v="$1" 'BEGIN { exit !(v ~ /^[-+]?[0-9.]+([eE][-+]?[0-9]+)?$/ && v + 0 != 0) }'; }

# humane_secs TEXT: seconds in gprMax's humanize text ("13.1 seconds", "1 minute and 3.2 seconds").
humane_secs() {
    awk -v t="$1" 'BEGIN {
        n = split(t, w, /[ ,]+/); s = 0; got = 0
        for (i = 1; i < n; i++) {
            if (w[i] !~ /^[0-9.]+$/) continue
            u = w[i + 1]; f = 0
            if (u ~ /^day/) f = 86400; else if (u ~ /^hour/) f = 3600; else if (u ~ /^minute/) f = 60
            else if (u ~ /^second/) f = 1; else if (u ~ /^millisecond/) f = 1e-3; else if (u ~ /^microsecond/) f = 1e-6
            if (f) { s += w[i] * f; got = 1 }
        }
        if (got) printf "%.6g", s }'
}

# run_gprmax PYTHON DEVICE THREADS: gprMax 4 on an N^3 box of free space, K iterations,
# #pml_cells: 0 (its outer boundary is then PEC: the tangential E on the box's faces is never
# updated), one z-directed Hertzian dipole at the centre and a receiver two cells from it.
# DEVICE cpu: its OpenMP engine on THREADS threads; gpu: its CUDA engine on GPU 0.
# Single precision. Its figure: the iterations loop's time, gprMax's own "Time taken".
run_gprmax() {
    py=$1 dev=$2 nthreads=$3
    c=$((grid / 2))
    d=$(awk -v n="$grid" 'BEGIN { printf "%.6g", n / 1000 }')
    at() { awk -v i="$1" 'BEGIN { printf "%.6g", i / 1000 }'; }
    cat >"$tmp/gprmax.in" <<IN
#title: fdtd-bench peers
#domain: $d $d $d
#dx_dy_dz: 0.001 0.001 0.001
#time_window: $steps
#pml_cells: 0
#waveform: sine 1 1e9 src
#hertzian_dipole: z $(at $c) $(at $c) $(at $c) src
#rx: $(at $((c + 2))) $(at $c) $(at $c)
IN
    if [ "$dev" = gpu ]; then
        set -- -gpu 0 -gpu_precision single
        what="CUDA engine"
    else
        set -- -cpu_precision single
        what="OpenMP engine"
    fi
    t0=$(now)
    (cd "$tmp" && { [ "$nthreads" -eq 0 ] || export OMP_NUM_THREADS="$nthreads"; } &&
        "$py" -m gprMax gprmax.in --hide-progress-bars "$@" >gprmax.log 2>&1) ||
        { peer_fail "gprMax failed: $(grep -v '^ *$' "$tmp/gprmax.log" | tail -n 1)"; return 1; }
    wall=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.6g", b - a }')
    log=$tmp/gprmax.log
    version=$(sed -n 's/^ *v\([0-9][0-9.]*\) (.*/\1/p' "$log" | head -n 1)
    secs=$(humane_secs "$(sed -n 's/.*Time taken: *//p' "$log" | tail -n 1)")
    # "Domain size: 0.2 x 0.2 x 0.2m (200 x 200 x 200 = 8e+06 cells)"
    cells=$(sed -n 's/^Domain size:.*(\([0-9]*\) x \([0-9]*\) x \([0-9]*\) = .*/\1x\2x\3/p' "$log" | head -n 1)
    iters=$(sed -n 's/^Time window:.*(\([0-9]*\) iterations).*/\1/p' "$log" | head -n 1)
    used=$(sed -n 's/.*with OpenMP backend using \([0-9]*\) thread.*/\1/p' "$log" | head -n 1)
    [ -n "$secs" ] || { peer_fail "gprMax printed no 'Time taken': $(grep -v '^ *$' "$log" | tail -n 1)"; return 1; }
    [ "$cells" = "${grid}x${grid}x${grid}" ] || { peer_fail "gprMax's domain is ${cells:-not stated} cells, not ${grid}x${grid}x${grid}"; return 1; }
    [ "$iters" = "$steps" ] || { peer_fail "gprMax ran ${iters:-no} iterations, not $steps"; return 1; }
    if [ "$dev" = gpu ]; then
        grep -q 'with CUDA backend' "$log" || { peer_fail "gprMax did not say it ran its CUDA backend"; return 1; }
    else
        [ -n "$used" ] || { peer_fail "gprMax did not say it ran its OpenMP backend"; return 1; }
    fi
    # Its output file: the iterations and grid it records, and the receiver's largest |Ez|.
    if ! probe=$(cd "$tmp" && "$py" -c '
import h5py, numpy
with h5py.File("gprmax.h5", "r") as f:
    n = "x".join(str(int(v)) for v in f.attrs["nx_ny_nz"])
    print(int(f.attrs["Iterations"]), n, "%.6g" % float(numpy.abs(f["rxs/rx1/Ez"][:]).max()))' 2>"$tmp/probe.err"); then
        peer_fail "gprMax wrote no readable output file: $(tail -n 1 "$tmp/probe.err")"
        return 1
    fi
    set -- $probe
    [ "$1" = "$steps" ] && [ "$2" = "${grid}x${grid}x${grid}" ] ||
        { peer_fail "gprMax's output file records $1 iterations of $2, not $steps of ${grid}x${grid}x${grid}"; return 1; }
    nonzero "$3" || { peer_fail "gprMax's receiver saw no field (max |Ez| $3): the run did nothing"; return 1; }
    [ "$dev" = gpu ] && used=0
    setup=$(awk -v w="$wall" -v s="$secs" 'BEGIN { printf "%.3g", w - s }')
    peer_row gprMax "${version:-unknown}" "$what" f32 indexed "${used:-$nthreads}" "$secs" \
        "$(mcells $((grid * grid * grid)) "$steps" "$secs")" "$setup" "rx max abs Ez $3 V/m" \
        "material ID per component (uint32) into a coefficient table" "$dev"
}
