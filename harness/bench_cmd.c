/* fdtdbench bench: the paper's tables measured on this machine, beside its figures.
 * CPU: Table 5 (one thread and all threads), uniform coefficients, grid sizes.
 * GPU (when there is one): Tables 2, 3 and 4, uniform coefficients, grid sizes.
 * Every row is verified before it is timed; CSV and Markdown go to results/<machine>/. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cost.h"
#include "measure.h"
#include "paper.h"
#include "session.h"
#include "step_bench.h"

static const char *const help =
    "usage: fdtdbench bench [OPTIONS]\n"
    "Reproduces the paper's throughput tables on this machine (Hx, 300^3, f32, array coefficients):\n"
    "CPU Table 5 on one thread and on all threads; GPU Tables 2-4 when a GPU is present (all).\n"
    "Also uniform coefficients and a grid-size sweep. Where 300^3 fits within a few times the\n"
    "last-level cache (GPU: L2), the headline tables add the smallest cube beyond 8x that cache.\n"
    "Prints Markdown tables and saves them with the CSV under RESULTS/<machine>/bench-<date>.{csv,md}.\n"
    "Then every scheme's full time step (fdtdbench step, each storage) in step-<date>.{csv,md}.\n"
    "--quick: fewer sizes, 3 samples.\n";

enum { MAX_ROWS = 512 };
struct row {
    char table[32];
    struct run_config c;
    struct run_result r;
    double paper;
};

struct bench {
    struct session s;
    struct results_file rf;
    struct row rows[MAX_ROWS];
    int nrows, reps, quick, failures;
};

/* Distinct kernel variants the device has, in table order (baseline first). */
static int variants(enum device d, const char **out, int max)
{
    const struct kernel_entry *t = d == DEV_CPU ? cpu_kernel_table : gpu_kernel_table;
    int n = 0, len = d == DEV_CPU ? cpu_kernel_table_len : gpu_kernel_table_len;
    for (int i = 0; i < len; i++) {
        int seen = 0;
        for (int j = 0; j < n; j++) seen |= !strcmp(out[j], t[i].variant);
        if (!seen && n < max) out[n++] = t[i].variant;
    }
    return n;
}

static void measure_row(struct bench *b, const char *table, struct run_config c, double paper)
{
    if (b->nrows == MAX_ROWS) cli_error("bench: more than %d rows", MAX_ROWS);
    struct row *w = &b->rows[b->nrows];
    char why[512];
    c.reps = b->reps;
    fprintf(stderr, "  %-18s %-7s %s %s %-8s %dx%dx%d %s %dx%dx%d ... ", table, c.scheme->name,
            component_names[c.component], coef_names[c.coef], c.variant, c.grid[0], c.grid[1], c.grid[2],
            c.device == DEV_CPU ? "tile" : "block", c.block[0], c.block[1], c.block[2]);
    if (measure(b->s.b, &c, &b->s.desc, &w->r, why, sizeof why)) {
        fprintf(stderr, "FAILED: %s\n", why);
        b->failures++;
        return;
    }
    fprintf(stderr, "%.4g MCells/s, %.0f%% of bw (spread %.0f)\n", w->r.mcells_per_s, w->r.pct_bw, w->r.pct_bw_spread);
    snprintf(w->table, sizeof w->table, "%s", table);
    w->c = c, w->paper = paper;
    results_row(b->rf.f, table, &c, &w->r, &b->s.desc, paper);
    results_check(&b->rf);
    b->nrows++;
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
static void measure_headline(struct bench *b, const char *table, struct run_config c, double paper)
{
    measure_row(b, table, c, paper);
    int n = memory_cube(c, &b->s.desc);
    if (!n) return;
    c.grid[0] = c.grid[1] = c.grid[2] = n;
    measure_row(b, table, c, -1);
}

static void bench_cpu(struct bench *b)
{
    const char *vars[8];
    int nv = variants(DEV_CPU, vars, 8), all = omp_get_num_procs();
    int thread_counts[2] = {1, all};
    for (int t = 0; t < (all > 1 ? 2 : 1); t++) {
        session_bandwidth(&b->s, thread_counts[t]);
        const char *table = thread_counts[t] == 1 ? "table5-1thread" : "table5-allthreads";
        for (int v = 0; v < nv; v++)
            for (int i = 0; i < scheme_count(); i++) {
                struct run_config c = hx_config(scheme_at(i), DEV_CPU, vars[v], COEF_ARRAY, PAPER_GRID);
                c.threads = thread_counts[t];
                const struct paper_scheme *p = paper_find(c.scheme->name);
                measure_headline(b, table, c, p ? p->cpu_mcells : -1);
            }
    }
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++)
            measure_headline(b, "uniform", hx_config(scheme_at(i), DEV_CPU, vars[v], COEF_UNIFORM, PAPER_GRID), -1);
    static const int sizes[] = {32, 64, 128, 200, 300};
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++)
            for (int g = b->quick ? 2 : 0; g < 5; g++)
                measure_row(b, "sizes", hx_config(scheme_at(i), DEV_CPU, vars[v], COEF_ARRAY, sizes[g]), -1);
}

