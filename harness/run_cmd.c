/* fdtdbench run, sweep and probe: verify and time kernels on a device. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "measure.h"
#include "session.h"

static const char *const run_help =
    "usage: fdtdbench run [OPTIONS]\n"
    "Verifies one kernel against the double-precision reference, then times it.\n"
    "Defaults are the paper's protocol: Yee, hx, a 300^3 interior, f32, array coefficients.\n"
    "  --device cpu|gpu        (cpu)\n"
    "  --scheme NAME           yee, fv24, fv24wb, s22, s44 (yee)\n"
    "  --component C           hx hy hz ex ey ez (hx)\n"
    "  --grid NXxNYxNZ | N     interior cells, each at least 4 (300)\n"
    "  --threads T             CPU threads, 1 to the CPUs online (all)\n"
    "  --tile JxK              CPU tile of J rows by K planes (whole rows of one plane)\n"
    "  --block BXxBYxBZ        GPU thread block (the tuned one, else the paper's Table 3 shape)\n"
    "  --nodes N               GPU marching variants (zmarch): nodes per thread along z (tuned, else 1)\n"
    "  --precision f32|f64     (f32)\n"
    "  --coef array|uniform|indexed  per-node arrays, scalars, or a material byte per node into a table (array; indexed: CPU)\n"
    "  --variant NAME          kernel variant (cpu: plain; gpu: baseline)\n"
    "  --reps R                timed samples, the median is reported (5)\n"
    "  --csv                   print a CSV header and row instead of text\n";

/* Options common to run and sweep. */
struct options {
    int device, precision, coef, reps, csv, threads, nodes;
    int grid[3], block[3], have_block;
    const char *variant;
};

static void default_options(struct options *o)
{
    memset(o, 0, sizeof *o);
    o->grid[0] = o->grid[1] = o->grid[2] = 300;
    o->reps = 5;
}

static void parse_block(const char *opt, const char *v, int device, int block[3])
{
    if (device == DEV_CPU) { /* JxK: rows by planes; x lines stay whole for SIMD */
        int j, k, used = 0;
        if (sscanf(v, "%dx%d%n", &j, &k, &used) != 2 || v[used] || j < 1 || k < 1)
            cli_error("%s: '%s' is not JxK (rows x planes, each at least 1)", opt, v);
        block[0] = 0, block[1] = j, block[2] = k;
    } else {
        cli_triple(opt, v, 1, 1024, block);
    }
}

static int parse_common(struct options *o, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    if (!strcmp(a, "--precision")) o->precision = cli_precision(cli_value(argc, argv, i));
    else if (!strcmp(a, "--coef")) o->coef = cli_coef(cli_value(argc, argv, i));
    else if (!strcmp(a, "--reps")) o->reps = cli_int(a, cli_value(argc, argv, i), 1, 1000);
    else if (!strcmp(a, "--variant")) o->variant = cli_value(argc, argv, i);
    else if (!strcmp(a, "--nodes")) o->nodes = cli_int(a, cli_value(argc, argv, i), 1, 64);
    else if (!strcmp(a, "--csv")) o->csv = 1;
    else return 0;
    return 1;
}

static int max_threads(void) { return omp_get_num_procs(); }

static void check_options(const struct options *o, struct session *s)
{
    if (o->have_block) {
        char why[256];
        if (s->b->check_block(o->block, why, sizeof why)) cli_error("%s", why);
    }
}

static const char *default_variant(int device) { return device == DEV_CPU ? "plain" : "baseline"; }

static void print_result(const struct session *s, const struct run_config *c, const struct run_result *r)
{
    printf("%s %s %s %s %s %s %dx%dx%d %s %dx%dx%d", c->scheme->name, component_names[c->component],
           device_names[c->device], precision_names[c->precision], coef_names[c->coef], c->variant, c->grid[0],
           c->grid[1], c->grid[2], c->device == DEV_CPU ? "tile" : "block", c->block[0], c->block[1], c->block[2]);
    if (c->device == DEV_CPU) printf(" threads %d", r->threads);
    if (c->nodes > 1) printf(" nodes %d", c->nodes);
    printf(": verified\n  median %.4g ms per update of the grid (min %.4g, max %.4g; %d samples of %d)%s\n",
           r->median_ms, r->min_ms, r->max_ms, c->reps, r->batch, r->cache_resident ? " [cache-resident]" : "");
    printf("  %.4g M updates/s = %.4g MCells/s (eq. 5); %.4g GB/s effective (%d compulsory bytes/update) = %.1f%% of %.4g GB/s measured; %.4g GFLOP/s\n",
           r->updates_per_s / 1e6, r->mcells_per_s, r->gbs_effective, r->counts.compulsory_bytes, r->pct_bw,
           s->bw.best_gbs, r->gflops);
}

