#!/bin/sh
# make kernel prints one kernel as a translation unit of its own: for every variant template of
# each device, that output compiles alone (cc for the CPU; nvcc for the GPU where nvcc is
# present, at the header's default launch, the source fdtdbench compiles with NVRTC), names the
# kernel it promises (the CPU's entry point, the GPU's __global__ kernel), and is headed by the
# update's counts.
. tests/shlib.sh
BUILD=${BUILD:-build}
gen=$BUILD/gen/generate
specs=$(ls stencils/*.stencil)
# Under the sanitizers (SAN, from make test) the sanitized generator writes and the checks read every
# unit, but none is compiled: the text is the plain build's (the generator's output does not depend
# on how it was built), which that run compiles; nvcc alone took 13 s of each run.
does="compiles on its own"
if [ -n "${SAN:-}" ]; then
    echo "SKIP compiling the units: the same text as in the build without sanitizers, which compiles them (SAN=$SAN)"
    skipped=1 does="is written with its entry point and counts"
fi
for t in kernels_cpu/*.c.in kernels_gpu/*.cu.in; do
    v=$(basename "$t" | sed 's/\..*//')
    case $t in *.cu.in) ext=cu ;; *) ext=c ;; esac
    errors=""
    for sc in fv24 s44; do
        for c in hx ez; do
            src="$tmp/$v-$sc-$c.$ext"
            # shellcheck disable=SC2086 # the spec list is words
            if ! "$gen" one "$t" "$sc" "$c" f32 array $specs >"$src" 2>"$tmp/err"; then
                errors="$errors$(cat "$tmp/err")\n"
                continue
            fi
            name=k_${sc}_${c}_f32_array_${v}
            if [ $ext = c ]; then entry="${name}_run"; else entry="${name}(const"; fi
            grep -q "$entry" "$src" || errors="${errors}$src: no entry point $entry\n"
            [ $ext = c ] || grep -q 'extern "C" __global__' "$src" || errors="${errors}$src: no extern \"C\" __global__ kernel\n"
            head -n 2 "$src" | grep -q "flops, [0-9]* reads and 1 write" || errors="${errors}$src: no counts in its heading\n"
            if [ -n "${SAN:-}" ]; then
                :
            elif [ $ext = c ]; then
                cc -std=c11 -Wall -Wextra -Werror -fopenmp -O1 -Istencils -Icodegen -Ikernels_cpu -c -o "$tmp/o.o" "$src" 2>"$tmp/err" ||
                    errors="$errors$(head -n 5 "$tmp/err")\n"
            elif command -v "${NVCC:-nvcc}" >/dev/null 2>&1; then
                "${NVCC:-nvcc}" -std=c++17 -arch=sm_90 -O1 -Istencils -Icodegen -Iengine -Ikernels_gpu -c -o "$tmp/o.o" "$src" 2>"$tmp/err" ||
                    errors="$errors$(head -n 5 "$tmp/err")\n"
            fi
        done
    done
    if [ $ext = cu ] && [ -z "${SAN:-}" ] && ! command -v "${NVCC:-nvcc}" >/dev/null 2>&1; then
        echo "SKIP $v: nvcc not found, the GPU translation units were generated but not compiled"
        skipped=$((skipped + 1))
    fi
    result "make kernel VARIANT=$v $does" "$(printf "$errors")"
