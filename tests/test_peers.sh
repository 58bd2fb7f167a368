#!/bin/sh
# scripts/peers.sh with stand-in peers on the PATH (the real ones take minutes): their own speed
# figures are recorded beside the suite's rows; a peer that crashes or prints no speed, and bad
# input, end with one line, a non-zero exit and no file.
. tests/shlib.sh
B=${FDTDBENCH:-build/fdtdbench}
mkdir -p "$tmp/bin"
export PATH="$tmp/bin:$PATH"
export PEERS_INSTALL=0 # a test never installs packages (nor waits on a package mirror)
# fake NAME BODY: a stand-in peer
fake() { printf '#!/bin/sh\n%s\n' "$2" >"$tmp/bin/$1" && chmod +x "$tmp/bin/$1"; }
good_openems='echo " | openEMS 64bit -- version v9.8.7"; echo "FDTD simulation size: 8x8x8 --> 512 FDTD cells"
echo "Time for 20 iterations with 512.00 cells : 0.25 sec"; echo "Speed: 123.5 MCells/s "'
good_meep='[ "$1" = --version ] && { echo "Meep 9.9.9, Copyright (C) MIT."; exit 0; }
echo "run 0 finished at t = 10.0 (20 timesteps)"; echo "            time stepping: 0.5 s"'
peers() { sh scripts/peers.sh --grid 8 --steps 20 --threads 1 --fdtdbench "$B" --results "$tmp/results" "$@" \
    >"$tmp/out" 2>"$tmp/err"; }

fake openEMS "$good_openems"
fake meep "$good_meep"
if peers && f=$(find "$tmp/results" -name 'peers-*.csv') && [ "$(wc -l <"$f")" -eq 9 ]; then
    why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["code"] == "openEMS" { o = $col["mcells_per_s"] " " $col["code_version"] " " $col["threads"] }
        $col["code"] == "Meep" { m = $col["mcells_per_s"] " " $col["code_version"] }
        $col["code"] == "fdtdbench" && $col["verified"] == 1 && $col["nx"] == 8 && $col["steps"] == 20 { s++ }
        END { if (o != "123.5 v9.8.7 1") print "openEMS row: " o
              if (m != "0.02048 9.9.9") print "Meep row: " m   # 512 cells x 20 steps / 0.5 s
              if (s != 6) print s " suite rows" }' "$f")
    result "peers record their own figures beside the suite's" "$why"
else
    result "peers record their own figures beside the suite's" "$(tail -n 3 "$tmp/err")"
fi

# expect_failure NAME RC PATTERN ARGS...
expect_failure() {
    name=$1 want=$2 pattern=$3
    shift 3
    rm -rf "$tmp/results"
    peers "$@"
    rc=$?
    if [ $rc -eq "$want" ] && [ "$(grep -c '^peers: ' "$tmp/err")" -eq 1 ] && grep -q -- "$pattern" "$tmp/err" &&
        [ -z "$(find "$tmp/results" -type f 2>/dev/null)" ]; then
        result "$name" ""
    else
        result "$name" "exit $rc: $(cat "$tmp/err")"
    fi
}
fake openEMS 'echo "Segmentation fault"; exit 139'
expect_failure "a crashing peer" 1 "openEMS failed: Segmentation fault"
fake openEMS 'echo "Running FDTD engine..."'
expect_failure "a peer without a speed figure" 1 "openEMS printed no speed"
fake openEMS "$good_openems"
fake meep 'echo "run 0 finished at t = 5.0 (10 timesteps)"; echo "time stepping: 0.5 s"'
expect_failure "a peer that ran other steps" 1 "Meep ran 10 steps, not 20"
expect_failure "unknown option" 2 "unknown option '--fast'" --fast
expect_failure "bad grid" 2 "--grid 3: from 8" --grid 3

# fdtdbench peers runs the same script with this binary as the suite.
rm -rf "$tmp/results"
fake meep "$good_meep"
if "$B" peers --grid 8 --steps 20 --threads 1 --results "$tmp/results" >"$tmp/out" 2>"$tmp/err" &&
    [ "$(find "$tmp/results" -name 'peers-*.csv' | wc -l)" -eq 1 ]; then
    result "fdtdbench peers" ""
else
    result "fdtdbench peers" "$(tail -n 3 "$tmp/err")"
fi

summary
