#!/bin/bash
# Five back-to-back runs of the in-cache table, then five of Table 5 (both thread counts), on the VM.
cd /work/main
for i in 1 2 3 4 5; do build/fdtdbench bench --device cpu --tables incache --results /tmp/ic-results > /tmp/ic-$i.log 2>&1; echo "incache $i rc $?"; done
for i in 1 2 3 4 5; do build/fdtdbench bench --device cpu --tables table5 --results /tmp/ic-results > /tmp/t5-$i.log 2>&1; echo "table5 $i rc $?"; done