static void bench_gpu(struct bench *b)
{
    const char *vars[8];
    int nv = variants(DEV_GPU, vars, 8);
    session_bandwidth(&b->s, 0);
    for (int i = 0; i < 6; i++) { /* Table 2: Yee against block shape, the paper's method */
        struct run_config c = hx_config(scheme_find("yee"), DEV_GPU, "baseline", COEF_ARRAY, PAPER_GRID);
        memcpy(c.block, paper_table2[i].block, sizeof c.block);
        measure_row(b, "table2", c, paper_table2[i].mcells);
    }
    for (int v = 0; v < nv; v++) /* Tables 3 and 4: each scheme at its best (tuned) shape */
        for (int i = 0; i < scheme_count(); i++) {
            struct run_config c = hx_config(scheme_at(i), DEV_GPU, vars[v], COEF_ARRAY, PAPER_GRID);
            default_launch(&b->s, &c);
            const struct paper_scheme *p = paper_find(c.scheme->name);
            measure_headline(b, "table4", c, p ? p->gpu_mcells : -1);
        }
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++) {
            struct run_config c = hx_config(scheme_at(i), DEV_GPU, vars[v], COEF_UNIFORM, 512);
            default_launch(&b->s, &c);
            measure_headline(b, "uniform", c, -1);
        }
    static const int sizes[] = {64, 128, 256, 384, 512, 640};
    for (int v = 0; v < nv; v++)
        for (int i = 0; i < scheme_count(); i++)
            for (int g = b->quick ? 3 : 0; g < 6; g++) {
                struct run_config c = hx_config(scheme_at(i), DEV_GPU, vars[v], COEF_ARRAY, sizes[g]);
                default_launch(&b->s, &c);
                measure_row(b, "sizes", c, -1);
            }
}

/* The Yee row of the same table, variant, grid and threads: the ratio's denominator. */
static const struct row *yee_row(const struct bench *b, const struct row *w)
{
    for (int i = 0; i < b->nrows; i++) {
        const struct row *y = &b->rows[i];
        if (!strcmp(y->c.scheme->name, "yee") && !strcmp(y->table, w->table) && !strcmp(y->c.variant, w->c.variant) &&
            y->c.grid[0] == w->c.grid[0] && y->r.threads == w->r.threads && y->c.coef == w->c.coef &&
            (strcmp(w->table, "table2") || !memcmp(y->c.block, w->c.block, sizeof y->c.block)))
            return y;
    }
    return NULL;
}

static void markdown(const struct bench *b, FILE *f)
{
    static const struct { const char *table, *title; } tables[] = {
        {"table5-1thread", "Table 5, one thread (paper: one core of a Xeon W5580)"},
        {"table5-allthreads", "Table 5, all threads (paper: one core of a Xeon W5580)"},
        {"table2", "Table 2: Yee against thread-block shape (paper: Tesla C2050)"},
        {"table4", "Tables 3 and 4: each scheme at its best block shape (paper: Tesla C2050)"},
        {"uniform", "Uniform (scalar) coefficients"},
        {"sizes", "Throughput against grid size"},
    };
    fprintf(f, "# %s benchmark: %s\n\n", device_names[b->s.device], b->s.desc.name);
    fprintf(f, "%s%s%s%s%s. Command: `fdtdbench bench`. Hx updates, f32. MCells/s is the paper's equation (5): "
               "updates/s / 6 / 1e6. GB/s counts compulsory bytes; %% bw is against the better of this run's own "
               "probe figures. Every row was verified against the double-precision reference before timing.\n\n",
            b->s.desc.detail, b->s.desc.driver[0] ? "; driver " : "", b->s.desc.driver,
            b->s.desc.simd[0] ? "; kernels " : "", b->s.desc.simd);
    for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
        int any = 0;
        for (int i = 0; i < b->nrows; i++) any |= !strcmp(b->rows[i].table, tables[t].table);
        if (!any) continue;
        const struct bandwidth *bw = NULL;
        for (int i = 0; i < b->nrows && !bw; i++)
            if (!strcmp(b->rows[i].table, tables[t].table)) bw = &b->rows[i].r.bw;
        fprintf(f, "## %s\n\nMeasured bandwidth (first row; each row has its own, sampled between its kernel samples): "
                   "%s %.1f GB/s, %s %.1f GB/s.\n\n", tables[t].title, bw->copy_name,
                bw->copy_gbs, bw->second_name, bw->second_gbs);
        fprintf(f, "| scheme | variant | grid | %s | MCells/s | Yee/scheme | paper MCells/s | paper Yee/scheme "
                   "| M updates/s | GB/s | %% bw | %% bw spread | GFLOP/s | flops/byte |\n",
                b->s.device == DEV_CPU ? "threads" : "block");
        fprintf(f, "|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (int i = 0; i < b->nrows; i++) {
            const struct row *w = &b->rows[i];
            if (strcmp(w->table, tables[t].table)) continue;
            const struct row *y = yee_row(b, w);
            const struct paper_scheme *p = paper_find(w->c.scheme->name), *py = paper_find("yee");
            char setting[48], grid[40], ratio[16] = "", paper[16] = "", pratio[16] = "";
            if (b->s.device == DEV_CPU) snprintf(setting, sizeof setting, "%d", w->r.threads);
            else snprintf(setting, sizeof setting, "%dx%dx%d", w->c.block[0], w->c.block[1], w->c.block[2]);
            if (w->c.nodes > 1)
                snprintf(setting + strlen(setting), sizeof setting - strlen(setting), " x%d nodes", w->c.nodes);
            if (!strcmp(w->table, "table4") && p) /* Table 3: the paper's best shape beside ours */
                snprintf(setting + strlen(setting), sizeof setting - strlen(setting), " (paper %dx%dx%d)",
                         p->best_block[0], p->best_block[1], p->best_block[2]);
            snprintf(grid, sizeof grid, "%d³%s", w->c.grid[0], w->r.cache_resident ? " (cache-resident)" : "");
            if (y) snprintf(ratio, sizeof ratio, "%.2f", y->r.mcells_per_s / w->r.mcells_per_s);
            if (w->paper >= 0) snprintf(paper, sizeof paper, "%.0f", w->paper);
            if (w->paper >= 0 && p && strcmp(w->table, "table2"))
                snprintf(pratio, sizeof pratio, "%.1f",
                         b->s.device == DEV_CPU ? py->cpu_mcells / p->cpu_mcells : py->gpu_mcells / p->gpu_mcells);
            fprintf(f, "| %s | %s | %s | %s | %.1f | %s | %s | %s | %.1f | %.1f | %.0f%% | %.0f | %.1f | %.3f |\n",
                    w->c.scheme->title, w->c.variant, grid, setting, w->r.mcells_per_s, ratio, paper, pratio,
                    w->r.updates_per_s / 1e6, w->r.gbs_effective, w->r.pct_bw, w->r.pct_bw_spread, w->r.gflops,
                    (double)w->r.counts.flops / w->r.counts.compulsory_bytes);
        }
        fprintf(f, "\n");
    }
}

