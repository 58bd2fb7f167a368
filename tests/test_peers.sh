#!/bin/sh
# scripts/peers.sh and scripts/gpu_peers.sh with stand-in peers on the PATH (the real ones take
# minutes and are not installed here): their own figures, checks and set-up times are recorded
# beside the suite's rows; a peer that crashes, prints no speed, runs another grid or number of
# steps, or leaves its field at zero ends in one line while the others still run (exit 1, the
# file written); a missing peer is one line saying how to install it (exit 0); bad input ends
# with one line, exit 2 and no file.
. tests/shlib.sh
B=${FDTDBENCH:-build/fdtdbench}
mkdir -p "$tmp/bin"
export PATH="$tmp/bin:$PATH"
export PEERS_INSTALL=0 # a test never installs packages (nor waits on a package mirror)
# fake NAME BODY: a stand-in peer
fake() { printf '#!/bin/sh\n%s\n' "$2" >"$tmp/bin/$1" && chmod +x "$tmp/bin/$1"; }
# openEMS: its log lines, and the probe file it writes in its working folder.
openems_log='echo " | openEMS 64bit -- version v9.8.7"; echo "FDTD simulation size: 8x8x8 --> 512 FDTD cells"
echo "Time for 20 iterations with 512.00 cells : 0.25 sec"; echo "Speed: 123.5 MCells/s "'
good_openems="$openems_log"'
printf "%% t/s\tvoltage\n0\t0\n1e-12\t-0.004\n2e-12\t0.002\n" >probe'
# Meep: its cell, its steps, its timing lines (the step is their sum but set-up), a probe.
meep_times='echo "Field time usage:"; echo "    connecting chunks: 9 s"; echo "        time stepping: 0.3 s"
echo "    updating B field: 0.1 s"; echo "  boundary stepping E: 0.1 s"; echo "      everything else: 7 s"; echo'
good_meep='[ "$1" = --version ] && { echo "Meep 9.9.9, Copyright (C) MIT."; exit 0; }
echo "Computational cell is 8 x 8 x 8 with resolution 1"
echo "run 0 finished at t = 10.0 (20 timesteps)"
'"$meep_times"'
echo "probe Ez: -0.0187+0.0i"'
# gprMax runs as PEERS_PYTHON -m gprMax; the same stand-in Python answers the imports and the
# script's read of its output file (iterations, grid, the receiver's largest |Ez|).
gprmax_log='echo "                     v4.5.6 (Test)"
echo "Domain size: 0.008 x 0.008 x 0.008m (8 x 8 x 8 = 512 cells)"
echo "Time window: 3.6e-11 secs (20 iterations)"
echo "Model 1/1 on vm with OpenMP backend using 1 thread(s)"
echo "Time taken: 1 minute and 0.5000 seconds"
echo "=== Simulation completed in 1 minute and 2.0000 seconds ==="'
fake_python() { # GPRMAX_BODY H5_ANSWER FDTDX_LINE
    cat >"$tmp/bin/fakepy" <<PY
#!/bin/sh
case "\$1 \$2" in
"-m gprMax"*) $1 ;;
"-c import gprMax"*) exit 0 ;;
*h5py*) echo "$2" ;;
"-c import"*) exit 0 ;;
*peer_fdtdx.py*) echo "$3" ;;
*) exit 1 ;;
esac
PY
    chmod +x "$tmp/bin/fakepy"
}
good_h5="20 8x8x8 0.0123"
fake_python "$gprmax_log" "$good_h5" ""
export PEERS_PYTHON="$tmp/bin/fakepy"

peers() { sh scripts/peers.sh --grid 8 --steps 20 --threads 1 --fdtdbench "$B" --results "$tmp/results" "$@" \
    >"$tmp/out" 2>"$tmp/err"; }

fake openEMS "$good_openems"
fake meep "$good_meep"
if peers && f=$(find "$tmp/results" -name 'peers-*.csv') && [ "$(wc -l <"$f")" -eq 10 ] && [ -f "${f%.csv}.md" ]; then
    why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["code"] == "openEMS" { o = $col["mcells_per_s"] " " $col["code_version"] " " $col["threads"] " " $col["check"] }
        $col["code"] == "Meep" { m = $col["mcells_per_s"] " " $col["code_version"] " " $col["coef"] " " $col["check"] }
        $col["code"] == "gprMax" { g = $col["mcells_per_s"] " " $col["code_version"] " " $col["setup_s"] " " $col["check"] }
        $col["code"] == "fdtdbench" && $col["verified"] == 1 && $col["nx"] == 8 && $col["steps"] == 20 { s++ }
        END { if (o != "123.5 v9.8.7 1 probe max abs V 0.004 V") print "openEMS row: " o
              # 512 cells x 20 steps / 0.5 s (time stepping + B + boundary E; not set-up)
              if (m != "0.02048 9.9.9 uniform Ez one cell from the source -0.0187") print "Meep row: " m
              # 512 x 20 / 60.5 s; set-up: the process wall time minus that (the stand-in is quick)
              if (g !~ /^0.000169256 4.5.6 -60.[0-9]* rx max abs Ez 0.0123 V\/m$/) print "gprMax row: " g
              if (s != 6) print s " suite rows" }' "$f")
    grep -q '| gprMax | 4.5.6 | OpenMP engine | f32 | indexed |' "${f%.csv}.md" || why="$why no gprMax row on the page"
    result "peers record their own figures and checks beside the suite's" "$why"
