# Sourced by loop_counts.sh and loop_mca.sh. kernel_objs BUILD DIR KERNEL... puts each CPU
# kernel's code, as fdtdbench compiles it at run time, in DIR/KERNEL.so: BUILD's fdtdbench compiles
# every CPU kernel of each kernel's scheme and variant into a kernel cache of DIR's own
# (fdtdbench cache --warm --device cpu), and each entry's shared object is cut from before its
# trailer (codegen/kcache.c: its last lines "kernel NAME [OPTIONS]", "compiled ...", "code BYTES HASH").
# Names: k_SCHEME_COMPONENT_PRECISION_COEF_VARIANT, k_..._fused_cpu, l_SCHEME_H|E_AXIS_PRECISION_COEF_cpml_cpu.
# GRID=NXxNYxNZ or N (512): the grid whose strides a regz kernel is compiled for (its -DSY, -DSZ).
kernel_objs() {
    ko_build=$1 ko_dir=$2
    shift 2
    for ko_k in "$@"; do
        ko_scheme=$(echo "$ko_k" | cut -d_ -f2)
        case $ko_k in l_*) ko_variant=$(echo "$ko_k" | cut -d_ -f7) ;; *) ko_variant=$(echo "$ko_k" | cut -d_ -f6) ;; esac
        FDTDBENCH_CACHE="$ko_dir/cache" "$ko_build/fdtdbench" cache --warm --device cpu --scheme "$ko_scheme" \
            --variant "$ko_variant" --grid "${GRID:-512}" >"$ko_dir/warm.log" 2>&1 || { echo "$ko_k: $(tail -n 1 "$ko_dir/warm.log")"; return 2; }
    done
    for ko_e in "$ko_dir"/cache/*.so; do
        ko_name=$(tail -n 3 "$ko_e" | sed -n '1s/^kernel \([^ ]*\).*/\1/p')
        case " $* " in
        *" $ko_name "*) head -c "$(tail -n 1 "$ko_e" | sed 's/^code \([0-9]*\) .*/\1/')" "$ko_e" >"$ko_dir/$ko_name.so" ;;
        esac
    done
    for ko_k in "$@"; do
        [ -f "$ko_dir/$ko_k.so" ] || { echo "$ko_k: no such CPU kernel"; return 2; }
    done
}
