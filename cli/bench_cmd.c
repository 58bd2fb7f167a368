/* fdtdbench bench: the paper's tables measured on this machine, beside its figures.
 * CPU: Table 5 (one thread and all threads), uniform coefficients, grid sizes.
 * GPU (when there is one): Tables 2, 3 and 4, uniform coefficients, grid sizes.
 * Every row is verified before it is timed; CSV and Markdown go to results/<machine>/. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cost.h"
#include "measure.h"
#include "metrics.h"
#include "paper.h"
#include "report.h"
#include "session.h"
#include "step_bench.h"
#include "tuned.h"

static const char *const help =
    "usage: fdtdbench bench [OPTIONS]\n"
    "Reproduces the paper's throughput tables on this machine (Hx, 300^3, f32, array coefficients):\n"
    "CPU Table 5 on one thread and on all threads; GPU Tables 2-4 when a GPU is present (all).\n"
    "Also uniform coefficients, all six components and f64 (GPU: every component in f32 and f64 at\n"
    "300^3 and 512^3, in each scheme's fastest variant there, f64 in its fastest f64 one by the tuned\n"
    "file; CPU: all six in f32 and Hx in f64, unless --quick), and a grid-size sweep. Where 300^3\n"
    "fits in the last-level cache (GPU: L2), the headline tables add the smallest cube beyond 4x\n"
    "that cache.\n"
    "Prints Markdown tables and saves them with the CSV under RESULTS/<machine>/bench-<date>.{csv,md}.\n"
    "Then every scheme's full time step (fdtdbench step, each storage) in step-<date>.{csv,md}, and\n"
    "where there are several GPUs, the step split over 1, 2, 4, 8 ... of them (halo planes through\n"
    "NCCL), weak and strong scaling, in steps/scaling-<date>.{csv,md}.\n"
    "--quick: fewer sizes, 3 samples. --tables: only the tables named (the CSV's table column; a name\n"
    "stands for every table it begins: table5 for both thread counts), and no full step; weak and\n"
    "strong are the scaling tables (alone: nothing else is measured).\n";

/* A row measured already: a table that asks for the same settings again writes it under its own
 * name rather than measuring it twice (on the CPU the sizes table's 300^3 rows and the components
 * table's Hx rows are Table 5's all-threads rows; on a GPU the components table's Hx rows are
 * sizes rows at 512^3). */
struct measured {
    struct run_config c;
    struct run_result r;
};
enum { MAX_MEASURED = 512 };

/* --tables: the names given, each standing for every table it begins. */
enum { MAX_TABLE_NAMES = 16 };
struct table_names {
    int n;
    const char *name[MAX_TABLE_NAMES];
    int len[MAX_TABLE_NAMES];
};

struct bench {
    struct session s;
    struct results_file rf;
    int reps, quick, failures, nmeasured, reused;
    const struct table_names *tables; /* --tables, or NULL for all */
    struct measured measured[MAX_MEASURED];
};

static int same_run(const struct run_config *a, const struct run_config *b)
{
    return a->scheme == b->scheme && a->component == b->component && a->precision == b->precision &&
           a->coef == b->coef && a->device == b->device && !strcmp(a->variant, b->variant) &&
           !memcmp(a->grid, b->grid, sizeof a->grid) && !memcmp(a->block, b->block, sizeof a->block) &&
           a->threads == b->threads && a->reps == b->reps && a->nodes == b->nodes && a->rows == b->rows &&
           a->stages == b->stages;
}

/* Measures c, or takes the result of a row with the same settings; 0, or -1 with why. */
static int measure_once(struct bench *b, const struct run_config *c, struct run_result *r, char *why, size_t n)
{
    for (int i = 0; i < b->nmeasured; i++)
        if (same_run(&b->measured[i].c, c)) {
            *r = b->measured[i].r;
            b->reused++;
            return 0;
        }
    if (measure(b->s.b, c, &b->s.desc, r, why, n)) return -1;
    if (b->nmeasured < MAX_MEASURED) b->measured[b->nmeasured].c = *c, b->measured[b->nmeasured++].r = *r;
    return 0;
}

