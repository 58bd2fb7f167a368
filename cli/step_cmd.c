/* fdtdbench step: whole FDTD time steps (all six components) verified, then timed. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "design.h"
#include "session.h"
#include "metrics.h"
#include "pml.h"
#include "step_measure.h"
#include "transport.h"
#include "wave.h"

static const char *const usage =
    "usage: fdtdbench step [OPTIONS]\n"
    "Verifies a whole time step (H half-step then E half-step, all six components, halo refresh\n"
    "on the device) against a double-precision reference step, then times K steps per sample.\n"
    "Reports cells x steps / s (MCells/s as openEMS, Meep and gprMax count it; not the paper's\n"
    "eq. 5) and writes one CSV row to RESULTS/<machine>/steps/step-<date>.csv.\n"
    "With --pml N, a CPML (Roden and Gedney) of N cells on every face, inside the grid and backed by\n"
    "PEC walls: its reflection is measured first (pml_reflection_db), and after each sample's steps\n"
    "the layer's passes are timed alone (layer_ms, layer_share, layer_pct_bw); where the update\n"
    "kernels make the x faces' corrections themselves (the CPU's fused), the layer's time is the\n"
    "median difference of paired passes with and without it, each pair's order alternated.\n"
    "With --slabs N or --gpus N, the grid split into N slabs along z (the larger first), a stepper each,\n"
    "their halo planes exchanged every half-step (as deep as each field's stencils reach along z):\n"
    "copied on the one device, or one GPU a slab through NCCL. Verified first against the undivided\n"
    "step on a small grid split alike; halo_bytes says what the exchange moves per step.\n";

static void print_text(const struct session *s, const struct step_run *c, const struct step_result *r)
{
    const struct step_config *sc = &c->c;
    session_print(s, stdout);
    printf("step %s %s %s %s %s %s %dx%dx%d %s %dx%dx%d", sc->s->name, device_names[sc->b->device], c->variant,
           precision_names[sc->precision], coef_names[sc->coef], boundary_names[sc->boundary], sc->grid[0],
           sc->grid[1], sc->grid[2], sc->b->device == DEV_CPU ? "tile" : "block", sc->block[0], sc->block[1],
           sc->block[2]);
    if (step_tsteps(sc) > 1) printf(", %d steps a pass,", step_tsteps(sc));
    if (sc->pml) printf(" pml %d (order %d)", sc->pml, sc->pml_order);
    char nccl[256] = "nccl"; /* which NCCL: its version and file */
    if (step_slabs(c) > 1 && c->per_gpu) nccl_available(nccl, sizeof nccl);
    if (step_slabs(c) > 1)
        printf(" in %d slabs (%s%s%s)", step_slabs(c), c->per_gpu ? "a GPU each, " : "copied", c->per_gpu ? nccl : "",
               c->overlap ? ", overlapped" : "");
    if (sc->b->device == DEV_CPU) printf(" threads %d", r->threads);
    printf(": verified\n");
    const struct step_record m = {"step", c, r, &s->desc};
    metrics_text(stdout, &step_metrics, &m);
}

