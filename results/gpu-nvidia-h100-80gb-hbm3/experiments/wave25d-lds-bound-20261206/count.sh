#!/bin/sh
# Shared loads, floating-point instructions and all instructions per level of wave25d (and per plane
# of fused25d), counted in the SASS that NVRTC makes for sm_90, no GPU needed:
#   NVDISASM=path/to/nvdisasm sh count.sh      (nvdisasm: pip download nvidia-cuda-nvdisasm)
# The kernels at their default launches (32x8 tile, two rows a thread; wave25d at T = 2, periodic),
# H half-step, f32, uniform coefficients. A section is the code between two barriers; wave25d has one
# section a level (2T a plane), each holding one copy of the level's body (its floating-point
# instructions match the body's flops for its two rows); fused25d one a plane (after its last
# barrier).
set -eu
B=${FDTDBENCH:-build/fdtdbench}
export FDTDBENCH_CACHE=$(mktemp -d)
trap 'rm -rf "$FDTDBENCH_CACHE"' EXIT
"$B" cache --warm --device gpu --arch sm_90 --variant wave25d,fused25d --scheme yee,fv24,fv24wb,s22 >/dev/null 2>&1
for s in yee fv24 fv24wb s22; do
    for v in wave25d fused25d; do
        k=k_${s}_hx_f32_uniform_${v}_gpu
        f=$(grep -l "$k" -r "$FDTDBENCH_CACHE" | head -n 1)
        "$NVDISASM" "$f" | awk -v k="$k" '
            /BAR\.SYNC|SYNCS\.ARRIVE/ { if (fp > 0) { c++; L += lds; F += fp; N += n } n = lds = fp = 0; next }
            /\/\*[0-9a-f]+\*\//      { n++ }
            /LDS/                    { lds++ }
            /FADD|FFMA|FMUL/         { fp++ }
            END { if (fp > 0) { c++; L += lds; F += fp; N += n }
                  printf "%-36s sections %d, per section: LDS %.1f, fp %.1f, instructions %.1f\n", k, c, L / c, F / c, N / c }'
    done
done
