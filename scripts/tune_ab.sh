#!/bin/bash
# Whether this tree's tuner finds faster launches on a lent GPU than its committed tuned file has
# (run through the device tool, in the repo root):
#   bash scripts/tune_ab.sh "TUNE ARGS" TABLES [ROUNDS]
#   e.g. bash scripts/tune_ab.sh "--component hx --coef uniform --force" uniform
# Tunes with TUNE ARGS, starting from the committed file (--force to tune again what they name),
# then runs `bench --device gpu --tables TABLES` with the committed file and the new one in turn,
# ROUNDS (2) times, and leaves the new file in place. Writes under $OUT: old.conf, new.conf,
# tune.log and benches.tgz (old1/, new1/, ...: each bench's CSV and page, in one archive because
# the device tool brings back only a few files a call).
set -u
[ $# -ge 2 ] || { sed -n '2,10s/^# \{0,1\}//p' "$0"; exit 2; }
OUT=${OUT:-tune-ab-out}
mkdir -p "$OUT"
make -j16 >/dev/null 2>&1 || { echo "tune_ab: the build failed"; exit 1; }
conf=$(build/fdtdbench tune --path) || exit 1
[ -f "$conf" ] || { echo "tune_ab: no committed tuned file $conf for this GPU"; exit 2; }
cp "$conf" "$OUT/old.conf"
# shellcheck disable=SC2086 # TUNE ARGS are words
build/fdtdbench tune $1 2>&1 | tee "$OUT/tune.log" | grep -E "best|measurements"
cp "$conf" "$OUT/new.conf"
dirs=()
for round in $(seq "${3:-2}"); do
    for side in old new; do
        cp "$OUT/$side.conf" "$conf"
        echo "== round $round, $side tuned file"
        mkdir -p "$OUT/$side$round"
        build/fdtdbench bench --device gpu --tables "$2" --results "$OUT/$side$round" 2>&1 | grep -E "rows measured"
        dirs+=("$side$round")
    done
done
cp "$OUT/new.conf" "$conf"
tar czf "$OUT/benches.tgz" -C "$OUT" "${dirs[@]}" && (cd "$OUT" && rm -rf "${dirs[@]}")