/* Every table bench writes (the CSV's table column), for --tables to be checked against. */
static const char *const bench_tables[] = {"table2", "table4",     "table5-1thread", "table5-allthreads",
                                           "incache", "uniform",   "components",     "f64",
                                           "sizes",   SCALING_WEAK, SCALING_STRONG};

/* --tables' value split at its commas into t, each name checked against bench_tables: an error
 * for one that begins none (an empty one too). */
static void parse_tables(const char *arg, struct table_names *t)
{
    enum { NTABLES = sizeof bench_tables / sizeof *bench_tables };
    for (const char *p = arg;;) {
        const int len = (int)strcspn(p, ",");
        int known = 0;
        for (int i = 0; len && i < NTABLES; i++) known |= !strncmp(p, bench_tables[i], len);
        if (!known) {
            char list[256] = "";
            for (int i = 0; i < NTABLES; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", bench_tables[i]);
            cli_error("--tables: '%.*s' names no table (known: %s; a name stands for every table it begins)", len, p,
                      list);
        }
        if (t->n == MAX_TABLE_NAMES) cli_error("--tables: more than %d names", MAX_TABLE_NAMES);
        t->name[t->n] = p, t->len[t->n++] = len;
        if (!p[len]) return;
        p += len + 1;
    }
}

/* 1 if table is one bench was asked for (--tables). */
static int wanted(const struct bench *b, const char *table)
{
    if (!b->tables) return 1;
    for (int i = 0; i < b->tables->n; i++)
        if (!strncmp(b->tables->name[i], table, b->tables->len[i])) return 1;
    return 0;
}

/* 1 if --tables names the scaling tables only (weak, strong, in full): no single-component table. */
static int scaling_only(const struct bench *b)
{
    if (!b->tables) return 0;
    for (int i = 0; i < b->tables->n; i++) {
        const char *t = b->tables->name[i];
        const int len = b->tables->len[i];
        if (!(len == (int)strlen(SCALING_WEAK) && !strncmp(t, SCALING_WEAK, len)) &&
            !(len == (int)strlen(SCALING_STRONG) && !strncmp(t, SCALING_STRONG, len)))
            return 0;
    }
    return 1;
}

/* Measures and records one row; its MCells/s, or -1 if it failed. */
static double measure_row(struct bench *b, const char *table, struct run_config c, double paper)
{
    struct run_result r;
    char why[512];
    if (!wanted(b, table)) return -1;
    c.reps = b->reps;
    if (c.device == DEV_CPU && c.threads <= 0) c.threads = omp_get_num_procs(); /* as cpu_set_threads */
    fprintf(stderr, "  %-18s %-7s %s %s %-8s %dx%dx%d %s %dx%dx%d ... ", table, c.scheme->name,
            component_names[c.component], coef_names[c.coef], c.variant, c.grid[0], c.grid[1], c.grid[2],
            c.device == DEV_CPU ? "tile" : "block", c.block[0], c.block[1], c.block[2]);
    if (measure_once(b, &c, &r, why, sizeof why)) {
        fprintf(stderr, "FAILED: %s\n", why);
        b->failures++;
        return -1;
    }
    struct record m = {table, &c, &r, &b->s.desc, paper < 0 ? NAN : paper};
    char bw[96];
    fprintf(stderr, "%.4g MCells/s, %s\n", metric_num(METRIC_mcells_per_s, &m),
            bw_text(metric_num(METRIC_pct_bw, &m), metric_num(METRIC_pct_bw_spread, &m), r.clock_held_pct, bw,
                    sizeof bw));
    metrics_csv_row(b->rf.f, &update_metrics, &m);
    results_check(&b->rf);
    return metric_num(METRIC_mcells_per_s, &m);
}

static struct run_config hx_config(const struct scheme *s, enum device d, const char *variant, int coef, int grid)
{
    struct run_config c = {.scheme = s, .component = HX, .precision = F32, .coef = coef, .device = d,
                           .variant = variant, .grid = {grid, grid, grid}, .block = {0, 0, 1}};
    return c;
}

/* A headline row, and where the paper's grid is cache-resident here for some scheme (a CPU with
 * a large last-level cache, a GPU with a large L2), the same row on the smallest cube that
 * measures memory instead (memory_cube), so that every machine's table has a memory figure. */
static double measure_headline(struct bench *b, const char *table, struct run_config c, double paper)
{
    double mcells = measure_row(b, table, c, paper);
    int n = memory_cube(c, &b->s.desc);
    if (!n) return mcells;
    c.grid[0] = c.grid[1] = c.grid[2] = n;
    measure_row(b, table, c, -1);
    return mcells;
}

/* Beyond the paper's Hx: every one of the six components, and double precision, for each scheme
 * in the variant given (on the GPU, the one that was fastest at the rows' grid in this run); f64 in
 * variant_f64's, every component where f64_components (the GPU's: issue 24 asks each at its limit),
 * else Hx alone. */
static void measure_components_f64(struct bench *b, const char *const *variant, const char *const *variant_f64,
                                   int grid, int threads, int f64_components)
{
    for (int i = 0; i < scheme_count(); i++)
        for (int comp = 0; comp < NCOMPONENTS; comp++) {
            struct run_config c = hx_config(scheme_at(i), b->s.device, variant[i], COEF_ARRAY, grid);
            c.component = comp, c.threads = threads;
            default_launch(&b->s, &c);
            measure_row(b, "components", c, -1);
        }
    for (int i = 0; i < scheme_count(); i++)
        for (int comp = 0; comp < (f64_components ? NCOMPONENTS : 1); comp++) {
            struct run_config c = hx_config(scheme_at(i), b->s.device, variant_f64[i], COEF_ARRAY, grid);
            c.precision = F64, c.component = comp, c.threads = threads;
            default_launch(&b->s, &c);
            measure_row(b, "f64", c, -1);
        }
}

/* In cache: c's grid as 128 x n x n with n the largest (at least 4) whose arrays fit in three
 * quarters of the level-2 caches of c's threads (one core each), halo planes included: long rows
 * of one vector loop each, and data that stay in each core's L2 between launches. 0 if the
 * device does not say its L2. */
static int incache_grid(struct run_config *c, const struct device_desc *d)
{
    const double budget = 0.75 * (double)d->core_cache_bytes * (c->threads > 0 ? c->threads : d->max_threads);
    if (!d->core_cache_bytes) return 0;
    int n = 4;
    for (c->grid[0] = 128; n < 128; n++) {
        c->grid[1] = c->grid[2] = n + 1;
        if ((double)run_bytes(c) > budget) break;
    }
    c->grid[1] = c->grid[2] = n;
    return 1;
}

/* The CPU's grid-size sweep (the sizes table), in cells along each side. */
static const int cpu_sizes[] = {32, 64, 128, 200, 300};
enum { NCPU_SIZES = sizeof cpu_sizes / sizeof cpu_sizes[0] };

/* Every kernel the single-component tables run, compiled first on every core: a CPU kernel once,
 * except one compiled for each grid's strides (trait strides: regz, regza), which the CPU tables
 * time at the paper's grid and, in Hx f32 arrays, at the sizes table's and the in-cache table's
 * too; a GPU kernel's launch at the two grids its tables tune for (the paper's and 512^3; the sizes
 * between and beyond take the nearer's), tuned, else declared. A new machine then spends seconds
 * compiling, not minutes, and never between a probe and its timing. */
static void precompile(struct bench *b, enum device d)
{
    static const int grids[] = {PAPER_GRID, 512};
    const struct kernel_entry *t = d == DEV_CPU ? cpu_kernel_table : gpu_kernel_table;
    const int len = d == DEV_CPU ? cpu_kernel_table_len : gpu_kernel_table_len, ngrids = d == DEV_CPU ? 1 : 2;
    const int threads[2] = {1, omp_get_num_procs()};
    const double t0 = omp_get_wtime();
    struct run_config *c = malloc(sizeof *c * (size_t)len * (2 + NCPU_SIZES + 2));
    int n = 0;
    if (!c) fprintf(stderr, "fdtdbench: out of memory\n"), exit(2);
    for (int i = 0; i < len; i++) {
        const struct kernel_entry *k = &t[i];
        const struct run_config base = {.scheme = scheme_find(k->scheme), .component = k->component,
                                         .precision = k->precision, .coef = k->coef, .device = d,
                                         .variant = k->variant};
        for (int g = 0; g < ngrids; g++) {
            c[n] = base;
            c[n].grid[0] = c[n].grid[1] = c[n].grid[2] = grids[g];
            n++;
        }
        if (!k->traits.strides || k->component != HX || k->precision != F32 || k->coef != COEF_ARRAY) continue;
        for (int g = 0; g < NCPU_SIZES; g++)
            if (cpu_sizes[g] != PAPER_GRID) c[n] = base, c[n].grid[0] = c[n].grid[1] = c[n].grid[2] = cpu_sizes[g], n++;
        for (int q = 0; q < (threads[1] > 1 ? 2 : 1); q++)
            if (c[n] = base, c[n].threads = threads[q], incache_grid(&c[n], &b->s.desc)) n++;
    }
    for (int i = 0; i < n; i++) default_launch(&b->s, &c[i]);
    prepare_runs(b->s.b, c, n);
    free(c);
    fprintf(stderr, "bench: every %s kernel%s compiled or read from the cache in %.1f s\n", device_names[d],
            d == DEV_GPU ? "'s launch" : "", omp_get_wtime() - t0);
}

static void bench_cpu(struct bench *b)
{
    const char *vars[8];
    int nv = kernel_variants(DEV_CPU, vars, 8), all = omp_get_num_procs();
    int thread_counts[2] = {1, all};
    precompile(b, DEV_CPU);
    for (int t = 0; t < (all > 1 ? 2 : 1); t++) {
        session_bandwidth(&b->s, thread_counts[t]);
        const char *table = thread_counts[t] == 1 ? "table5-1thread" : "table5-allthreads";
        for (int v = 0; v < nv; v++)
            for (int i = 0; i < scheme_count(); i++) {
                struct run_config c = hx_config(scheme_at(i), DEV_CPU, vars[v], COEF_ARRAY, PAPER_GRID);
                c.threads = thread_counts[t];
                default_launch(&b->s, &c); /* the tuned tile and nodes (tune --device cpu), else the declared */
                const struct paper_scheme *p = paper_find(c.scheme->name);
                measure_headline(b, table, c, p ? p->cpu_mcells : -1);
            }
    }
    /* Each variant's loop with the data in cache: updates per cycle per core (updates_per_cycle),
     * what its loads, instructions or latency allow where memory does not bound it. */
    for (int t = 0; t < (all > 1 ? 2 : 1); t++) {
        session_bandwidth(&b->s, thread_counts[t]);
        for (int v = 0; v < nv; v++)
            for (int i = 0; i < scheme_count(); i++) {
                struct run_config c = hx_config(scheme_at(i), DEV_CPU, vars[v], COEF_ARRAY, PAPER_GRID);
                c.threads = thread_counts[t];
                if (!incache_grid(&c, &b->s.desc)) continue;
                default_launch(&b->s, &c);
                measure_row(b, "incache", c, -1);
            }
    }
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++) {
            struct run_config c = hx_config(scheme_at(i), DEV_CPU, vars[v], COEF_UNIFORM, PAPER_GRID);
            default_launch(&b->s, &c);
            measure_headline(b, "uniform", c, -1);
        }
    const char *plain[MAX_SCHEMES];
    for (int i = 0; i < scheme_count(); i++) plain[i] = vars[0];
    if (!b->quick) measure_components_f64(b, plain, plain, PAPER_GRID, all, 0);
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++)
            for (int g = b->quick ? 2 : 0; g < NCPU_SIZES; g++) {
                struct run_config c = hx_config(scheme_at(i), DEV_CPU, vars[v], COEF_ARRAY, cpu_sizes[g]);
                default_launch(&b->s, &c);
                measure_row(b, "sizes", c, -1);
            }
}

