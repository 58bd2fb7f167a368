#!/bin/bash
# SASS counts of wave25d at a forced launch, no GPU: count-t1.sh TEMPLATE LABEL BX BY ROWS T SCHEME
# (run from the repo root; a scratch worktree at /tmp/sass/src, nvdisasm and cuobjdump from pip's
# nvidia-cuda-nvdisasm and nvidia-cuda-cuobjdump wheels unpacked at /tmp/nvd)
# usage: run.sh TEMPLATE LABEL BX BY ROWS T SCHEME
set -eu
tpl=$1 label=$2 bx=$3 by=$4 rows=$5 t=$6 s=$7
cd /tmp/sass/src
python3 - "$tpl" "$bx" "$by" "$rows" "$t" <<'PY'
import sys
tpl,bx,by,rows,t=sys.argv[1:]
s=open(tpl).read()
anchor="#endif\nnamespace {"
assert anchor in s
force=f"#endif\n#undef TILE_BX\n#undef TILE_BY\n#undef TILE_ROWS\n#undef WAVE25D_T\n#define TILE_BX {bx}\n#define TILE_BY {by}\n#define TILE_ROWS {rows}\n#define WAVE25D_T {t}\nnamespace {{"
open('kernels_gpu/wave25d.cu.step','w').write(s.replace(anchor,force,1))
PY
make -s BUILD=/tmp/sass/b >/dev/null 2>&1
export FDTDBENCH_CACHE=$(mktemp -d)
/tmp/sass/b/fdtdbench cache --warm --device gpu --arch sm_90 --variant wave25d --scheme $s >/dev/null 2>&1
k=k_${s}_hx_f32_uniform_wave25d_gpu
f=$(grep -l "$k" -r "$FDTDBENCH_CACHE" | head -n 1)
regs=$(/tmp/nvd/nvidia/cu13/bin/cuobjdump -res-usage "$f" 2>/dev/null | grep -A1 "$k" | grep -o "REG:[0-9]*" | head -1)
/tmp/nvd/nvidia/cu13/bin/nvdisasm "$f" > /tmp/sass/last.sass; printf "LDL %s STL %s " $(grep -c LDL /tmp/sass/last.sass) $(grep -c STL /tmp/sass/last.sass); awk -v k="$label $s ${bx}x${by} R$rows T$t $regs" '
    /BAR\.SYNC|SYNCS\.ARRIVE/ { if (fp > 0) { c++; L += lds; F += fp; N += n; S += sts } n = lds = fp = sts = 0; next }
    /\/\*[0-9a-f]+\*\//      { n++ }
    /LDS/                    { lds++ }
    /STS/                    { sts++ }
    /FADD|FFMA|FMUL/         { fp++ }
    END { if (fp > 0) { c++; L += lds; F += fp; N += n; S += sts }
          printf "%-40s sections %d, per section: LDS %.1f STS %.1f fp %.1f instr %.1f\n", k, c, L / c, S/c, F / c, N / c }' /tmp/sass/last.sass
rm -rf "$FDTDBENCH_CACHE"
