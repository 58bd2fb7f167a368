/* fdtdbench run, sweep and probe: verify and time kernels on a device. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "measure.h"
#include "metrics.h"
#include "session.h"

static const char *const run_usage =
    "usage: fdtdbench run [OPTIONS]\n"
    "Verifies one kernel against the double-precision reference, then times it.\n"
    "Defaults are the paper's protocol: the reference scheme, hx, a 300^3 interior, f32, array\n"
    "coefficients.\n";

/* Options common to run and sweep. */
struct options {
    int device, precision, coef, reps, csv, threads, nodes, rows, stages;
    int grid[3];
    const char *variant;
    char schemes_help[160];
};

static void default_options(struct options *o)
{
    memset(o, 0, sizeof *o);
    o->grid[0] = o->grid[1] = o->grid[2] = 300;
    o->reps = 5;
    snprintf(o->schemes_help, sizeof o->schemes_help, "%s", scheme_names());
}

static int max_threads(void) { return omp_get_num_procs(); }

/* A CPU tile JxK (rows by planes; x lines stay whole for SIMD) or a GPU block BXxBYxBZ, each size
 * at most the largest grid: check_extent then bounds it by the real one. */
static void parse_block(const char *opt, const char *v, int device, int block[3])
{
    if (device == DEV_CPU) {
        int jk[2];
        if (cli_sizes(v, 1, CLI_GRID_MAX, jk, 2) != 2)
            cli_error("%s: '%s' is not JxK (rows x planes, each a whole number from 1 to %d)", opt, v, CLI_GRID_MAX);
        block[0] = 0, block[1] = jk[0], block[2] = jk[1];
    } else {
        cli_triple(opt, v, 1, CLI_GRID_MAX, block);
    }
}

/* The reference scheme (its spec's 'reference' line), else the first. */
static const struct scheme *default_scheme(void)
{
    return scheme_reference() ? scheme_reference() : scheme_at(0);
}

/* Everything about c checked before any probe or allocation: bad input ends here, with exit 2. */
static void check_config(const struct session *s, const struct run_config *c, const char *what)
{
    char why[512];
    if (measure_check(s->b, c, &s->desc, why, sizeof why)) cli_error("%s%s", what, why);
}

static const char *default_variant(int device) { return device == DEV_CPU ? "plain" : "baseline"; }

/* The run's settings on one line, then each measured column of metrics.h with its unit. */
static void print_result(const struct session *s, const struct run_config *c, const struct run_result *r)
{
    printf("%s %s %s %s %s %s %dx%dx%d %s %dx%dx%d", c->scheme->name, component_names[c->component],
           device_names[c->device], precision_names[c->precision], coef_names[c->coef], c->variant, c->grid[0],
           c->grid[1], c->grid[2], c->device == DEV_CPU ? "tile" : "block", c->block[0], c->block[1], c->block[2]);
    if (c->device == DEV_CPU) printf(" threads %d", r->threads);
    if (c->nodes > 1) printf(" nodes %d", c->nodes);
    if (c->rows > 1) printf(" rows %d", c->rows);
    if (c->stages > 0) printf(" stages %d", c->stages);
    printf(": verified\n");
    struct record m = {"run", c, r, &s->desc, NAN};
    metrics_text(stdout, &update_metrics, &m);
}

