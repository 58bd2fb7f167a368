#!/bin/bash
# Five back-to-back runs of the in-cache table, then five of Table 5, on this session's Intel VM (after one warm-up each: the kernels' first compile).
cd /work/main
R=/tmp/t28b/results
build/fdtdbench bench --device cpu --tables incache --results $R > /tmp/t28b/warm-ic.log 2>&1
build/fdtdbench bench --device cpu --tables table5 --results $R > /tmp/t28b/warm-t5.log 2>&1
for i in 1 2 3 4 5; do build/fdtdbench bench --device cpu --tables incache --results $R > /tmp/t28b/ic-$i.log 2>&1; echo "incache $i rc $? $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"; done
for i in 1 2 3 4 5; do build/fdtdbench bench --device cpu --tables table5 --results $R > /tmp/t28b/t5-$i.log 2>&1; echo "table5 $i rc $? $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)"; done