done
# The counts fdtdbench reports are the loads the generator emits: in each scheme's plain CPU
# kernel with array coefficients (list's default), LD( and COEF_A( together appear `reads`
# times.
errors=""
for sc in $(ls stencils/*.stencil | sed 's|.*/||; s|\.stencil$||'); do
    # shellcheck disable=SC2086
    emitted=$("$gen" one kernels_cpu/plain.c.in "$sc" hx f32 array $specs | sed -n '/_run(const/,$p' | grep -oE '(^|[^_A-Z])(LD|COEF_A)\(' | wc -l)
    listed=$("${FDTDBENCH:-$BUILD/fdtdbench}" list --csv | awk -F, -v s="$sc" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i }
        $col["scheme"] == s && $col["component"] == "hx" { print $col["reads"] }')
    [ "$emitted" = "$listed" ] || errors="$errors$sc: the kernel emits $emitted loads, list says $listed reads\n"
done
result "counts equal the emitted loads" "$(printf "$errors")"
# wave25d drops the barrier before a level whose highest source plane it reads only on the node's
# column (HTOP_COLUMN, ETOP_COLUMN: a wrong true is a race that no CPU test would see): each flag
# equals what the emitted half-step body's points say, read from the kernel's text.
errors=""
for sc in $(ls stencils/*.stencil | sed 's|.*/||; s|\.stencil$||'); do
    # shellcheck disable=SC2086
    "$gen" one kernels_gpu/wave25d.cu.step "$sc" hx f32 uniform $specs >"$tmp/w.cu" 2>&1 || {
        errors="$errors$sc: $(head -n 1 "$tmp/w.cu")\n"
        continue
    }
    for h in H E; do
        # the half-step's body: H between "if constexpr (S % 2) {" and "} else {", E after it
        derived=$(awk -v h=$h '/if constexpr \(S % 2\) \{/ { part = "H"; next } part == "H" && /\} else \{/ { part = "E"; next }
            part == "E" && /^\$|#pragma unroll/ && seen { part = "" }
            part == h { while (match($0, /OFF\(-?[0-9]+, -?[0-9]+, -?[0-9]+\)/)) {
                    split(substr($0, RSTART + 4, RLENGTH - 5), d, ", "); n++; x[n] = d[1]; y[n] = d[2]; z[n] = d[3] + 0
                    if (n == 1 || z[n] > top) top = z[n]; seen = 1; $0 = substr($0, RSTART + RLENGTH) } }
            END { on = "true"; for (i = 1; i <= n; i++) if (z[i] == top && (x[i] != 0 || y[i] != 0)) on = "false"
                  print n ? on : "none" }' "$tmp/w.cu")
        emitted=$(sed -n "s/.*constexpr bool ${h}TOP_COLUMN = \([a-z]*\);.*/\1/p" "$tmp/w.cu")
        [ "$derived" = "$emitted" ] || errors="$errors$sc: ${h}TOP_COLUMN = '$emitted', its body's points say '$derived'\n"
    done
done
result "wave25d's top-plane flags match the bodies' points" "$(printf "$errors")"
# The make target itself, as a user types it.
out=$(make --no-print-directory -s kernel BUILD="$BUILD" SCHEME=fv24 COMPONENT=hy DEVICE=cpu 2>&1)
result "make kernel prints the CPU kernel" "$(echo "$out" | grep -q 'k_fv24_hy_f32_array_plain_run' || echo "$out" | head -n 3)"
out=$(make --no-print-directory -s kernel BUILD="$BUILD" SCHEME=fv24 DEVICE=gpu VARIANT=nosuch 2>&1)
result "make kernel names the variants it has" "$(echo "$out" | grep -q "no variant 'nosuch'.*tile25d" || echo "$out")"
# SOURCE_COMMIT names every row's commit: a word that is no commit id stops make before it builds.
out=$(make --no-print-directory -n BUILD="$BUILD" SOURCE_COMMIT=a1b2 2>&1) && out="make went on: $out"
result "make refuses a SOURCE_COMMIT that is no commit id" "$(echo "$out" | grep -q 'SOURCE_COMMIT=a1b2 is not a commit id' || echo "$out" | head -n 3)"
out=$(make --no-print-directory -n BUILD="$BUILD" SOURCE_COMMIT=0123456789ab 2>&1) || out="make stopped: $out"
result "make takes a SOURCE_COMMIT of 12 hex digits" "$(echo "$out" | grep -q 'not a commit id' && echo "$out" | head -n 3)"
summary