/* The Markdown beside the CSV, of the same name (.md for .csv), complete or absent. */
static int write_markdown(const struct bench *b)
{
    const char *base = strrchr(b->rf.path, '/') + 1; /* results_close's name: <folder>/<stem>.csv */
    char stem[OUTFILE_PATH_MAX], name[OUTFILE_PATH_MAX];
    struct outfile o;
    snprintf(stem, sizeof stem, "%.*s", (int)(strlen(base) - 4), base);
    if (outfile_path(name, sizeof name, "--results", "%s/%s.md", b->rf.out.dir, stem) ||
        outfile_open(&o, b->rf.out.dir, name))
        return -1;
    markdown(b, o.f);
    if (outfile_link(&o, stem, ".md", 0)) return -1;
    fprintf(stderr, "wrote %s and %s\n", b->rf.path, o.path);
    return 0;
}

static int run_device(enum device d, const char *dir, int reps, int quick)
{
    struct bench *b = calloc(1, sizeof *b);
    if (!b) cli_fail("out of memory");
    b->reps = reps, b->quick = quick;
    session_open(&b->s, d);
    fprintf(stderr, "bench on the %s: %s\n", device_names[d], b->s.desc.name);
    if (results_open(&b->rf, dir, b->s.slug, "bench")) return 2;
    if (d == DEV_CPU) bench_cpu(b);
    else bench_gpu(b);
    int rc = results_close(&b->rf) || write_markdown(b) ? 1 : 0;
    markdown(b, stdout);
    rc |= step_bench(&b->s, dir, reps, quick); /* whole steps beside the single-component tables */
    if (b->failures) fprintf(stderr, "bench: %d rows FAILED (see above)\n", b->failures), rc = 1;
    cost_bench(&b->s, dir); /* what accuracy costs here, from the full-step results */
    free(b);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    static const char *const devices[] = {"cpu", "gpu", "all"};
    const char *dir = "results";
    int reps = 0, quick = 0, device = 2; /* reps 0: not given */
    const struct cli_option opts[] = {
        {"device", CLI_CHOICE, "cpu|gpu|all", "(all: the GPU too, when there is one)", &device, 0, 0, devices, 3},
        {"quick", CLI_FLAG, NULL, "fewer sizes, 3 samples unless --reps says otherwise", &quick, 0, 0, NULL, 0},
        CLI_OPT_REPS(&reps),
        CLI_OPT_RESULTS(&dir),
    };
    cli_parse(help, opts, CLI_NOPTS(opts), argc, argv);
    if (!reps) reps = quick ? 3 : 5;
    int rc = 0;
    if (device < 2) return run_device(device, dir, reps, quick);
    rc |= run_device(DEV_CPU, dir, reps, quick);
    char why[256];
    if (gpu_backend()->available(why, sizeof why)) rc |= run_device(DEV_GPU, dir, reps, quick);
    else fprintf(stderr, "bench: no GPU part: %s\n", why);
    return rc;
}
