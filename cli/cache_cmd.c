/* fdtdbench cache: the folder of kernels compiled at run time (codegen/kcache.h), the CPU's and
 * the GPU's: what it holds, clearing it, and filling it ahead of a run (the CPU's, and the GPU's
 * for the GPU in hand or, without one, for an architecture named). */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kcache.h"
#include "layer.h"
#include "measure.h"
#include "rtc.h"
#include "session.h"
#include "step.h"

static const char *const usage =
    "usage: fdtdbench cache [--list] [--clear] [--warm [--device cpu|gpu|all] [--arch sm_XY] [--scheme LIST] [--variant LIST]\n"
    "                        [--grid NXxNYxNZ|N]]\n"
    "Kernels are compiled when a command first needs them, for the machine in hand: the CPU's by the C\n"
    "compiler this suite was built with, with its flags, the GPU's by NVRTC for the GPU in hand. Both\n"
    "are kept in the kernel cache: $FDTDBENCH_CACHE, else $XDG_CACHE_HOME/fdtd-bench, else\n"
    "~/.cache/fdtd-bench (FDTDBENCH_CACHE=off, or --no-cache on any command, compiles every kernel and\n"
    "keeps none). Without options: the folder, its kernel count per device and size. --warm compiles\n"
    "every selected kernel (both precisions and every coefficient storage, the step's fused and CPML\n"
    "layer kernels too), several at once on every core: the CPU's, and the GPU's at their default\n"
    "launches, for the GPU in hand or, with --arch, for that architecture, GPU or not (sm_90: machine\n"
    "code; newer GPUs than this NVRTC knows get PTX). The CPU's regz kernels are compiled for a grid's\n"
    "strides, --grid's (512^3). With GCC the cache also holds <immintrin.h> precompiled, which those\n"
    "(and the other explicit-vector kernels) read instead of parsing it.\n";