else
    result "peers record their own figures and checks beside the suite's" "$(tail -n 3 "$tmp/err")"
fi

# expect_failure NAME RC PATTERN ROWS ARGS...: one line matching PATTERN, exit RC, and a file of
# ROWS lines (0: no file).
expect_failure() {
    name=$1 want=$2 pattern=$3 rows=$4
    shift 4
    rm -rf "$tmp/results"
    peers "$@"
    rc=$?
    f=$(find "$tmp/results" -name 'peers-*.csv' 2>/dev/null)
    if [ $rc -eq "$want" ] && [ "$(grep -c '^peers: ' "$tmp/err")" -eq $((rows ? 2 : 1)) ] &&
        grep -q -- "$pattern" "$tmp/err" && { [ "$rows" -eq 0 ] && [ -z "$f" ] || [ "$(wc -l <"$f")" -eq "$rows" ]; }; then
        result "$name" ""
    else
        result "$name" "exit $rc, file ${f:-none}: $(cat "$tmp/err")"
    fi
}
fake openEMS 'echo "Segmentation fault"; exit 139'
expect_failure "a crashing peer: one line, the others still run" 1 "openEMS failed: Segmentation fault" 9
fake openEMS 'echo "Running FDTD engine..."'
expect_failure "a peer without a speed figure" 1 "openEMS printed no speed" 9
fake openEMS "$openems_log"
expect_failure "a peer whose probe saw nothing" 1 "openEMS's probe saw no field" 9
fake openEMS "$good_openems"
fake meep 'echo "Computational cell is 8 x 8 x 8 with resolution 1"; echo "run 0 finished at t = 5.0 (10 timesteps)"
'"$meep_times"
expect_failure "a peer that ran other steps" 1 "Meep ran 10 steps, not 20" 9
fake meep "$good_meep"
fake_python "$(echo "$gprmax_log" | sed 's/8 x 8 x 8 = 512/16 x 16 x 16 = 4096/')" "$good_h5" ""
expect_failure "a peer that ran another grid" 1 "gprMax's domain is 16x16x16 cells, not 8x8x8" 9
fake_python "$gprmax_log" "20 8x8x8 0" ""
expect_failure "a peer whose field stayed zero" 1 "gprMax's receiver saw no field" 9
fake_python "$gprmax_log" "$good_h5" ""
PEERS_PYTHON=$tmp/bin/no-python expect_failure "a missing peer: how to install it" 0 \
    "skipping gprMax: not installed (.*pip install gprmax)" 9
expect_failure "unknown option" 2 "unknown option '--fast'" 0 --fast
expect_failure "bad grid" 2 "--grid 3: from 8" 0 --grid 3

# fdtdbench peers runs the same script with this binary as the suite.
rm -rf "$tmp/results"
if "$B" peers --grid 8 --steps 20 --threads 1 --results "$tmp/results" >"$tmp/out" 2>"$tmp/err" &&
    [ "$(find "$tmp/results" -name 'peers-*.csv' | wc -l)" -eq 1 ]; then
    result "fdtdbench peers" ""
else
    result "fdtdbench peers" "$(tail -n 3 "$tmp/err")"
fi

# The results page and the plots' extract: the peers table with each peer's time over the
# suite's fastest step of the same storage (openEMS's 12.5 ms/step against the fastest indexed row).
rm -rf "$tmp/results"
peers >/dev/null 2>&1
if "$B" report --results "$tmp/results" --out "$tmp/page.md" >/dev/null 2>"$tmp/err" &&
    "$B" report --results "$tmp/results" --extract "$tmp/x" >/dev/null 2>>"$tmp/err"; then
    x=$(find "$tmp/x" -name peers.csv)
    why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["code"] == "fdtdbench" && $col["coef"] == "indexed" && (s == "" || $col["median_ms"] + 0 < s + 0) { s = $col["median_ms"] }
        $col["code"] == "fdtdbench" && $col["ratio_to_suite"] != "" { print "a suite row has a ratio" }
        $col["code"] == "openEMS" { r = $col["ratio_to_suite"]; o = $col["median_ms"] }
        END { if (s == "" || r == "" || (r - o / s) ^ 2 > 1e-6 * r * r) print "openEMS ratio " r " for " o " / " s }' "$x")
    grep -q '^### Full step beside other FDTD codes (peers), CPU' "$tmp/page.md" || why="$why; no peers table on the page"
    grep -q '| openEMS | v9.8.7 |.*| [0-9.]* |$' "$tmp/page.md" || why="$why; no ratio in the openEMS row"
    result "the results page and the extract show each peer's time over the suite's" "$why"