static void bench_gpu(struct bench *b)
{
    const char *vars[8];
    int nv = kernel_variants(DEV_GPU, vars, 8);
    precompile(b, DEV_GPU);
    session_bandwidth(&b->s, 0);
    for (int i = 0; i < 6 && scheme_reference(); i++) { /* Table 2: Yee against block shape, the paper's method */
        struct run_config c = hx_config(scheme_reference(), DEV_GPU, "baseline", COEF_ARRAY, PAPER_GRID);
        memcpy(c.block, paper_table2[i].block, sizeof c.block);
        measure_row(b, "table2", c, paper_table2[i].mcells);
    }
    /* each scheme's fastest variant at the paper's grid and at 512^3 in this run, for the
     * components and f64 tables there */
    const char *fastest[2][MAX_SCHEMES] = {{0}};
    double best[2][MAX_SCHEMES] = {{0}};
    for (int v = 0; v < nv; v++) /* Tables 3 and 4: each scheme at its best (tuned) shape */
        for (int i = 0; i < scheme_count(); i++) {
            struct run_config c = hx_config(scheme_at(i), DEV_GPU, vars[v], COEF_ARRAY, PAPER_GRID);
            default_launch(&b->s, &c);
            const struct paper_scheme *p = paper_find(c.scheme->name);
            const double mcells = measure_headline(b, "table4", c, p ? p->gpu_mcells : -1);
            if (mcells > best[0][i]) fastest[0][i] = vars[v], best[0][i] = mcells;
        }
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++) {
            struct run_config c = hx_config(scheme_at(i), DEV_GPU, vars[v], COEF_UNIFORM, 512);
            default_launch(&b->s, &c);
            measure_headline(b, "uniform", c, -1);
        }
    /* The sizes, then every component at 300^3 and 512^3 in each scheme's fastest variant there
     * (the two grids can rank the variants otherwise: FV24, linear 70%, tile25d 67% at 300^3; 70%
     * and 83% at 512^3), and f64 in its fastest f64 variant by the tuned file, where it has one
     * (S44: linear fastest in f32, tile25d with two rows in f64). */
    static const int sizes[] = {64, 128, 256, 384, 512, 640}, grids[2] = {PAPER_GRID, 512};
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++)
            for (int g = b->quick ? 3 : 0; g < 6; g++) {
                struct run_config c = hx_config(scheme_at(i), DEV_GPU, vars[v], COEF_ARRAY, sizes[g]);
                default_launch(&b->s, &c);
                const double mcells = measure_row(b, "sizes", c, -1);
                if (sizes[g] == 512 && mcells > best[1][i]) fastest[1][i] = vars[v], best[1][i] = mcells;
            }
    for (int g = 0; g < 2; g++) {
        char tuned[2][MAX_SCHEMES][32];
        const char *fastest_f64[MAX_SCHEMES];
        for (int i = 0; i < scheme_count(); i++) {
            const int at[3] = {grids[g], grids[g], grids[g]};
            /* not measured in this run (--tables): the tuned file's fastest there, else the first */
            if (!fastest[g][i])
                fastest[g][i] = tuned_fastest_variant(b->s.slug, scheme_at(i)->name, HX, F32, COEF_ARRAY, at,
                                                      tuned[0][i], sizeof tuned[0][i]) ? vars[0] : tuned[0][i];
            fastest_f64[i] = tuned_fastest_variant(b->s.slug, scheme_at(i)->name, HX, F64, COEF_ARRAY, at, tuned[1][i],
                                                   sizeof tuned[1][i]) ? fastest[g][i] : tuned[1][i];
        }
        measure_components_f64(b, fastest[g], fastest_f64, grids[g], 0, 1);
    }
}