int cmd_run(int argc, char **argv)
{
    struct options o;
    const char *scheme = "yee";
    int component = HX;
    default_options(&o);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(run_help, stdout); return 0; }
        else if (parse_common(&o, argc, argv, &i)) continue;
        else if (!strcmp(a, "--device")) o.device = cli_device(cli_value(argc, argv, &i));
        else if (!strcmp(a, "--scheme")) scheme = cli_scheme(cli_value(argc, argv, &i))->name;
        else if (!strcmp(a, "--component")) component = cli_component(cli_value(argc, argv, &i));
        else if (!strcmp(a, "--grid")) cli_triple(a, cli_value(argc, argv, &i), 2 * HALO, 100000, o.grid);
        else if (!strcmp(a, "--threads")) o.threads = cli_int(a, cli_value(argc, argv, &i), 1, max_threads());
        else if (!strcmp(a, "--tile") || !strcmp(a, "--block")) {
            /* the device may come later on the line: parse after the loop */
            o.have_block = i + 1;
            cli_value(argc, argv, &i);
        } else cli_error("run: unknown option '%s' (see fdtdbench run --help)", a);
    }
    if (o.have_block) parse_block(argv[o.have_block - 1], argv[o.have_block], o.device, o.block);
    struct session s;
    session_open(&s, o.device);
    check_options(&o, &s);
    struct run_config c = {.scheme = cli_scheme(scheme), .component = component, .precision = o.precision,
                           .coef = o.coef, .device = o.device, .variant = o.variant ? o.variant : default_variant(o.device),
                           .grid = {o.grid[0], o.grid[1], o.grid[2]}, .threads = o.threads, .reps = o.reps,
                           .nodes = o.nodes};
    if (o.have_block) memcpy(c.block, o.block, sizeof c.block);
    else default_launch(&s, &c);
    struct run_result r;
    char why[512];
    if (run_fits(&c, &s.desc, why, sizeof why)) cli_error("%s", why);
    session_bandwidth(&s, o.threads);
    if (measure(s.b, &c, &s.bw, &s.desc, &r, why, sizeof why)) cli_error("%s", why);
    if (o.csv) {
        printf("%s\n", RESULT_COLUMNS);
        results_row(stdout, "run", &c, &r, &s.bw, &s.desc, -1);
    } else {
        session_print(&s, stdout);
        print_result(&s, &c, &r);
    }
    return 0;
}

/* ---- sweep ------------------------------------------------------------------------ */

static const char *const sweep_help =
    "usage: fdtdbench sweep [OPTIONS]\n"
    "Verifies and times every combination of the lists given, writing one CSV row each to\n"
    "RESULTS/<machine>/NAME-<date>.csv (never over an earlier file). Lists are comma-separated.\n"
    "  --device cpu|gpu              (cpu)\n"
    "  --schemes LIST|all            (all)\n"
    "  --components LIST|all         (hx)\n"
    "  --grids LIST                  e.g. 64,128,300,160x160x640 (300)\n"
    "  --tiles LIST                  CPU tiles JxK (whole rows of one plane)\n"
    "  --blocks LIST                 GPU blocks BXxBYxBZ (tuned or Table 3 shape)\n"
    "  --threads LIST                CPU thread counts (all)\n"
    "  --precision, --coef, --variant, --nodes, --reps   as for run\n"
    "  --results DIR                 (results)\n"
    "  --name NAME                   file name stem and the rows' table column (sweep)\n";

enum { MAX_LIST = 64 };

