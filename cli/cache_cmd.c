/* fdtdbench cache: the folder of GPU kernels compiled at run time (kernels_gpu/rtc.h): what it
 * holds, clearing it, and filling it ahead of a run (for the GPU in hand or, without one, for an
 * architecture named). */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "layer.h"
#include "rtc.h"
#include "session.h"

static const char *const usage =
    "usage: fdtdbench cache [--list] [--clear] [--warm [--arch sm_XY] [--scheme LIST] [--variant LIST]]\n"
    "GPU kernels are compiled by NVRTC when a command first needs them, for the GPU in hand, and kept\n"
    "in the kernel cache: $FDTDBENCH_CACHE, else $XDG_CACHE_HOME/fdtd-bench, else ~/.cache/fdtd-bench\n"
    "(FDTDBENCH_CACHE=off, or --no-cache on any command, compiles every kernel and keeps none).\n"
    "Without options: the folder, its kernel count and size. --warm compiles every selected kernel\n"
    "(both precisions and every coefficient storage, the step's fused and CPML layer kernels too) at its default\n"
    "launch, in parallel: for the GPU in hand, or for --arch without one (sm_90: machine code; newer\n"
    "GPUs than this NVRTC knows get PTX).\n";

/* 1 if name is in the comma list (NULL or "all": every name). */
static int selected(const char *list, const char *name)
{
    if (!list || !strcmp(list, "all")) return 1;
    const size_t n = strlen(name);
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

extern const struct kernel_entry gpu_fused_table[];
extern const int gpu_fused_table_len;

/* Compiles the selected kernels of a table at their declared launches on a 512^3 grid; the count. */
static int warm_table(const struct backend *b, const struct kernel_entry *t, int len, const char *schemes,
                      const char *variants, int *refused)
{
    int count = 0, bad = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : count, bad)
    for (int i = 0; i < len; i++) {
        const struct kernel_entry *k = &t[i];
        if (!selected(schemes, k->scheme) || !selected(variants, k->variant)) continue;
        static const int paper[3] = {32, 2, 3}; /* the paper's Table 3 shape, as default_launch */
        struct kernel_args a[3];
        memset(a, 0, sizeof a);
        a[0].nx = a[0].ny = a[0].nz = 512;
        a[0].sy = 512 + 2 * HALO, a[0].sz = a[0].sy * a[0].sy;
        memcpy(a[0].block, k->traits.block[0] ? k->traits.block : paper, sizeof a[0].block);
        a[0].nodes = k->traits.nodes;
        a[1] = a[2] = a[0];
        char why[256];
        if (b->prepare(k, a, why, sizeof why)) {
            fprintf(stderr, "cache: %s %s %s %s %s: %s\n", k->variant, k->scheme, component_names[k->component],
                    precision_names[k->precision], coef_names[k->coef], why);
            bad++;
        } else count++;
    }
    *refused += bad;
    return count;
}

/* The selected CPML layer kernels (codegen/layer.h: one launch shape each); the count. */
static int warm_layers(const struct backend *b, const char *schemes, const char *variants, int *refused)
{
    int count = 0, bad = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : count, bad)
    for (int i = 0; i < gpu_layer_table_len; i++) {
        const struct layer_entry *e = &gpu_layer_table[i];
        char why[256];
        if (!selected(schemes, e->scheme) || !selected(variants, e->variant)) continue;
        if (b->prepare_layer(e, why, sizeof why)) {
            fprintf(stderr, "cache: %s %s %s along %c %s %s: %s\n", e->variant, e->scheme, e->first == HX ? "H" : "E",
                    "xyz"[e->axis], precision_names[e->precision], coef_names[e->coef], why);
            bad++;
        } else count++;
    }
    *refused += bad;
    return count;
}

int cmd_cache(int argc, char **argv)
{
    int list = 0, clear = 0, warm = 0;
    const char *arch = NULL, *schemes = NULL, *variants = NULL;
    const struct cli_option opts[] = {
        {"list", CLI_FLAG, NULL, "one line per kernel: size, when and how long it took to compile, what", &list, 0, 0, NULL, 0},
        {"clear", CLI_FLAG, NULL, "remove every kernel (and failed compilations' logs)", &clear, 0, 0, NULL, 0},
        {"warm", CLI_FLAG, NULL, "compile the selected kernels now, in parallel", &warm, 0, 0, NULL, 0},
        {"arch", CLI_TEXT, "sm_XY", "--warm for this architecture, GPU or not (the GPU's)", &arch, 0, 0, NULL, 0},
        {"scheme", CLI_TEXT, "LIST|all", "--warm: these schemes (all)", &schemes, 0, 0, NULL, 0},
        {"variant", CLI_TEXT, "LIST|all", "--warm: these GPU variants, fused ones and the layer's cpml included (all)",
         &variants, 0, 0, NULL, 0},
    };
    cli_parse(usage, opts, CLI_NOPTS(opts), argc, argv);
    if ((arch || schemes || variants) && !warm) cli_error("cache: --arch, --scheme and --variant go with --warm");
    if (clear && warm) cli_error("cache: --clear and --warm: one at a time");
    if (schemes && strcmp(schemes, "all"))
        for (const char *p = schemes; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(p, ","), p);
            cli_scheme(name); /* ends with the known names if it is not one */
        }
    const struct backend *b = gpu_backend();
    if (!b->prepare) cli_error("cache: this build has no GPU backend (built without the CUDA toolkit)");
    if (clear) {
        int removed = 0;
        if (kcache_clear(&removed)) return 1;
        printf("removed %d kernels from %s\n", removed, kcache_dir() ? kcache_dir() : "(no cache)");
        return 0;
    }
    if (warm) {
        char why[256];
        if (arch) {
            int major = 0, minor = 0;
            char check[16];
            if (sscanf(arch, "sm_%1d%1d", &major, &minor) != 2 || strlen(arch) != 5 ||
                rtc_arch(major, minor, check, sizeof check, why, sizeof why) || strcmp(check, arch))
                cli_error("cache: --arch %s: give sm_XY, an architecture %s makes machine code for", arch, rtc_version());
            rtc_force_arch(arch);
        } else if (!b->available(why, sizeof why)) {
            cli_error("cache: no GPU to compile for (%s); name one with --arch sm_XY", why);
        }
        int refused = 0, n = 0;
        double t0 = omp_get_wtime();
        n += warm_table(b, gpu_kernel_table, gpu_kernel_table_len, schemes, variants, &refused);
        n += warm_table(b, gpu_fused_table, gpu_fused_table_len, schemes, variants, &refused);
        n += warm_layers(b, schemes, variants, &refused);
        if (!n && !refused) cli_error("cache: no GPU kernel matches --scheme %s --variant %s", schemes ? schemes : "all",
                                      variants ? variants : "all");
        int compiled, cached;
        double ms;
        kcache_counts(DEV_GPU, &compiled, &ms, &cached);
        printf("%d kernels for %s in %.1f s on %d threads: %d compiled (%.1f s of compiling), %d already in the cache\n", n,
               rtc_forced_arch() ? rtc_forced_arch() : "this GPU", omp_get_wtime() - t0, omp_get_max_threads(),
               compiled, ms / 1e3, cached);
        if (refused) return 1;
    }
    return kcache_show(stdout, list) ? 1 : 0;
}