static int run_device(enum device d, const char *dir, int reps, int quick, const struct table_names *tables)
{
    struct bench *b = calloc(1, sizeof *b);
    if (!b) cli_fail("out of memory");
    b->reps = reps, b->quick = quick, b->tables = tables;
    session_open(&b->s, d);
    fprintf(stderr, "bench on the %s: %s\n", device_names[d], b->s.desc.name);
    for (int one = 0; one < (d == DEV_CPU && omp_get_num_procs() > 1 ? 2 : 1); one++) { /* a CPU: all threads, and one */
        char tuned[256];
        session_tuned_path(&b->s, one, tuned, sizeof tuned);
        FILE *tf = fopen(tuned, "r");
        if (tf) fclose(tf);
        else
            fprintf(stderr, "bench: no tuned file for this %s%s (%s): its kernels at their declared launch; `make tune` "
                    "first measures the fastest ones\n", device_names[d], one ? " on one thread" : "", tuned);
    }
    int rc = 0;
    if (!scaling_only(b)) {
        if (results_open(&b->rf, dir, b->s.slug, "bench")) return 2;
        const double t0 = omp_get_wtime();
        double verify0, setup0, timing0, verify, setup, timing; /* the process's: this device's is the difference */
        measure_times(&verify0, &setup0, &timing0);
        if (d == DEV_CPU) bench_cpu(b);
        else bench_gpu(b);
        measure_times(&verify, &setup, &timing);
        fprintf(stderr, "bench: %d rows measured in %.0f s (verifying %.0f s, allocating and filling %.0f s, probing "
                "and timing %.0f s), %d more written again under another table\n", b->nmeasured,
                omp_get_wtime() - t0, verify - verify0, setup - setup0, timing - timing0, b->reused);
        rc = results_close(&b->rf) || report_bench(b->rf.path) ? 1 : 0;
    }
    const char *fastest[MAX_SCHEMES][NCOEF_STORAGES] = {{NULL}};
    if (!tables) rc |= step_bench(&b->s, dir, reps, quick, fastest); /* whole steps beside the single-component tables */
    if (d == DEV_GPU && (wanted(b, SCALING_WEAK) || wanted(b, SCALING_STRONG))) /* several GPUs, where there are */
        rc |= scaling_bench(&b->s, dir, reps, quick, tables ? NULL : fastest, wanted(b, SCALING_WEAK),
                            wanted(b, SCALING_STRONG));
    if (b->failures) fprintf(stderr, "bench: %d rows FAILED (see above)\n", b->failures), rc = 1;
    if (!tables) cost_bench(&b->s, dir); /* what accuracy costs here, from the full-step results */
    free(b);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    static const char *const devices[] = {"cpu", "gpu", "all"};
    const char *dir = "results";
    int reps = 0, quick = 0, device = 2; /* reps 0: not given */
    const char *tables_arg = NULL;
    struct table_names names = {0}, *tables = NULL;
    const struct cli_option opts[] = {
        {"device", CLI_CHOICE, "cpu|gpu|all", "(all: the GPU too, when there is one)", &device, 0, 0, devices, 3},
        {"quick", CLI_FLAG, NULL, "fewer sizes, 3 samples unless --reps says otherwise", &quick, 0, 0, NULL, 0},
        CLI_OPT_REPS(&reps),
        CLI_OPT_RESULTS(&dir),
        {"tables", CLI_TEXT, "LIST", "only these tables, e.g. table5,incache (all, and the full step)", &tables_arg, 0, 0,
         NULL, 0},
    };
    cli_parse(help, opts, CLI_NOPTS(opts), argc, argv);
    if (!reps) reps = quick ? 3 : 5;
    if (tables_arg) parse_tables(tables_arg, &names), tables = &names;
    int rc = 0;
    if (device < 2) return run_device(device, dir, reps, quick, tables);
    /* the GPU first where there is one: its tables take a third of the host CPU's time (lent H100:
     * 2.5 against 5.5-7.5 min), and a bench cut short keeps the part the machine is there for */
    char why[256];
    if (gpu_backend()->available(why, sizeof why)) rc |= run_device(DEV_GPU, dir, reps, quick, tables);
    else fprintf(stderr, "bench: no GPU part: %s\n", why);
    rc |= run_device(DEV_CPU, dir, reps, quick, tables);
    return rc;
}
