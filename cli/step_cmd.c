/* fdtdbench step: whole FDTD time steps (all six components) verified, then timed. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
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
#include "step_measure.h"

static const char *const help =
    "usage: fdtdbench step [OPTIONS]\n"
    "Verifies a whole time step (H half-step then E half-step, all six components, halo refresh\n"
    "on the device) against a double-precision reference step, then times K steps per sample.\n"
    "Reports cells x steps / s (MCells/s as openEMS, Meep and gprMax count it; not the paper's\n"
    "eq. 5) and writes one CSV row to RESULTS/<machine>/steps/step-<date>.csv.\n"
    "  --device cpu|gpu              (cpu)\n"
    "  --scheme NAME                 a built-in scheme (the reference scheme)\n"
    "  --grid N|NXxNYxNZ             interior cells, each at least 4 (300 on the CPU, 512 on a GPU)\n"
    "  --steps K                     steps per timed sample, 1 to 2147483647 (10)\n"
    "  --variant NAME                components (each component's own kernel), fused (one kernel per\n"
    "                                half-step), or a kernel variant of run (components)\n"
    "  --precision f32|f64           (f32)\n"
    "  --coef array|uniform|indexed  per-node arrays, scalars, or a material byte per node into a table (array)\n"
    "  --threads T                   CPU threads (all)\n"
    "  --block JxK | BXxBYxBZ        CPU tile of J rows by K planes, or GPU thread block (tuned, else Table 3)\n"
    "  --nodes N                     GPU marching variants: nodes per thread along z\n"
    "  --boundary periodic|pec       periodic wrap, or PEC walls (tangential E zero) (periodic)\n"
    "  --reps R                      timed samples, the median is reported (5)\n"
    "  --csv                         print the CSV header and row instead of text\n"
    "  --results DIR                 where the CSV goes (results)\n";

static int pick_boundary(const char *v)
{
    char known[64] = "";
    for (int i = 0; i < NBOUNDARIES; i++) {
        if (!strcmp(v, boundary_names[i])) return i;
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", boundary_names[i]);
    }
    cli_error("--boundary: unknown boundary '%s' (known: %s)", v, known);
}

static void print_text(const struct session *s, const struct step_run *c, const struct step_result *r)
{
    const struct step_config *sc = &c->c;
    session_print(s, stdout);
    printf("step %s %s %s %s %s %s %dx%dx%d %s %dx%dx%d", sc->s->name, device_names[sc->b->device], c->variant,
           precision_names[sc->precision], coef_names[sc->coef], boundary_names[sc->boundary], sc->grid[0],
           sc->grid[1], sc->grid[2], sc->b->device == DEV_CPU ? "tile" : "block", sc->block[0], sc->block[1],
           sc->block[2]);
    if (sc->b->device == DEV_CPU) printf(" threads %d", r->threads);
    printf(": verified\n");
    const struct step_record m = {"step", c, r, &s->desc};
    metrics_text(stdout, &step_metrics, &m);
}

int cmd_step(int argc, char **argv)
{
    enum { O_DEVICE = 256, O_SCHEME, O_GRID, O_STEPS, O_VARIANT, O_PRECISION, O_COEF, O_THREADS, O_BLOCK, O_NODES,
           O_BOUNDARY, O_REPS, O_CSV, O_RESULTS };
    static const struct option options[] = {
        {"device", required_argument, 0, O_DEVICE},       {"scheme", required_argument, 0, O_SCHEME},
        {"grid", required_argument, 0, O_GRID},           {"steps", required_argument, 0, O_STEPS},
        {"variant", required_argument, 0, O_VARIANT},     {"precision", required_argument, 0, O_PRECISION},
        {"coef", required_argument, 0, O_COEF},           {"threads", required_argument, 0, O_THREADS},
        {"block", required_argument, 0, O_BLOCK},         {"nodes", required_argument, 0, O_NODES},
        {"boundary", required_argument, 0, O_BOUNDARY},   {"reps", required_argument, 0, O_REPS},
        {"csv", no_argument, 0, O_CSV},                   {"results", required_argument, 0, O_RESULTS},
        {"help", no_argument, 0, 'h'},                    {0, 0, 0, 0}};
    struct step_run c = {.variant = "components", .steps = 10, .reps = 5};
    const char *grid = NULL, *block = NULL, *dir = "results";
    int device = DEV_CPU, csv = 0;
    c.c.s = scheme_reference() ? scheme_reference() : scheme_at(0);
    optind = 1, opterr = 0;
    for (int o; (o = getopt_long(argc, argv, "h", options, NULL)) != -1;) {
        switch (o) {
        case 'h': fputs(help, stdout); return 0;
        case O_DEVICE: device = cli_device(optarg); break;
        case O_SCHEME: c.c.s = cli_scheme(optarg); break;
        case O_GRID: grid = optarg; break;
        case O_STEPS: c.steps = cli_int("--steps", optarg, 1, INT_MAX); break;
        case O_VARIANT: c.variant = optarg; break;
        case O_PRECISION: c.c.precision = cli_precision(optarg); break;
        case O_COEF: c.c.coef = cli_coef(optarg); break;
        case O_THREADS: c.threads = cli_int("--threads", optarg, 1, omp_get_num_procs()); break;
        case O_BLOCK: block = optarg; break;
        case O_NODES: c.c.nodes = cli_int("--nodes", optarg, 1, 64); break;
        case O_BOUNDARY: c.c.boundary = pick_boundary(optarg); break;
        case O_REPS: c.reps = cli_int("--reps", optarg, 1, 1000); break;
        case O_CSV: csv = 1; break;
        case O_RESULTS: dir = optarg; break;
        default: cli_error("step: unknown option or missing value '%s' (see fdtdbench step --help)", argv[optind - 1]);
        }
    }
    if (optind < argc) cli_error("step: unexpected argument '%s' (see fdtdbench step --help)", argv[optind]);
    if (grid) cli_triple("--grid", grid, STEP_MIN_GRID, 100000, c.c.grid);
    else c.c.grid[0] = c.c.grid[1] = c.c.grid[2] = device == DEV_CPU ? 300 : 512;
    if (block && device == DEV_CPU) {
        int j, k, used = 0;
        if (sscanf(block, "%dx%d%n", &j, &k, &used) != 2 || block[used] || j < 1 || k < 1)
            cli_error("--block: '%s' is not JxK (CPU rows x planes, each at least 1)", block);
        c.c.block[1] = j, c.c.block[2] = k;
    } else if (block) {
        cli_triple("--block", block, 1, 1024, c.c.block);
    }

    struct session s;
    session_open(&s, device);
    c.c.b = s.b;
    c.c.variant = step_kernel_variant(device, c.variant);
    if (!step_supported(&c.c))
        cli_error("--variant: no %s variant '%s' for %s %s %s (components, fused, or a kernel variant of fdtdbench run)",
                  device_names[device], c.variant, c.c.s->name, precision_names[c.c.precision], coef_names[c.c.coef]);
    if (!block) { /* the component kernels' own default launch */
        struct run_config rc = {.scheme = c.c.s, .component = HX, .precision = c.c.precision, .coef = c.c.coef,
                                .device = device, .variant = step_kernel_variant(device, "components"),
                                .nodes = c.c.nodes};
        default_launch(&s, &rc);
        memcpy(c.c.block, rc.block, sizeof c.c.block);
        c.c.nodes = rc.nodes;
    }
    /* Vacuum at 0.9 of the stability limit: fields stay bounded however long it runs. */
    double w[MAX_GROUPS];
    char why[512];
    if (scheme_weights(c.c.s, DEFAULT_DESIGN_PPW, DEFAULT_DESIGN_COURANT, w, why, sizeof why)) cli_error("%s", why);
    c.c.w = w;
    c.c.courant = 0.9 * stability_limit(c.c.s, w);
    if (step_fits(&c, &s.desc, why, sizeof why)) cli_error("%s", why); /* before any allocation */
    session_bandwidth(&s, c.threads);
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

/* fdtdbench peers: scripts/peers.sh (openEMS and Meep beside this binary's full step), run from
 * the repository root, with this binary as the suite it measures. */
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
