#!/bin/sh
# fdtdbench compare on small synthetic CSVs: rows matched by configuration (not by order, and
# a different variant is a different row), ratios of throughput and pct_bw, and verdicts that
# respect the wider of the two spreads (pct_bw_spread, or the time range in older files).
# FDTDBENCH is the binary (tests/run.sh sets it).
bin=${FDTDBENCH:-build/fdtdbench}
. tests/shlib.sh

if [ ! -x "$bin" ]; then
    echo "SKIP all: $bin not built"
    skipped=1
    summary
fi

head="table,scheme,component,device,precision,coef,variant,nx,ny,nz,block,nodes,threads,min_ms,median_ms,max_ms,updates_per_s,pct_bw,pct_bw_spread"
cfg="cpu,f32,array,plain,300,300,300,0x0x1,1,2"
# OLD and NEW hold the same configurations in different orders. fv24: +10 points against
# spreads 4 and 5: faster. s22: -10 against 2 and 3: slower. s44: +4 against 6 and 2: within
# noise (the wider spread counts). yee: only in OLD; fv24wb: only in NEW; fv24 zcol: another
# variant, so another row.
cat >"$tmp/old.csv" <<EOF
$head
t,fv24,hx,$cfg,10,10,10,1e9,50,4
t,s22,hx,$cfg,10,10,10,1e9,60,2
t,s44,hx,$cfg,10,10,10,1e9,50,6
t,yee,hx,$cfg,10,10,10,1e9,90,1
EOF
cat >"$tmp/new.csv" <<EOF
$head
t,s44,hx,$cfg,10,10,10,1.1e9,54,2
t,fv24,hx,cpu,f32,array,zcol,300,300,300,0x0x1,1,2,10,10,10,5e9,99,1
t,s22,hx,$cfg,10,10,10,0.8e9,50,3
t,fv24wb,hx,$cfg,10,10,10,1e9,70,1
t,fv24,hx,$cfg,10,10,10,1.2e9,60,5
EOF
out=$("$bin" compare "$tmp/old.csv" "$tmp/new.csv" 2>&1)
rc=$?
row() { echo "$out" | grep "^| t $1 hx cpu f32 array $2 " ; }
f=
[ $rc -eq 0 ] || f="exit status $rc: $out"
row fv24 plain | grep -q "| 1.200 | 50.0 (4.0) | 60.0 (5.0) | 1.200 | faster |" || f="$f
fv24: $(row fv24 plain)"
row s22 plain | grep -q "| 0.800 | .* | 0.833 | slower |" || f="$f
s22: $(row s22 plain)"
row s44 plain | grep -q "| within noise |" || f="$f
s44: $(row s44 plain)"
[ -z "$(row fv24 zcol)" ] || f="$f
a zcol row was matched with a plain one"
echo "$out" | grep -q "^only in OLD: t yee hx" || f="$f
yee not listed as only in OLD"
echo "$out" | grep -q "^only in NEW: t fv24 hx cpu f32 array zcol" || f="$f
zcol not listed as only in NEW"
echo "$out" | grep -q "^1 faster, 1 slower, 1 within noise; 1 only in OLD, 2 only in NEW$" || f="$f
summary: $(echo "$out" | tail -n 1)"
result verdicts_by_configuration "$f"

# --ignore variant: a plain row and a zcol row of the same configuration are compared.
printf '%s\nt,fv24,hx,%s,10,10,10,1e9,50,4\n' "$head" "$cfg" >"$tmp/plain.csv"
printf '%s\nt,fv24,hx,cpu,f32,array,zcol,300,300,300,0x0x1,1,2,10,10,10,2e9,99,1\n' "$head" >"$tmp/zcol.csv"
out=$("$bin" compare --ignore table,variant "$tmp/plain.csv" "$tmp/zcol.csv" 2>&1)
f=
echo "$out" | grep -q "^| t fv24 hx cpu f32 array plain .* | 2.000 | .* | faster |$" || f="no matched row: $out"
echo "$out" | grep -q "^1 faster, 0 slower, 0 within noise; 0 only in OLD, 0 only in NEW$" || f="$f
summary: $(echo "$out" | tail -n 1)"
err=$("$bin" compare --ignore colour "$tmp/plain.csv" "$tmp/zcol.csv" 2>&1) && f="$f
--ignore colour accepted"
echo "$err" | grep -q "'colour' is not a configuration column (table, scheme, .*threads)" || f="$f
--ignore colour: $err"
result ignore_columns "$f"