int cmd_run(int argc, char **argv)
{
    struct options o;
    const char *scheme = default_scheme()->name, *component = "hx", *tile = NULL, *block = NULL;
    default_options(&o);
    char scheme_help[200];
    snprintf(scheme_help, sizeof scheme_help, "%s (%s)", o.schemes_help, scheme);
    const struct cli_option opts[] = {
        CLI_OPT_DEVICE(&o.device),
        {"scheme", CLI_TEXT, "NAME", scheme_help, &scheme, 0, 0, NULL, 0},
        {"component", CLI_TEXT, "C", "hx hy hz ex ey ez (hx)", &component, 0, 0, NULL, 0},
        {"grid", CLI_GRID, "NXxNYxNZ | N", "interior cells, each at least 4 (300)", o.grid, CLI_GRID_MIN, CLI_GRID_MAX, NULL, 0},
        {"threads", CLI_INT, "T", "CPU threads, 1 to the CPUs online (all)", &o.threads, 1, max_threads(), NULL, 0},
        {"tile", CLI_TEXT, "JxK", "CPU tile of J rows by K planes, at most the grid (whole rows of one plane)", &tile, 0, 0, NULL, 0},
        {"block", CLI_TEXT, "BXxBYxBZ", "GPU thread block (the tuned one, else the paper's Table 3 shape)", &block, 0, 0, NULL, 0},
        CLI_OPT_NODES(&o.nodes),
        CLI_OPT_ROWS(&o.rows),
        CLI_OPT_STAGES(&o.stages),
        CLI_OPT_PRECISION(&o.precision),
        CLI_OPT_COEF(&o.coef),
        CLI_OPT_VARIANT(&o.variant),
        CLI_OPT_REPS(&o.reps),
        {"csv", CLI_FLAG, NULL, "print a CSV header and row instead of text", &o.csv, 0, 0, NULL, 0},
    };
    cli_parse(run_usage, opts, CLI_NOPTS(opts), argc, argv);
    if (tile && block) cli_error("run: give --tile (CPU) or --block (GPU), not both");
    struct run_config c = {.scheme = cli_scheme(scheme), .component = cli_component(component),
                           .precision = o.precision, .coef = o.coef, .device = o.device,
                           .variant = o.variant ? o.variant : default_variant(o.device),
                           .grid = {o.grid[0], o.grid[1], o.grid[2]}, .threads = o.threads, .reps = o.reps,
                           .nodes = o.nodes, .rows = o.rows, .stages = o.stages};
    struct session s;
    session_open(&s, o.device);
    if (tile || block) parse_block(tile ? "--tile" : "--block", tile ? tile : block, o.device, c.block);
    default_launch(&s, &c);
    check_config(&s, &c, "");
    prepare_runs(s.b, &c, 1); /* compiled before the probe: a kernel that fails to compile wastes no time */
    if (!cache_resident(&c, &s.desc)) session_bandwidth(&s, o.threads); /* else no memory figure to pair */
    struct run_result r;
    char why[512];
    if (measure(s.b, &c, &s.desc, &r, why, sizeof why)) cli_fail("%s", why);
    if (o.csv) {
        metrics_csv_header(stdout, &update_metrics);
        results_row(stdout, "run", &c, &r, &s.desc, -1);
    } else {
        session_print(&s, stdout);
        print_result(&s, &c, &r);
    }
    return 0;
}

/* ---- sweep ------------------------------------------------------------------------ */

static const char *const sweep_usage =
    "usage: fdtdbench sweep [OPTIONS]\n"
    "Verifies and times every combination of the lists given, writing one CSV row each to\n"
    "RESULTS/<machine>/NAME-<date>.csv (never over an earlier file). Lists are comma-separated.\n";

enum { MAX_LIST = 64 };

/* One combination of a sweep; block NULL for the default launch. */
static struct run_config sweep_config(const struct session *s, const struct options *o, const struct scheme *scheme,
                                      int component, const int grid[3], const int block[3], int threads)
{
    struct run_config c = {.scheme = scheme, .component = component, .precision = o->precision, .coef = o->coef,
                           .device = o->device, .variant = o->variant ? o->variant : default_variant(o->device),
                           .grid = {grid[0], grid[1], grid[2]}, .threads = threads, .reps = o->reps,
                           .nodes = o->nodes, .rows = o->rows, .stages = o->stages};
    if (block) memcpy(c.block, block, sizeof c.block);
    default_launch(s, &c);
    return c;
}