int cmd_sweep(int argc, char **argv)
{
    struct options o;
    default_options(&o);
    char *schemes[MAX_LIST], *components[MAX_LIST], *grids[MAX_LIST], *blocks[MAX_LIST], *threads[MAX_LIST];
    int ns = 0, nc = 1, ng = 1, nb = 0, nt = 1;
    char component_default[] = "hx", grid_default[] = "300", thread_default[] = "0";
    components[0] = component_default, grids[0] = grid_default, threads[0] = thread_default;
    const char *dir = "results", *name = "sweep";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { fputs(sweep_help, stdout); return 0; }
        else if (parse_common(&o, argc, argv, &i)) continue;
        else if (!strcmp(a, "--device")) o.device = cli_device(cli_value(argc, argv, &i));
        else if (!strcmp(a, "--schemes")) ns = split_list((char *)cli_value(argc, argv, &i), schemes, MAX_LIST);
        else if (!strcmp(a, "--components")) nc = split_list((char *)cli_value(argc, argv, &i), components, MAX_LIST);
        else if (!strcmp(a, "--grids")) ng = split_list((char *)cli_value(argc, argv, &i), grids, MAX_LIST);
        else if (!strcmp(a, "--tiles") || !strcmp(a, "--blocks")) nb = split_list((char *)cli_value(argc, argv, &i), blocks, MAX_LIST);
        else if (!strcmp(a, "--threads")) nt = split_list((char *)cli_value(argc, argv, &i), threads, MAX_LIST);
        else if (!strcmp(a, "--results")) dir = cli_value(argc, argv, &i);
        else if (!strcmp(a, "--name")) name = cli_value(argc, argv, &i);
        else cli_error("sweep: unknown option '%s' (see fdtdbench sweep --help)", a);
    }
    /* Check every value before measuring anything. */
    const struct scheme *sl[MAX_LIST];
    int cl[MAX_LIST], gl[MAX_LIST][3], bl[MAX_LIST][3], tl[MAX_LIST];
    if (ns == 0 || (ns == 1 && !strcmp(schemes[0], "all"))) {
        ns = scheme_count();
        for (int i = 0; i < ns; i++) sl[i] = scheme_at(i);
    } else {
        for (int i = 0; i < ns; i++) sl[i] = cli_scheme(schemes[i]);
    }
    if (nc == 1 && !strcmp(components[0], "all"))
        for (nc = 0; nc < NCOMPONENTS; nc++) cl[nc] = nc;
    else
        for (int i = 0; i < nc; i++) cl[i] = cli_component(components[i]);
    for (int i = 0; i < ng; i++) cli_triple("--grids", grids[i], 2 * HALO, 100000, gl[i]);
    for (int i = 0; i < nt; i++)
        tl[i] = !strcmp(threads[i], "0") ? 0 : cli_int("--threads", threads[i], 1, max_threads());
    struct session s;
    session_open(&s, o.device);
    for (int i = 0; i < nb; i++) {
        parse_block(o.device == DEV_CPU ? "--tiles" : "--blocks", blocks[i], o.device, bl[i]);
        char why[256];
        if (s.b->check_block(bl[i], why, sizeof why)) cli_error("%s: %s", blocks[i], why);
    }
    int nblocks = nb ? nb : 1, total = ns * nc * ng * nblocks * nt, done = 0, failed = 0;
    struct results_file rf;
    if (results_open(&rf, dir, s.slug, name)) return 1;
    fprintf(stderr, "sweep: %d measurements into %s\n", total, rf.path);
    time_t start = time(NULL);
    for (int t = 0; t < nt; t++) {
        session_bandwidth(&s, tl[t]);
        for (int si = 0; si < ns; si++)
            for (int ci = 0; ci < nc; ci++)
                for (int gi = 0; gi < ng; gi++)
                    for (int bi = 0; bi < nblocks; bi++) {
                        struct run_config c = {.scheme = sl[si], .component = cl[ci], .precision = o.precision,
                                               .coef = o.coef, .device = o.device,
                                               .variant = o.variant ? o.variant : default_variant(o.device),
                                               .grid = {gl[gi][0], gl[gi][1], gl[gi][2]}, .threads = tl[t],
                                               .reps = o.reps, .nodes = o.nodes};
                        if (nb) memcpy(c.block, bl[bi], sizeof c.block);
                        else default_launch(&s, &c);
                        struct run_result r;
                        char why[512];
                        done++;
                        if (measure(s.b, &c, &s.bw, &s.desc, &r, why, sizeof why)) {
                            fprintf(stderr, "[%d/%d] %s %s %dx%dx%d: SKIPPED: %s\n", done, total, c.scheme->name,
                                    component_names[c.component], c.grid[0], c.grid[1], c.grid[2], why);
                            failed++;
                            continue;
                        }
                        results_row(rf.f, name, &c, &r, &s.bw, &s.desc, -1);
                        fflush(rf.f);
                        double elapsed = difftime(time(NULL), start);
                        fprintf(stderr, "[%d/%d] %s %s %dx%dx%d block %dx%dx%d threads %d: %.4g MCells/s, %.1f%% bw (ETA %.0f s)\n",
                                done, total, c.scheme->name, component_names[c.component], c.grid[0], c.grid[1],
                                c.grid[2], c.block[0], c.block[1], c.block[2], r.threads, r.mcells_per_s, r.pct_bw,
                                elapsed / done * (total - done));
                    }
    }
    if (failed == total) { /* nothing measured: leave no empty file behind */
        results_abort(&rf);
        cli_error("sweep: no measurement succeeded, nothing written");
    }
    if (results_close(&rf)) return 1;
    fprintf(stderr, "sweep: wrote %d rows to %s%s\n", total - failed, rf.path,
            failed ? " (some skipped: see above)" : "");
    return failed ? 1 : 0;
}

/* ---- probe ------------------------------------------------------------------------ */

int cmd_probe(int argc, char **argv)
{
    int device = DEV_CPU, threads = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            puts("usage: fdtdbench probe [--device cpu|gpu] [--threads T]\n"
                 "The device's own memory bandwidth: CPU, STREAM copy and triad on the pinned OpenMP\n"
                 "threads; GPU, a copy kernel and cudaMemcpy device to device. Bytes read plus written.");
            return 0;
        } else if (!strcmp(argv[i], "--device")) device = cli_device(cli_value(argc, argv, &i));
        else if (!strcmp(argv[i], "--threads")) threads = cli_int("--threads", cli_value(argc, argv, &i), 1, max_threads());
        else cli_error("probe: unknown option '%s' (see fdtdbench probe --help)", argv[i]);
    }
    struct session s;
    session_open(&s, device);
    session_bandwidth(&s, threads);
    session_print(&s, stdout);
    return 0;
}