# A file from before pct_bw_spread: the spread is pct_bw scaled by the time range,
# 50 * (11 - 9) / 10 = 10 points, so +8 is within noise, and +12 is not.
old_head="table,scheme,component,device,precision,coef,variant,nx,ny,nz,block,threads,min_ms,median_ms,max_ms,updates_per_s,pct_bw"
printf '%s\nt,fv24,hx,%s,9,10,11,1e9,50\n' "$old_head" "cpu,f32,array,plain,300,300,300,0x0x1,2" >"$tmp/older.csv"
printf '%s\nt,fv24,hx,%s,10,10,10,1e9,58,1\n' "$head" "$cfg" >"$tmp/a.csv"
printf '%s\nt,fv24,hx,%s,10,10,10,1e9,62,1\n' "$head" "$cfg" >"$tmp/b.csv"
f=
"$bin" compare "$tmp/older.csv" "$tmp/a.csv" | grep -q "50.0 (10.0) | 58.0 (1.0) | .* | within noise |" || f="+8: $("$bin" compare "$tmp/older.csv" "$tmp/a.csv" 2>&1)"
"$bin" compare "$tmp/older.csv" "$tmp/b.csv" | grep -q "| faster |" || f="$f
+12: $("$bin" compare "$tmp/older.csv" "$tmp/b.csv" 2>&1)"
result spread_from_times_in_older_files "$f"

# rows: a file from before it (no such column) matches a newer row whatever it has there; two
# files that both have it match only equal values, unless --ignore leaves it out.
rhead="table,scheme,component,device,precision,coef,variant,nx,ny,nz,block,nodes,rows,threads,min_ms,median_ms,max_ms,updates_per_s,pct_bw,pct_bw_spread"
rcfg="gpu,f32,uniform,tile25d,512,512,512,32x4x1,64"
printf '%s\nt,fv24,hx,%s,0,10,10,10,1e9,80,1\n' "$head" "$rcfg" >"$tmp/norows.csv"
printf '%s\nt,fv24,hx,%s,4,0,10,10,10,1.1e9,88,1\n' "$rhead" "$rcfg" >"$tmp/rows4.csv"
printf '%s\nt,fv24,hx,%s,2,0,10,10,10,1e9,80,1\n' "$rhead" "$rcfg" >"$tmp/rows2.csv"
f=
out=$("$bin" compare "$tmp/norows.csv" "$tmp/rows4.csv" 2>&1)
echo "$out" | grep -q "^| t fv24 hx gpu f32 uniform tile25d 512x512x512 block 32x4x1 nodes 64 threads 0 | .* | 1.100 | .* | faster |$" ||
    f="an old file against rows 4: $out"
echo "$out" | grep -q "^1 faster, 0 slower, 0 within noise; 0 only in OLD, 0 only in NEW$" || f="$f
summary: $(echo "$out" | tail -n 1)"
out=$("$bin" compare "$tmp/rows4.csv" "$tmp/norows.csv" 2>&1)
echo "$out" | grep -q "^| t fv24 hx gpu f32 uniform tile25d 512x512x512 block 32x4x1 nodes 64 rows 4 threads 0 | " ||
    f="$f
rows 4 against an old file: $out"
out=$("$bin" compare "$tmp/rows2.csv" "$tmp/rows4.csv" 2>&1)
echo "$out" | grep -q "^0 faster, 0 slower, 0 within noise; 1 only in OLD, 1 only in NEW$" || f="$f
rows 2 matched with rows 4: $out"
out=$("$bin" compare --ignore rows "$tmp/rows2.csv" "$tmp/rows4.csv" 2>&1)
echo "$out" | grep -q "^1 faster, 0 slower, 0 within noise; 0 only in OLD, 0 only in NEW$" || f="$f
--ignore rows: $out"
result rows "$f"

# stages, likewise: two files with the column match only equal depths; one without it matches any.
shead="table,scheme,component,device,precision,coef,variant,nx,ny,nz,block,nodes,rows,stages,threads,min_ms,median_ms,max_ms,updates_per_s,pct_bw,pct_bw_spread"
printf '%s\nt,fv24,hx,%s,4,2,0,10,10,10,1.1e9,88,1\n' "$shead" "$rcfg" >"$tmp/stages2.csv"
printf '%s\nt,fv24,hx,%s,4,3,0,10,10,10,1e9,80,1\n' "$shead" "$rcfg" >"$tmp/stages3.csv"
f=
out=$("$bin" compare "$tmp/stages3.csv" "$tmp/stages2.csv" 2>&1)
echo "$out" | grep -q "^0 faster, 0 slower, 0 within noise; 1 only in OLD, 1 only in NEW$" || f="stages 3 matched with 2: $out"
out=$("$bin" compare "$tmp/rows4.csv" "$tmp/stages2.csv" 2>&1)
echo "$out" | grep -q "^0 faster, 0 slower, 1 within noise; 0 only in OLD, 0 only in NEW$" || f="$f
a file from before stages against stages 2: $out"
result stages "$f"