int cmd_sweep(int argc, char **argv)
{
    struct options o;
    default_options(&o);
    char *schemes[MAX_LIST], *components[MAX_LIST], *grids[MAX_LIST], *blocks[MAX_LIST], *threads[MAX_LIST];
    int ns = 0, nc = 1, ng = 1, nb = 0, nt = 1;
    char component_default[] = "hx", grid_default[] = "300", thread_default[] = "0";
    components[0] = component_default, grids[0] = grid_default, threads[0] = thread_default;
    const char *dir = "results", *name = "sweep";
    char *scheme_list = NULL, *component_list = NULL, *grid_list = NULL, *tile_list = NULL, *block_list = NULL,
         *thread_list = NULL;
    char scheme_help[200];
    snprintf(scheme_help, sizeof scheme_help, "%s, or all (all)", o.schemes_help);
    const struct cli_option opts[] = {
        CLI_OPT_DEVICE(&o.device),
        {"schemes", CLI_TEXT, "LIST|all", scheme_help, &scheme_list, 0, 0, NULL, 0},
        {"components", CLI_TEXT, "LIST|all", "hx hy hz ex ey ez (hx)", &component_list, 0, 0, NULL, 0},
        {"grids", CLI_TEXT, "LIST", "e.g. 64,128,300,160x160x640 (300)", &grid_list, 0, 0, NULL, 0},
        {"tiles", CLI_TEXT, "LIST", "CPU tiles JxK (whole rows of one plane)", &tile_list, 0, 0, NULL, 0},
        {"blocks", CLI_TEXT, "LIST", "GPU blocks BXxBYxBZ (tuned or Table 3 shape)", &block_list, 0, 0, NULL, 0},
        {"threads", CLI_TEXT, "LIST", "CPU thread counts (all)", &thread_list, 0, 0, NULL, 0},
        CLI_OPT_PRECISION(&o.precision),
        CLI_OPT_COEF(&o.coef),
        CLI_OPT_VARIANT(&o.variant),
        CLI_OPT_NODES(&o.nodes),
        CLI_OPT_ROWS(&o.rows),
        CLI_OPT_STAGES(&o.stages),
        CLI_OPT_REPS(&o.reps),
        CLI_OPT_RESULTS(&dir),
        {"name", CLI_STEM, "NAME", "file name stem and the rows' table column (sweep)", &name, 0, 0, NULL, 0},
    };
    cli_parse(sweep_usage, opts, CLI_NOPTS(opts), argc, argv);
    if (tile_list && block_list) cli_error("sweep: give --tiles (CPU) or --blocks (GPU), not both");
    if (scheme_list) ns = split_list("schemes", scheme_list, schemes, MAX_LIST);
    if (component_list) nc = split_list("components", component_list, components, MAX_LIST);
    if (grid_list) ng = split_list("grids", grid_list, grids, MAX_LIST);
    if (tile_list || block_list)
        nb = split_list(tile_list ? "tiles" : "blocks", tile_list ? tile_list : block_list, blocks, MAX_LIST);
    if (thread_list) nt = split_list("threads", thread_list, threads, MAX_LIST);
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
    for (int i = 0; i < ng; i++) cli_triple("--grids", grids[i], CLI_GRID_MIN, CLI_GRID_MAX, gl[i]);
    for (int i = 0; i < nt; i++)
        tl[i] = !strcmp(threads[i], "0") ? 0 : cli_int("--threads", threads[i], 1, max_threads());
    for (int i = 0; i < nb; i++) parse_block(tile_list ? "--tiles" : "--blocks", blocks[i], o.device, bl[i]);
    struct session s;
    session_open(&s, o.device);
    /* Every combination's launch against its grid, the kernel's existence and memory, and whether any
     * measures memory (else no probe: nothing to pair it with); then every one's kernel compiled, in
     * parallel. */
    int nblocks = nb ? nb : 1, total = ns * nc * ng * nblocks * nt, done = 0, failed = 0, nconf = 0, beyond_cache = 0;
    struct run_config *conf = malloc(sizeof *conf * (size_t)(ns * nc * ng * nblocks));
    if (!conf) cli_fail("out of memory");
    for (int si = 0; si < ns; si++)
        for (int ci = 0; ci < nc; ci++)
            for (int gi = 0; gi < ng; gi++)
                for (int bi = 0; bi < nblocks; bi++) {
                    struct run_config c = sweep_config(&s, &o, sl[si], cl[ci], gl[gi], nb ? bl[bi] : NULL, 0);
                    char what[160];
                    snprintf(what, sizeof what, "sweep: %s %s grid %s%s%s: ", sl[si]->name, component_names[cl[ci]],
                             grids[gi], nb ? (tile_list ? " tile " : " block ") : "", nb ? blocks[bi] : "");
                    check_config(&s, &c, what);
                    beyond_cache |= !cache_resident(&c, &s.desc);
                    conf[nconf++] = c;
                }
    prepare_runs(s.b, conf, nconf);
    free(conf);
    struct results_file rf;
    if (results_open(&rf, dir, s.slug, name)) return 2;
    fprintf(stderr, "sweep: %d measurements into %s\n", total, rf.path);
    time_t start = time(NULL);
    for (int t = 0; t < nt; t++) {
        if (beyond_cache) session_bandwidth(&s, tl[t]);
        for (int si = 0; si < ns; si++)
            for (int ci = 0; ci < nc; ci++)
                for (int gi = 0; gi < ng; gi++)
                    for (int bi = 0; bi < nblocks; bi++) {
                        struct run_config c = sweep_config(&s, &o, sl[si], cl[ci], gl[gi], nb ? bl[bi] : NULL, tl[t]);
                        struct run_result r;
                        char why[512];
                        done++;
                        if (measure(s.b, &c, &s.desc, &r, why, sizeof why)) {
                            fprintf(stderr, "[%d/%d] %s %s %dx%dx%d: SKIPPED: %s\n", done, total, c.scheme->name,
                                    component_names[c.component], c.grid[0], c.grid[1], c.grid[2], why);
                            failed++;
                            continue;
                        }
                        results_row(rf.f, name, &c, &r, &s.desc, -1);
                        results_check(&rf);
                        struct record m = {name, &c, &r, &s.desc, NAN};
                        double elapsed = difftime(time(NULL), start);
                        char bw[96];
                        fprintf(stderr, "[%d/%d] %s %s %dx%dx%d block %dx%dx%d threads %d: %.4g MCells/s, %s (ETA %.0f s)\n",
                                done, total, c.scheme->name, component_names[c.component], c.grid[0], c.grid[1],
                                c.grid[2], c.block[0], c.block[1], c.block[2], r.threads,
                                metric_num(METRIC_mcells_per_s, &m),
                                bw_text(metric_num(METRIC_pct_bw, &m), metric_num(METRIC_pct_bw_spread, &m),
                                        r.clock_held_pct, bw, sizeof bw),
                                elapsed / done * (total - done));
                    }
    }
    if (failed == total) { /* nothing measured: leave no empty file (or folder) behind */
        results_abort(&rf);
        cli_fail("sweep: no measurement succeeded, nothing written");
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
    const struct cli_option opts[] = {
        CLI_OPT_DEVICE(&device),
        {"threads", CLI_INT, "T", "CPU threads, 1 to the CPUs online (all)", &threads, 1, max_threads(), NULL, 0},
    };
    cli_parse("usage: fdtdbench probe [OPTIONS]\n"
              "The device's own memory bandwidth: CPU, STREAM copy and triad on the pinned OpenMP\n"
              "threads; GPU, a copy kernel and cudaMemcpy device to device. Bytes read plus written.\n",
              opts, CLI_NOPTS(opts), argc, argv);
    struct session s;
    session_open(&s, device);
    session_bandwidth(&s, threads);
    session_print(&s, stdout);
    return 0;
}