else
    result "the results page and the extract show each peer's time over the suite's" "$(cat "$tmp/err")"
fi

# scripts/gpu_peers.sh, run with --device cpu (its test mode): the suite's rows, gprMax and
# fdtdx per grid from their stand-ins, a missing fdtdx one line; its failure paths.
fdtdx_line="fdtdx version=0.6.3 jax=0.11.2 backend=cpu device=cpu grid=8x8x8 steps=20 dtype=float32 compile_s=1.5 step_s=0.25 reps=3 e_norm=0.23 inv_eps_shape=1x8x8x8"
fake_python "$gprmax_log" "$good_h5" "$fdtdx_line"
gpu_peers() { sh scripts/gpu_peers.sh --device cpu --grids 8 --steps 20 --fdtdbench "$B" --results "$tmp/results" \
    --wheels "$tmp/nowheels" --out "$tmp/o" "$@" >"$tmp/out" 2>"$tmp/err"; }
rm -rf "$tmp/results" "$tmp/o"
if gpu_peers && f=$(find "$tmp/results" -name 'peers-*.csv') && [ "$(wc -l <"$f")" -eq 9 ]; then
    why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["code"] == "fdtdx" { x = $col["mcells_per_s"] " " $col["setup_s"] " " $col["coef"] " " $col["check"] }
        END { if (x != "0.04096 1.5 array norm of E 0.23") print "fdtdx row: " x }' "$f")
    tar tzf "$tmp/o/gpu-peers-logs.tar.gz" 2>/dev/null | grep -q 'logs/suite-8-fused-indexed.log' ||
        why="$why; no suite log in --out's gpu-peers-logs.tar.gz"
    [ "$(ls "$tmp/o" | wc -l)" -eq 3 ] && [ -f "$tmp/o/$(basename "$f")" ] && [ -f "$tmp/o/$(basename "${f%.csv}.md")" ] ||
        why="$why; --out holds $(ls "$tmp/o"), not the CSV, its page and the logs"
    result "gpu_peers.sh: suite, gprMax and fdtdx rows" "$why"
else
    result "gpu_peers.sh: suite, gprMax and fdtdx rows" "exit $?: $(tail -n 3 "$tmp/err")"
fi
fake_python "$gprmax_log" "$good_h5" "$(echo "$fdtdx_line" | sed 's/ steps=20 / steps=19 /')"
rm -rf "$tmp/results"
if ! gpu_peers && grep -q "^peers: fdtdx ran 19 steps, not 20" "$tmp/err" &&
    [ "$(wc -l <"$(find "$tmp/results" -name 'peers-*.csv')")" -eq 8 ]; then
    result "gpu_peers.sh: a peer that ran other steps is one line, the others stay" ""
else
    result "gpu_peers.sh: a peer that ran other steps is one line, the others stay" "$(cat "$tmp/err")"
fi
printf '#!/bin/sh\ncase "$1 $2" in "-c import fdtdx"*) echo "ModuleNotFoundError: No module named fdtdx"; exit 1 ;; esac\nexec %s "$@"\n' \
    "$tmp/bin/fakepy" >"$tmp/bin/nofdtdx" && chmod +x "$tmp/bin/nofdtdx"
fake_python "$gprmax_log" "$good_h5" "$fdtdx_line"
rm -rf "$tmp/results"
if PEERS_PYTHON=$tmp/bin/nofdtdx gpu_peers && [ "$(grep -c . "$tmp/err")" -eq 2 ] &&
    grep -q "skipping fdtdx: ModuleNotFoundError.*--fetch" "$tmp/err"; then
    result "gpu_peers.sh: a missing peer is one line" ""
else
    result "gpu_peers.sh: a missing peer is one line" "$(cat "$tmp/err")"
fi
if ! gpu_peers --grids 3 && grep -q "grids 3: from 8" "$tmp/err"; then
    result "gpu_peers.sh: bad input" ""
else
    result "gpu_peers.sh: bad input" "$(cat "$tmp/err")"
fi

# fdtdx's driver itself, on JAX's CPU backend, where fdtdx is installed (not on CI).
if python3 -c 'import fdtdx' 2>/dev/null; then
    line=$(python3 scripts/peer_fdtdx.py --grid 12 --steps 5 --backend cpu --reps 1 2>"$tmp/err" | tail -n 1)
    case $line in
    *" grid=12x12x12 steps=5 "*e_norm=*) result "peer_fdtdx.py steps fdtdx" "$(echo "$line" | grep ' e_norm=0 ')" ;;
    *) result "peer_fdtdx.py steps fdtdx" "$line $(tail -n 2 "$tmp/err")" ;;
    esac
else
    echo "SKIP peer_fdtdx.py: fdtdx is not installed (pip install fdtdx)"
    skipped=$((skipped + 1))
fi

summary