/* 1 if name is in the comma list (NULL or "all": every name). */
static int selected(const char *list, const char *name)
{
    if (!list || !strcmp(list, "all")) return 1;
    const size_t n = strlen(name);
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

extern const struct kernel_entry cpu_fused_table[], gpu_fused_table[];
extern const int cpu_fused_table_len, gpu_fused_table_len;

/* Compiles the selected kernels of a table at their declared launches on grid g; the count. */
static int warm_table(const struct backend *b, const struct kernel_entry *t, int len, const char *schemes,
                      const char *variants, const int g[3], int *refused)
{
    int count = 0, bad = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : count, bad)
    for (int i = 0; i < len; i++) {
        const struct kernel_entry *k = &t[i];
        if (!selected(schemes, k->scheme) || !selected(variants, k->variant)) continue;
        static const int paper[3] = {32, 2, 3}; /* the paper's Table 3 shape, as default_launch */
        struct kernel_args a[3];
        launch_geometry(&a[0], g, k->traits.block[0] ? k->traits.block : paper, k->traits.nodes, 0, 0);
        if (k->traits.passes) { /* the one kernel a pass, for the schemes it takes, at the default steps */
            const struct step_config c = {.b = b, .s = scheme_find(k->scheme), .variant = k->variant,
                                          .precision = k->precision, .coef = k->coef};
            if (!step_launches(&k->traits, k->component) || !c.s || !step_supported(&c)) continue;
            a[0].tsteps = step_default_tsteps(b->device, k->variant);
        }
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
static int warm_layers(const struct backend *b, const struct layer_entry *t, int len, const char *schemes,
                       const char *variants, int *refused)
{
    int count = 0, bad = 0;
#pragma omp parallel for schedule(dynamic) reduction(+ : count, bad)
    for (int i = 0; i < len; i++) {
        const struct layer_entry *e = &t[i];
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

/* The selected kernels of b's device, compiled or read from the cache, and a line saying so where
 * there were any; the count. */
static int warm_device(const struct backend *b, const char *schemes, const char *variants, const int g[3], int *refused)
{
    const int cpu = b->device == DEV_CPU;
    int n = 0, compiled0, cached0, compiled, cached;
    double ms0, ms, t0 = omp_get_wtime();
    kcache_counts(b->device, &compiled0, &ms0, &cached0);
    n += warm_table(b, cpu ? cpu_kernel_table : gpu_kernel_table, cpu ? cpu_kernel_table_len : gpu_kernel_table_len,
                    schemes, variants, g, refused);
    n += warm_table(b, cpu ? cpu_fused_table : gpu_fused_table, cpu ? cpu_fused_table_len : gpu_fused_table_len,
                    schemes, variants, g, refused);
    n += warm_layers(b, cpu ? cpu_layer_table : gpu_layer_table, cpu ? cpu_layer_table_len : gpu_layer_table_len,
                     schemes, variants, refused);
    kcache_counts(b->device, &compiled, &ms, &cached);
    if (n)
        printf("%d kernels for %s in %.1f s on %d threads: %d compiled (%.1f s of compiling), %d already in the cache\n",
               n, cpu ? "this CPU" : rtc_forced_arch() ? rtc_forced_arch() : "this GPU", omp_get_wtime() - t0,
               omp_get_max_threads(), compiled - compiled0, (ms - ms0) / 1e3, cached - cached0);
    return n;
}

int cmd_cache(int argc, char **argv)
{
    static const char *const devices[] = {"cpu", "gpu", "all"};
    int list = 0, clear = 0, warm = 0, device = -1; /* -1: not given (all) */
    const char *arch = NULL, *schemes = NULL, *variants = NULL;
    int grid[3] = {0, 0, 0};
    const struct cli_option opts[] = {
        {"list", CLI_FLAG, NULL, "one line per kernel: size, device, when and how long it took to compile, what", &list,
         0, 0, NULL, 0},
        {"clear", CLI_FLAG, NULL, "remove every kernel (and failed compilations' logs, the precompiled header)", &clear, 0, 0, NULL, 0},
        {"warm", CLI_FLAG, NULL, "compile the selected kernels now, in parallel", &warm, 0, 0, NULL, 0},
        {"device", CLI_CHOICE, "cpu|gpu|all", "--warm: this device's kernels (all: the CPU's, and the GPU's where there "
         "is one or --arch names one)", &device, 0, 0, devices, 3},
        {"arch", CLI_TEXT, "sm_XY", "--warm the GPU's for this architecture, GPU or not (the GPU's)", &arch, 0, 0, NULL, 0},
        {"scheme", CLI_TEXT, "LIST|all", "--warm: these schemes (all)", &schemes, 0, 0, NULL, 0},
        {"variant", CLI_TEXT, "LIST|all", "--warm: these variants of either device, fused ones and the layer's cpml "
         "included (all)", &variants, 0, 0, NULL, 0},
        {"grid", CLI_GRID, "NXxNYxNZ | N", "--warm: launches on this grid (512): the CPU's regz kernels are compiled "
         "for its strides", grid, CLI_GRID_MIN, CLI_GRID_MAX, NULL, 0},
    };
    cli_parse(usage, opts, CLI_NOPTS(opts), argc, argv);
    if ((arch || schemes || variants || device >= 0 || grid[0]) && !warm)
        cli_error("cache: --device, --arch, --scheme, --variant and --grid go with --warm");
    if (!grid[0]) grid[0] = grid[1] = grid[2] = 512;
    if (arch && device == DEV_CPU) cli_error("cache: --arch names a GPU architecture, not one for --device cpu");
    if (clear && warm) cli_error("cache: --clear and --warm: one at a time");
    if (schemes && strcmp(schemes, "all"))
        for (const char *p = schemes; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL) {
            char name[32];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(p, ","), p);
            cli_scheme(name); /* ends with the known names if it is not one */
        }
    const struct backend *gpu = gpu_backend();
    if (clear) {
        int removed = 0;
        if (kcache_clear(&removed)) return 1;
        printf("removed %d kernels from %s\n", removed, kcache_dir() ? kcache_dir() : "(no cache)");
        return 0;
    }
    if (warm) {
        char why[256];
        int gpu_too = 0;
        if (arch) {
            int number = 0, end = 0; /* sm_XY or sm_XXY: compute capability X.Y or XX.Y (Blackwell: sm_100, sm_120) */
            char check[16];
            if (!gpu->prepare) cli_error("cache: --arch: this build has no GPU backend (built without the CUDA toolkit)");
            if (sscanf(arch, "sm_%3d%n", &number, &end) != 1 || arch[end] || number < 10 ||
                rtc_arch(number / 10, number % 10, check, sizeof check, why, sizeof why) || strcmp(check, arch))
                cli_error("cache: --arch %s: give sm_XY (sm_90, sm_100 ...), an architecture %s makes machine code for", arch,
                          rtc_version());
            rtc_force_arch(arch);
            gpu_too = 1;
        } else if (device != DEV_CPU) {
            if (!gpu->prepare) snprintf(why, sizeof why, "this build has no GPU backend: built without the CUDA toolkit");
            gpu_too = gpu->prepare && gpu->available(why, sizeof why);
            if (!gpu_too && device == DEV_GPU)
                cli_error("cache: no GPU to compile for (%s)%s", why, gpu->prepare ? "; name one with --arch sm_XY" : "");
            if (!gpu_too && gpu->prepare)
                fprintf(stderr, "cache: no GPU to compile for (%s): CPU kernels only; --arch sm_XY names one\n", why);
        }
        int refused = 0, n = device == DEV_GPU ? 0 : warm_device(cpu_backend(), schemes, variants, grid, &refused);
        if (gpu_too) n += warm_device(gpu, schemes, variants, grid, &refused);
        if (!n && !refused)
            cli_error("cache: no %s kernel matches --scheme %s --variant %s",
                      !gpu_too ? "CPU" : device == DEV_GPU ? "GPU" : "CPU or GPU", schemes ? schemes : "all",
                      variants ? variants : "all");
        if (refused) return 1;
    }
    return kcache_show(stdout, list) ? 1 : 0;
}
