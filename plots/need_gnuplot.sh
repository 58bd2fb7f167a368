#!/bin/sh
# Makes sure gnuplot is there before make bench / make plots draw: as root with apt-get it
# installs gnuplot-nox, saying so in one line; otherwise it says in one line how to get it.
# Never fails (the measurements stand without figures).
#   sh plots/need_gnuplot.sh LOG        (apt-get's output goes to LOG)
log=${1:-/dev/null}
command -v gnuplot >/dev/null 2>&1 && exit 0
# A machine that resolves neither archive's name (and has no proxy) has no network: apt-get update
# would wait there for minutes (the lent GPU machines).
online() {
    [ -n "${http_proxy:-}${https_proxy:-}" ] || getent hosts deb.debian.org >/dev/null 2>&1 ||
        getent hosts archive.ubuntu.com >/dev/null 2>&1
}
if [ "$(id -u 2>/dev/null)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "gnuplot not found: installing gnuplot-nox with apt-get (output in $log)"
    # A fresh container has no package lists yet: update once if the install cannot find it.
    { apt-get install -y gnuplot-nox || { online && timeout 300 apt-get update && apt-get install -y gnuplot-nox; }; } >"$log" 2>&1 ||
        echo "apt-get could not install gnuplot-nox (see $log; no network?): no plots"
else
    echo "gnuplot not found: for plots, install gnuplot-nox (as root: apt-get install gnuplot-nox)"
fi
exit 0
