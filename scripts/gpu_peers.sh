#!/bin/sh
# GPU peers: gprMax 4's CUDA engine and fdtdx (JAX) beside this suite's Yee full step (fused and
# fused25d; indexed, uniform and array coefficients) on one GPU, the same grids, steps and PEC
# walls, back to back in one run:
#   sh scripts/gpu_peers.sh [--grids "200 512"] [--steps K] [--results DIR] [--fdtdbench PATH]
#                           [--wheels DIR] [--out DIR] [--device gpu|cpu] [--setup-only]
#   sh scripts/gpu_peers.sh --fetch [--wheels DIR]   (where PyPI is reachable: what to carry)
# --setup-only installs the peers (and builds pycuda) and stops: a first call on a lent machine,
# so that the measuring call has its whole time limit.
# Writes RESULTS/<machine>/steps/peers-<date>.csv and its page, as scripts/peers.sh does (its
# columns; setup_s holds gprMax's set-up with its kernels' nvcc compile, and fdtdx's jax.jit
# compile, neither in the step time). Into --out (default $OUT where set): that CSV, its page
# and gpu-peers-logs.tar.gz, the log of every step (3 files). For a machine without network,
# the peers' Python packages come from --wheels (default .whl, filled by --fetch), installed
# with pip --no-index into /tmp/site (PEERS_SITE); pycuda, which has no binary wheel, is built
# there from its sdist against the CUDA toolkit of the nvcc on the PATH (a few minutes, once:
# it is kept in /tmp/site).
# fdtdx imports tidy3d (its mode solver) and imageio_ffmpeg (videos) when loaded, neither used
# here and too large to carry (tidy3d needs pydantic, dask, shapely...): where they are missing
# the script puts stand-ins on the path that raise if called.
# What each peer's step is: see scripts/peer_fdtdx.py and run_gprmax in scripts/peers_lib.sh.
# --device cpu runs the same on the CPU (gprMax's OpenMP engine, JAX's CPU backend): a test of
# the script where there is no GPU. A missing or failing peer: one line; the others still run,
# the file is written and the exit status is 1. PEERS_PYTHON: the Python (python3).
set -u
grids="200 512" steps=100 dir=results B=${FDTDBENCH:-build/fdtdbench} whl=.whl outdir=${OUT:-} device=gpu fetch=0 setup_only=0
site=${PEERS_SITE:-/tmp/site}
case $site in /*) ;; *) site=$(pwd)/$site ;; esac # on PYTHONPATH: the peers run in other folders
py=${PEERS_PYTHON:-python3}
while [ $# -gt 0 ]; do
    case $1 in
    --fetch) fetch=1; shift; continue ;;
    --setup-only) setup_only=1; shift; continue ;;
    --grids) grids=$2 ;;
    --steps) steps=$2 ;;
    --results) dir=$2 ;;
    --fdtdbench) B=$2 ;;
    --wheels) whl=$2 ;;
    --out) outdir=$2 ;;
    --device) device=$2 ;;
    -h | --help) sed -n '2,24s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "gpu_peers: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    [ $# -ge 2 ] || { echo "gpu_peers: $1 needs a value" >&2; exit 2; }
    shift 2
done

# What is carried to a machine without network, pinned: gprMax and the packages it needs that
# the GPU image lacks; pycuda's sdist and what it needs to build and run; fdtdx and the packages
# it imports that the image lacks. Python 3.12, x86-64 (the GPU image's python3).
WHEELS="gprmax==4.0.1 numpy-stl==4.1.1 python-utils==4.2.0 terminaltables==3.1.10
fdtdx==0.6.3 loguru==0.7.3 pytreeclass==0.11.1 trimesh==5.2.0 gdstk==1.0.2
pytools==2026.1.1 platformdirs==4.14.8 mako==1.4.3 siphash24==1.9"
PYCUDA=pycuda==2026.1
if [ "$fetch" = 1 ]; then
    mkdir -p "$whl" || exit 1
    for w in $WHEELS; do
        python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
            --platform manylinux_2_28_x86_64 --platform manylinux_2_24_x86_64 --platform manylinux_2_17_x86_64 \
            --platform manylinux2014_x86_64 -d "$whl" "$w" || { echo "gpu_peers: cannot download $w" >&2; exit 1; }
    done
    # pycuda's source archive (pip prepares its metadata in an isolated build environment of
    # binary setuptools, wheel and numpy: a minute or two).
    python3 -m pip download -q --no-deps --no-binary pycuda -d "$whl" "$PYCUDA" >"$whl/.pycuda-download.log" 2>&1 ||
        { echo "gpu_peers: cannot download the $PYCUDA sdist: $(tail -n 1 "$whl/.pycuda-download.log")" >&2; exit 1; }
    rm -f "$whl/.pycuda-download.log"
    du -sh "$whl"
    exit 0
fi

case $device in gpu | cpu) ;; *) echo "gpu_peers: --device $device: gpu or cpu" >&2; exit 2 ;; esac
case $steps in '' | *[!0-9]*) echo "gpu_peers: --steps '$steps' is not a whole number" >&2; exit 2 ;; esac
[ "$steps" -ge 1 ] || { echo "gpu_peers: --steps $steps: at least 1" >&2; exit 2; }
for n in $grids; do
    case $n in *[!0-9]*) echo "gpu_peers: --grids: '$n' is not a whole number" >&2; exit 2 ;; esac
    [ "$n" -ge 8 ] && [ "$n" -le 2000 ] || { echo "gpu_peers: --grids $n: from 8 to 2000" >&2; exit 2; }
done
[ -n "$grids" ] || { echo "gpu_peers: --grids is empty" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
logs=$tmp/logs
mkdir -p "$logs"
if [ -n "$outdir" ]; then
    mkdir -p "$outdir" || { echo "gpu_peers: cannot create $outdir" >&2; exit 2; }
    # The logs, bundled (a lent machine returns few files), whatever way the script ends.
    trap 'tar czf "$outdir/gpu-peers-logs.tar.gz" -C "$tmp" logs 2>/dev/null; rm -rf "$tmp"' EXIT
fi
here=$(dirname "$0")
. "$here/peers_lib.sh"
peers_failed=0
say() { echo "gpu_peers: $*" >&2; }

# ---- the peers' Python packages, from the carried files ----
# setup_python: PYTHONPATH with /tmp/site (and the stand-ins) once gprMax, pycuda and fdtdx import.
gprmax_ok=0 fdtdx_ok=0
setup_python() {
    mkdir -p "$site" || return 1
    # The pinned wheels only (the folder may hold others'), each named as pip saves it.
    set --
    missing=
    for w in $WHEELS; do
        f=$(ls "$whl/$(echo "${w%%==*}" | tr - _)-${w#*==}-"*.whl 2>/dev/null | head -n 1)
        if [ -n "$f" ]; then set -- "$@" "$f"; else missing="$missing ${w%%==*}"; fi
    done
    # (No folder at all: the import checks below say what is missing, one line a peer.)
    [ -z "$missing" ] || [ ! -d "$whl" ] || say "not carried in $whl:$missing (sh scripts/gpu_peers.sh --fetch where PyPI is reachable)"
    if [ $# -gt 0 ]; then
        "$py" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" "$@" \
            >"$logs/pip-wheels.log" 2>&1 || say "pip could not install the carried wheels: $(tail -n 1 "$logs/pip-wheels.log")"
    fi
    export PYTHONPATH="$site${PYTHONPATH:+:$PYTHONPATH}"
    # pycuda: built here from its sdist, once, against the toolkit of the nvcc on the PATH.
    if [ "$device" = gpu ] && ! ls "$site"/pycuda/_driver*.so >/dev/null 2>&1; then
        sdist=$(ls "$whl/pycuda-${PYCUDA#*==}.tar.gz" 2>/dev/null)
        nvcc=$(command -v nvcc)
        if [ -z "$sdist" ]; then
            say "no pycuda sdist in $whl (sh scripts/gpu_peers.sh --fetch where PyPI is reachable)"
        elif [ -z "$nvcc" ]; then
            say "no nvcc on the PATH: cannot build pycuda"
        else
            say "building pycuda from $(basename "$sdist") against $(dirname "$(dirname "$nvcc")")"
            rm -rf "$tmp/pycuda" && mkdir -p "$tmp/pycuda" && tar xzf "$sdist" -C "$tmp/pycuda" &&
                (cd "$tmp"/pycuda/pycuda-* &&
                    "$py" configure.py --cuda-root="$(dirname "$(dirname "$nvcc")")" --no-cuda-enable-curand &&
                    "$py" -m pip install --no-index --no-build-isolation --no-deps --no-cache-dir --target "$site" .) \
                    >"$logs/pycuda-build.log" 2>&1 ||
                say "pycuda did not build: $(grep -i 'error' "$logs/pycuda-build.log" | tail -n 1)"
        fi
    fi
    # Stand-ins for what fdtdx imports but this run never calls, where the real ones are missing.
    stubs=$tmp/stubs
    if ! "$py" -c 'import tidy3d.components.mode.solver' 2>/dev/null; then
        mkdir -p "$stubs/tidy3d/components/mode"
        : >"$stubs/tidy3d/__init__.py"
        : >"$stubs/tidy3d/components/__init__.py"
        : >"$stubs/tidy3d/components/mode/__init__.py"
        printf '%s\n' '"""Stand-in (scripts/gpu_peers.sh): tidy3d is not installed."""' \
            'def compute_modes(*args, **kwargs):' \
            '    raise RuntimeError("tidy3d is not installed: this stand-in only lets fdtdx load")' \
            >"$stubs/tidy3d/components/mode/solver.py"
    fi
    if ! "$py" -c 'import imageio_ffmpeg' 2>/dev/null; then
        mkdir -p "$stubs/imageio_ffmpeg"
        printf '%s\n' '"""Stand-in (scripts/gpu_peers.sh): imageio-ffmpeg is not installed."""' \
            'def get_ffmpeg_exe():' \
            '    raise RuntimeError("imageio-ffmpeg is not installed: this stand-in only lets fdtdx load")' \
            >"$stubs/imageio_ffmpeg/__init__.py"
    fi
    [ -d "$stubs" ] && export PYTHONPATH="$PYTHONPATH:$stubs"
    if [ "$device" = gpu ]; then
        "$py" -c 'import gprMax, pycuda.driver' >"$logs/import-gprmax.log" 2>&1 && gprmax_ok=1 ||
            say "skipping gprMax (CUDA): $(tail -n 1 "$logs/import-gprmax.log") (carry gprMax's wheels and pycuda's sdist: sh scripts/gpu_peers.sh --fetch)"
    else
        "$py" -c 'import gprMax' >"$logs/import-gprmax.log" 2>&1 && gprmax_ok=1 ||
            say "skipping gprMax: $(tail -n 1 "$logs/import-gprmax.log") (pip install gprmax)"
    fi
    "$py" -c 'import fdtdx' >"$logs/import-fdtdx.log" 2>&1 && fdtdx_ok=1 ||
        say "skipping fdtdx: $(tail -n 1 "$logs/import-fdtdx.log") (carry its wheels: sh scripts/gpu_peers.sh --fetch)"
}
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi >"$logs/nvidia-smi.txt" 2>&1
setup_python
if [ "$setup_only" = 1 ]; then
    say "set up: gprMax $([ "$gprmax_ok" = 1 ] && echo ready || echo missing), fdtdx $([ "$fdtdx_ok" = 1 ] && echo ready || echo missing) (PYTHONPATH=$PYTHONPATH)"
    [ "$gprmax_ok" = 1 ] && [ "$fdtdx_ok" = 1 ]
    exit
fi
[ -x "$B" ] || { say "$B not built (make)"; exit 2; }

# run_fdtdx: scripts/peer_fdtdx.py on this grid; its own line, checked, as a row.
run_fdtdx() {
    log=$logs/fdtdx-$grid.log
    t0=$(now)
    "$py" "$here/peer_fdtdx.py" --grid "$grid" --steps "$steps" --backend "$device" >"$log" 2>&1 ||
        { peer_fail "fdtdx failed at $grid^3: $(grep -v '^ *$' "$log" | tail -n 1)"; return 1; }
    line=$(grep '^fdtdx ' "$log" | tail -n 1)
    val() { echo "$line" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
    version=$(val version) shape=$(val grid) done_steps=$(val steps) secs=$(val step_s) compile=$(val compile_s)
    norm=$(val e_norm) dtype=$(val dtype) backend=$(val backend) jaxv=$(val jax)
    [ -n "$secs" ] || { peer_fail "fdtdx printed no timing: $(tail -n 1 "$log")"; return 1; }
    [ "$shape" = "${grid}x${grid}x${grid}" ] || { peer_fail "fdtdx's E array is ${shape:-missing}, not ${grid}x${grid}x${grid}"; return 1; }
    [ "$done_steps" = "$steps" ] || { peer_fail "fdtdx ran ${done_steps:-no} steps, not $steps"; return 1; }
    [ "$backend" = "$device" ] || { peer_fail "fdtdx ran on ${backend:-no} backend, not $device"; return 1; }
    nonzero "$norm" || { peer_fail "fdtdx's final |E| is '${norm}': the run did nothing"; return 1; }
    [ "$dtype" = float32 ] && prec=f32 || prec=$dtype
    peer_row fdtdx "${version:-unknown} (jax $jaxv)" "jax.jit ($backend)" "$prec" array \
        "$([ "$device" = cpu ] && nproc || echo 0)" "$secs" "$(mcells $((grid * grid * grid)) "$steps" "$secs")" \
        "$compile" "norm of E $norm" "per-cell inverse permittivity array (scalar inverse permeability)" "$device"
}

# save: the rows so far into RESULTS/<machine>/steps/peers-<date>.csv (named at the first
# save), through a temporary file renamed over it; a copy in the logs.
out=
save() {
    [ -s "$tmp/rows" ] || return 0
    if [ -z "$out" ]; then
        machine=$(ls "$tmp/suite")
        mkdir -p "$dir/$machine/steps" || { say "cannot create $dir/$machine/steps"; return 1; }
        out="$dir/$machine/steps/peers-$(date -u +%Y%m%d-%H%M%S).csv"
    fi
    { echo "$(cat "$tmp/header"),$PEER_COLUMNS" && sed 's/$/,,,/' "$tmp/rows" && cat "$tmp/peers"; } >"$out.tmp" &&
        mv "$out.tmp" "$out" || { rm -f "$out.tmp"; say "cannot write $out"; return 1; }
    cp "$out" "$logs/" 2>/dev/null
    [ -z "$outdir" ] || cp "$out" "$outdir/" 2>/dev/null
    return 0
}

: >"$tmp/peers"
for grid in $grids; do
    # This suite: the fused variants (fused25d on a GPU only), every storage; one line for
    # a combination that fails (a grid too large, a variant not built), the others still run.
    variants="fused fused25d"
    [ "$device" = cpu ] && variants="fused components"
    for variant in $variants; do
        for coef in indexed uniform array; do
            log=$logs/suite-$grid-$variant-$coef.log
            if "$B" step --device "$device" --scheme yee --grid "$grid" --steps "$steps" --reps 5 --boundary pec \
                --variant "$variant" --coef "$coef" --csv --results "$tmp/suite" >"$tmp/suite.csv" 2>"$log"; then
                head -n 1 "$tmp/suite.csv" >"$tmp/header"
                sed -n 2p "$tmp/suite.csv" >>"$tmp/rows"
            else
                say "fdtdbench step --device $device --grid $grid --variant $variant --coef $coef failed: $(tail -n 1 "$log")"
            fi
        done
    done
    # A peer's row takes its context (device, host) from a suite row: none yet, no peers here.
    [ -s "$tmp/rows" ] || { say "no suite row yet at $grid^3: no peers there"; peers_failed=$((peers_failed + 1)); continue; }
    if [ "$gprmax_ok" = 1 ]; then
        run_gprmax "$py" "$device" "$([ "$device" = cpu ] && nproc || echo 0)"
        cp "$tmp/gprmax.log" "$logs/gprmax-$grid.log" 2>/dev/null
    fi
    [ "$fdtdx_ok" = 1 ] && run_fdtdx
    # The file so far, rewritten whole after each grid: a run cut off at a later grid (a time
    # limit) keeps the grids it finished.
    save || exit 1
done
[ -n "$out" ] || { say "no suite row at all: nothing written"; exit 1; }
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { printf "%-10s %-5s %-18s %-8s %-4s %10.5g MCells/s  setup %-6s %s\n", $col["code"], $col["nx"], $col["variant"],
      $col["coef"], $col["precision"], $col["mcells_per_s"], $col["setup_s"], $col["check"] }' "$out"
"$B" report --page "$out" >/dev/null 2>"$tmp/report.err" && { [ -z "$outdir" ] || cp "${out%.csv}.md" "$outdir/"; } ||
    say "no page for $out: $(tail -n 1 "$tmp/report.err")"
say "wrote $out"
[ "$peers_failed" -eq 0 ]