int cmd_step(int argc, char **argv)
{
    struct step_run c = {.variant = STEP_COMPONENTS, .reps = 5, .overlap = -1,
                         .c = {.boundary = -1, .pml_order = PML_ORDER_DEFAULT}}; /* -1: not given */
    static const char *const yes_no[] = {"no", "yes"};
    const char *grid = NULL, *block = NULL, *dir = "results", *scheme = NULL;
    int device = -1, csv = 0, gpus = 0, threads_max = omp_get_num_procs();
    const struct cli_option opts[] = {
        CLI_OPT_DEVICE(&device),
        {"scheme", CLI_TEXT, "NAME", "a built-in scheme (the reference scheme)", &scheme, 0, 0, NULL, 0},
        {"grid", CLI_TEXT, "N|NXxNYxNZ", "interior cells, each at least 4 (300 on the CPU, 512 on a GPU)", &grid, 0, 0,
         NULL, 0},
        {"steps", CLI_INT, "K", "steps per timed sample (as many as last a tenth of a second, at most 10)", &c.steps, 1,
         INT_MAX, NULL, 0},
        {"variant", CLI_TEXT, "NAME",
         "components (each component's own kernel), fused (one kernel per half-step; on a GPU also fused25d, "
         "the same with xy tiles marching along z through shared memory), wave (--tsteps steps per pass over "
         "memory, temporally blocked), wave25d (GPU: --tsteps steps a launch, every half-step's planes kept in "
         "shared memory; schemes of one time level), or a kernel variant of run",
         &c.variant, 0, 0, NULL, 0},
        CLI_OPT_PRECISION(&c.c.precision),
        {"coef", CLI_CHOICE, "array|uniform|indexed",
         "per-node arrays, scalars, or a material byte per node into a table (array)", &c.c.coef, 0, 0, coef_names,
         NCOEF_STORAGES},
        {"threads", CLI_INT, "T", "CPU threads (all)", &c.threads, 1, threads_max, NULL, 0},
        {"block", CLI_TEXT, "JxK|BXxBYxBZ",
         "CPU tile of J rows by K planes (wave: 0xK, K planes per sweep step), or GPU thread block (tuned, else "
         "Table 3)",
         &block, 0, 0, NULL, 0},
        {"nodes", CLI_INT, "N",
         "GPU: nodes per thread along z (wave25d: planes a block); CPU fused: nodes along z a pass, 1 or 2 (tuned, "
         "else the variant's)",
         &c.c.nodes, 1, 1024, NULL, 0},
        {"tsteps", CLI_INT, "T", "wave, wave25d: steps per pass over memory (tuned, else 4 on the CPU, 2 on a GPU)",
         &c.c.tsteps, 1, WAVE_MAX_STEPS,
         NULL, 0},
        CLI_OPT_ROWS(&c.c.rows),
        CLI_OPT_STAGES(&c.c.stages),
        {"regs", CLI_INT, "R", "GPU fused, fused25d: registers per thread at most (tuned, else the compiler's or the variant's rule)", &c.c.regs,
         16, 255, NULL, 0},
        {"boundary", CLI_CHOICE, "periodic|pec",
         "periodic wrap, or PEC walls (tangential E zero) (periodic; pec with --pml)", &c.c.boundary, 0, 0,
         boundary_names, NBOUNDARIES},
        {"pml", CLI_INT, "N", "CPML of N cells on every face, at most a third of the grid's smallest side (0: none)",
         &c.c.pml, 0, CLI_GRID_MAX, NULL, 0},
        {"pml-order", CLI_INT, "M", "the layer's polynomial grading order (3)", &c.c.pml_order, PML_ORDER_MIN,
         PML_ORDER_MAX, NULL, 0},
        {"slabs", CLI_INT, "N", "the grid in N slabs along z on the device, halo planes copied between them (1)",
         &c.slabs, 1, DECOMP_MAX_SLABS, NULL, 0},
        {"gpus", CLI_INT, "N", "the grid in N slabs along z, one GPU each, halo planes through NCCL (a GPU step)", &gpus,
         1, DECOMP_MAX_SLABS, NULL, 0},
        {"overlap", CLI_CHOICE, "yes|no",
         "in slabs: boundary planes first, exchanged while the others update (yes on a GPU without --pml)",
         &c.overlap, 0, 0, yes_no, 2},
        CLI_OPT_REPS(&c.reps),
        CLI_OPT_CSV(&csv),
        CLI_OPT_RESULTS(&dir),
    };
    cli_parse(usage, opts, CLI_NOPTS(opts), argc, argv);
    if (gpus && c.slabs) cli_error("--slabs and --gpus: one or the other (--gpus N: N slabs, a GPU each)");
    if (gpus && device == DEV_CPU) cli_error("--gpus: a GPU step, not --device cpu (--slabs N splits a CPU's grid)");
    if (device < 0) device = gpus ? DEV_GPU : DEV_CPU;
    if (gpus) c.slabs = gpus, c.per_gpu = 1;
    c.c.s = scheme ? cli_scheme(scheme) : scheme_reference() ? scheme_reference() : scheme_at(0);
    if (grid) cli_triple("--grid", grid, STEP_MIN_GRID, 100000, c.c.grid);
    else c.c.grid[0] = c.c.grid[1] = c.c.grid[2] = device == DEV_CPU ? 300 : 512;
    char why[512];
    if (pml_check(c.c.pml, c.c.grid, why, sizeof why)) cli_error("%s", why);
    if (c.c.pml && c.c.boundary == BOUNDARY_PERIODIC)
        cli_error("--pml: the layer ends on PEC walls, not with --boundary periodic");
    if (c.c.boundary < 0) c.c.boundary = c.c.pml ? BOUNDARY_PEC : BOUNDARY_PERIODIC;
    if (c.overlap < 0) c.overlap = device == DEV_GPU && !c.c.pml;
    /* slabs, GPUs and NCCL checked before anything is allocated (no context yet either) */
    c.c.b = device_backend(device);
    const struct decomp_config split = step_decomp(&c);
    if (decomp_check(&split, 0, why, sizeof why)) cli_error("%s", why);
    if (block && device == DEV_CPU) {
        int j, k, used = 0;
        if (sscanf(block, "%dx%d%n", &j, &k, &used) != 2 || block[used] || j < 0 || k < 1)
            cli_error("--block: '%s' is not JxK (CPU rows, 0 for whole planes, x planes, at least 1)", block);
        c.c.block[1] = j, c.c.block[2] = k;
    } else if (block) {
        cli_triple("--block", block, 1, 1024, c.c.block);
    }

    struct session s;
    session_open(&s, device);
    c.c.b = s.b;
    c.c.variant = step_kernel_variant(device, c.variant);
    if (step_takes(&c.c, why, sizeof why)) cli_error("--variant: %s", why);
    if (!step_supported(&c.c))
        cli_error("--variant: no %s variant '%s' for %s %s %s (components, fused, wave, fused25d and wave25d on a GPU, or a "
                  "kernel variant of fdtdbench run)",
                  device_names[device], c.variant, c.c.s->name, precision_names[c.c.precision], coef_names[c.c.coef]);
    if (c.c.regs && (device != DEV_GPU || !step_takes_regs(step_fused_traits(device, c.c.variant))))
        cli_error("--regs: a register cap for the GPU's fused kernels (--device gpu --variant fused or fused25d), not %s %s",
                  device_names[device], c.variant);
    step_default_launch(&s, &c); /* with --block given: only rows, where not given */
    double w[MAX_GROUPS];
    if (step_vacuum(&c.c, w, why, sizeof why)) cli_error("%s", why);
    if (step_fits(&c, &s.desc, why, sizeof why)) cli_error("%s", why); /* before any allocation */
    step_prepare(&c.c); /* its kernels compiled in parallel, before anything is verified or timed */
    struct step_result r;
    if (step_measure(&c, &s.desc, &r, why, sizeof why)) cli_error("step: %s", why);
    struct results_file rf;
    char folder[160];
    step_results_folder(s.slug, folder, sizeof folder);
    if (results_open_with(&rf, dir, folder, "step", NULL)) return 1;
    step_csv_header(rf.f);
    step_row(rf.f, "step", &c, &r, &s.desc);
    if (results_close(&rf)) return 1;
    if (csv) {
        step_csv_header(stdout);
        step_row(stdout, "step", &c, &r, &s.desc);
    } else {
        print_text(&s, &c, &r);
    }
    fprintf(stderr, "step: wrote %s\n", rf.path);
    return 0;
}

/* fdtdbench peers: scripts/peers.sh (openEMS, Meep and gprMax beside this binary's full step), run
 * from the repository root, with this binary as the suite it measures. */
int cmd_peers(int argc, char **argv)
{
    static const char script[] = "scripts/peers.sh";
    if (access(script, R_OK))
        cli_error("peers: %s not found here: run from the repository root (or: make peers)", script);
    static char self[4096]; /* this binary's path: /proc/self/exe would name the shell once it runs */
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) cli_error("peers: cannot find this program's path: %s", strerror(errno));
    self[len] = '\0';
    char **args = calloc((size_t)argc + 5, sizeof *args);
    if (!args) cli_error("peers: out of memory");
    int n = 0;
    args[n++] = "sh", args[n++] = (char *)script, args[n++] = "--fdtdbench", args[n++] = self;
    for (int i = 1; i < argc; i++) args[n++] = argv[i];
    execv("/bin/sh", args);
    cli_error("peers: cannot run /bin/sh: %s", strerror(errno));
}