# Bad input: one line, exit status 2.
printf 'table,scheme\nt,fv24\n' >"$tmp/bad.csv"
"$bin" compare "$tmp/bad.csv" "$tmp/new.csv" >/dev/null 2>"$tmp/err"
rc=$?
f=
[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "no column 'device'" "$tmp/err" || f="exit $rc: $(cat "$tmp/err")"
result missing_column_refused "$f"
"$bin" compare "$tmp/old.csv" >/dev/null 2>"$tmp/err"
rc=$?
f=
[ $rc -eq 2 ] && grep -q "needs OLD.csv and NEW.csv" "$tmp/err" || f="exit $rc: $(cat "$tmp/err")"
result one_file_refused "$f"

# Step files (fdtdbench step, bench's step table): no component column, a boundary, and cells/s
# for the throughput; rows match by variant and boundary.
shead="table,code,scheme,device,variant,precision,coef,boundary,nx,ny,nz,block,nodes,threads,steps,reps,min_ms,median_ms,max_ms,cells_per_s,pct_bw,pct_bw_spread"
cat >"$tmp/sold.csv" <<EOF
$shead
step,fdtdbench,fv24,gpu,fused,f32,array,periodic,512,512,512,32x4x1,1,0,10,3,9,9,9,1e10,63,0.5
step,fdtdbench,fv24,gpu,fused25d,f32,array,periodic,512,512,512,64x2x1,16,0,10,3,7,7,7,1.3e10,83,0.4
EOF
cat >"$tmp/snew.csv" <<EOF
$shead
step,fdtdbench,fv24,gpu,fused25d,f32,array,periodic,512,512,512,64x2x1,16,0,10,3,7,7,7,1.3e10,82.9,0.4
step,fdtdbench,fv24,gpu,fused25d,f32,array,pec,512,512,512,64x2x1,16,0,10,3,7,7,7,1.2e10,80,0.4
EOF
out=$("$bin" compare "$tmp/sold.csv" "$tmp/snew.csv" 2>&1)
f=
echo "$out" | grep -q "^| step fv24 gpu f32 array fused25d periodic 512x512x512 block 64x2x1 nodes 16 threads 0 | 1.3e+10 | 1.3e+10 | 1.000 | 83.0 (0.4) | 82.9 (0.4) | .* | within noise |" || f="matched row: $out"
echo "$out" | grep -q "^only in OLD: step fv24 gpu f32 array fused periodic" || f="$f
fused not listed as only in OLD"
echo "$out" | grep -q "^only in NEW: step fv24 gpu f32 array fused25d pec" || f="$f
pec not listed as only in NEW"
result step_files "$f"

# A step file's layer: an old file without the pml column had none, so its row is the new file's
# pml 0 row; the pml 10 row is another configuration, named with its layer.
sh_head="table,scheme,device,precision,coef,variant,boundary,nx,ny,nz,block,nodes,threads,min_ms,median_ms,max_ms,cells_per_s,pct_bw,pct_bw_spread"
printf '%s\nstep,yee,cpu,f32,array,plain,pec,300,300,300,0x0x1,1,2,10,10,10,1e8,50,4\n' "$sh_head" >"$tmp/nolayer.csv"
printf '%s\nstep,yee,cpu,f32,array,plain,pec,0,300,300,300,0x0x1,1,2,10,10,10,1e8,50,4\nstep,yee,cpu,f32,array,plain,pec,10,300,300,300,0x0x1,1,2,12,12,12,8e7,45,4\n' \
    "$(echo "$sh_head" | sed 's/boundary,/boundary,pml,/')" >"$tmp/layer.csv"
out=$("$bin" compare "$tmp/nolayer.csv" "$tmp/layer.csv" 2>&1)
if echo "$out" | grep -q "^| step yee cpu f32 array plain pec 300x300x300 .* | within noise |" &&
    echo "$out" | grep -q "^only in NEW: step yee cpu f32 array plain pec pml 10 300x300x300"; then
    result layer_is_configuration ""
else
    result layer_is_configuration "$out"
fi

# An older results file kept gzipped (results/<machine>/*.csv.gz) compares as it was.
gzip -c "$tmp/old.csv" >"$tmp/old.csv.gz"
plain=$("$bin" compare "$tmp/old.csv" "$tmp/new.csv" 2>&1)
out=$("$bin" compare "$tmp/old.csv.gz" "$tmp/new.csv" 2>&1)
rc=$?
if [ $rc -eq 0 ] && [ "$(echo "$out" | tail -n 1)" = "$(echo "$plain" | tail -n 1)" ]; then
    result gzipped_file ""
else
    result gzipped_file "exit status $rc: $(echo "$out" | tail -n 3)"
fi
# A .gz file that is missing, or is no gzip file, or with no gzip to read it: one line naming it, exit 2.
echo "not gzip" >"$tmp/bad.csv.gz"
errors=""
gz_error() { # WANT FILE [PATH]: compare FILE (with that PATH) exits 2 with the line WANT
    out=$(PATH=${3:-$PATH} "$bin" compare "$2" "$tmp/new.csv" 2>&1)
    rc=$?
    [ $rc -eq 2 ] && echo "$out" | grep -qF "fdtdbench: $1" || errors="$errors$2: exit status $rc: $out\n"
}
gz_error "cannot read '$tmp/none.csv.gz'" "$tmp/none.csv.gz"
gz_error "$tmp/bad.csv.gz: gzip -dc failed (exit status 1)" "$tmp/bad.csv.gz"
gz_error "$tmp/old.csv.gz: cannot start gzip -dc" "$tmp/old.csv.gz" /nonexistent
result gzipped_file_errors "$(printf "$errors")"

summary
